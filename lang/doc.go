// Package lang reads query files in the DBToaster SQL dialect: it lexes and
// parses them (a participle grammar), expands INCLUDEs, resolves names and
// types, and returns a File of typed relations and queries (ast.go). Errors
// are *Error values positioned at file:line:col with the source line and a
// caret.
//
// Entry point: ParseFile(path) (*File, error), or Parse(name, src). Format
// prints a resolved file canonically (golden tests); SQLite translates a
// query for the SQLite correctness oracle; (*Query).View splits a query into
// the key and value columns of its view.
//
// Files: grammar.go (lexer and concrete syntax), resolve.go (queries, names,
// FROM, GROUP BY), exprs.go (expressions and their types), calls.go
// (functions and aggregates), order.go (ORDER BY, LIMIT), window.go (window
// functions), view.go (the view of a query), errors.go, format.go,
// sqlite.go (the oracle's SQL).
//
// Decisions, where the dialect leaves room:
//
//   - Reserved words are only those that can follow an expression or a table
//     name (SELECT, FROM, WHERE, AND, JOIN, CASE, …); function, type and unit
//     names (SUM, DATE, YEAR, INT, …) stay usable as column names. OFFSET
//     and QUALIFY are reserved too (FROM R OFFSET 3 must not read OFFSET
//     as an alias);
//     OVER, PARTITION, WITHIN are not (they follow a call's parenthesis).
//   - Positions: a Binary, Like, InList, BETWEEN, IN or comparison node is
//     positioned at its operator, so type errors point at the operator; other
//     nodes at their first token.
//   - JOIN … ON conditions and NATURAL JOIN equalities come first in Where,
//     in FROM order, then the WHERE clause. ON conditions may use any FROM
//     item of the query. A derived table sees the enclosing queries but not
//     its sibling FROM items; ColRef.Outer counts every enclosing query level,
//     including the query whose FROM holds the derived table.
//   - NATURAL JOIN joins the new item with the earlier items on every common
//     column name; an unqualified reference to such a name resolves to the
//     leftmost item.
//   - An unqualified name in GROUP BY is a FROM column if one exists, else a
//     select alias; an integer literal is a select list position. ORDER BY
//     prefers select aliases. GROUP BY expressions must not contain
//     aggregates.
//   - A query is aggregated if it has an aggregate in its select list or
//     HAVING, a GROUP BY or a HAVING. Only COUNT accepts DISTINCT. MIN/MAX
//     accept any value type; SUM/AVG need numbers.
//   - NOT EXISTS is folded into Exists.Not; NOT BETWEEN becomes NOT (x >= lo
//     AND x <= hi); -literal is folded into the literal.
//   - UNION branches must have the same number of columns, each pair of types
//     equal or both numeric; the union reports the first branch's names and
//     types. Branch queries have an empty Name. UNION and UNION ALL in one
//     chain associate left to right, as in SQL: A UNION B UNION ALL C is
//     (A ∪ B) ⊎ C, a UNION ALL query whose first branch is a UNION.
//   - SELECT DISTINCT over a grouped query is the distinct set of its output
//     rows, value columns included. When all its GROUP BY keys are selected
//     (or it has no GROUP BY) its rows are distinct already: the query is
//     kept, and Distinct on an aggregated query means nothing to later
//     stages. Otherwise a view, derived table or union branch becomes
//     SELECT DISTINCT over the grouped query as a derived table named
//     GROUPED, keyed by all its columns. In IN, EXISTS, SOME/ALL and scalar
//     subqueries DISTINCT changes nothing and is left alone.
//   - A top-level grouped view lists its keys as SQL lists output columns:
//     the GROUP BY expressions the select list names, in its order, then the
//     unselected ones in GROUP BY order (Query.View); Query.Columns maps the
//     select list onto those keys and values. Every later stage, and the
//     SQLite oracle, takes the order from there.
//   - Within a top-level query's view, key and value names must be distinct
//     (an unselected GROUP BY column named like a value is an error).
//     Derived names (a column's own name) that clash are qualified by the
//     table alias (e.name, m.name → NAME, M_NAME); explicit aliases must not
//     clash.
//   - SELECT * and alias.* expand to column references in FROM order; a
//     NATURAL JOIN column appears once, from its leftmost item.
//   - A SELECT without FROM reads one empty row: a constant view holds its
//     row from the start, a constant subquery is a constant. IS [NOT] NULL
//     is rejected: the dialect has no NULLs.
//   - INTERVAL counts are integers; units DAY, MONTH, YEAR (plural accepted).
//     Month and year arithmetic normalizes as Go's time.AddDate does.
//   - Parse never panics: resolver errors unwind with a private panic value
//     recovered in Parse, and any other panic becomes an "internal error".
package lang
