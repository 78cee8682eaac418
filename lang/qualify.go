package lang

import "slices"

// A filter on window values. SQL computes windows after WHERE, so a
// condition on a row's rank is written in the query that selects from a
// derived table with the windows:
//
//	SELECT * FROM (SELECT a, b, RANK() OVER (PARTITION BY a ORDER BY b DESC) AS r FROM R) AS t WHERE t.r <= 3
//
// (the top 3 of each partition; QUALIFY in some dialects). foldQualify
// folds such a view query into its derived table: the derived table's
// query, with the outer SELECT list and ORDER BY/LIMIT over its columns,
// and the outer WHERE as its Qualify, a filter of its rows after their
// windows. The derived table's query may be one with windows over its rows
// or over its groups (window.go); the outer query must select from it
// alone, with neither joins, grouping, aggregates, DISTINCT nor
// subqueries. Its SELECT list may drop and reorder the derived table's
// columns. A dropped column that the windows or the filter read stays a
// key of the view, unselected (as an unselected GROUP BY key): a window's
// PARTITION BY and ORDER BY values, a ROW_NUMBER's ties (Window.Ties: every
// column of the derived table), the filter's columns. Rows that differ in
// other dropped columns only are one row of the view, their windows being
// equal.
//
// A row of a bag view stands for its copies (its multiplicity), numbered
// one after the other by ROW_NUMBER: a filter on ROW_NUMBER keeps some of
// them. It must then be a conjunction of comparisons of one ROW_NUMBER with
// integer constants (an interval of numbers) and of conditions without
// ROW_NUMBER; the view's row keeps the copies whose numbers fall in the
// interval, and shows the first kept number.

// foldQualify returns q folded into its windowed derived table, or q
// itself when it is not a query over one (see above). It takes the
// derived table's windows off r.nestedWindows.
func (r *resolver) foldQualify(q *Query) *Query {
	if len(q.Union) > 0 || len(q.From) != 1 || q.From[0].Sub == nil {
		return q
	}
	sub := q.From[0].Sub
	ws := windowsOf(sub)
	if len(sub.Union) > 0 || len(ws) == 0 || sub.Qualify != nil {
		return q
	}
	// Where the outer query cannot fold, addQuery reports the windows.
	switch {
	case len(q.Joins) > 0 || len(q.GroupBy) > 0 || q.Having != nil || q.Aggregated() || len(windowsOf(q)) > 0:
		r.fail(q.Pos, "a query over a derived table with window functions may only select and filter its rows (no grouping, aggregates or windows)")
	case q.Distinct:
		r.fail(q.Pos, "SELECT DISTINCT over a derived table with window functions is not supported yet")
	}
	noSubquery := func(e Expr) {
		walkExpr(e, 0, func(e Expr, depth int) bool {
			switch e.(type) {
			case *Subquery, *Exists, *InQuery, *Quantified:
				r.fail(e.Pos(), "a subquery in a query over a derived table with window functions is not supported yet")
			}
			return true
		})
	}
	subst := func(e Expr) Expr {
		noSubquery(e)
		return replaceCols(e, sub.Items)
	}
	f := *sub
	f.Pos, f.Name, f.Named, f.NamePos = q.Pos, q.Name, q.Named, q.NamePos
	f.Items = nil
	for _, it := range q.Items {
		c := *it
		c.Expr = subst(it.Expr)
		f.Items = append(f.Items, &c)
	}
	if q.Where != nil {
		f.Qualify = subst(q.Where)
	}
	f.OrderBy = nil
	for _, o := range q.OrderBy {
		c := *o
		if c.Expr != nil {
			c.Expr = subst(o.Expr)
		}
		f.OrderBy = append(f.OrderBy, &c)
	}
	f.Limit = q.Limit
	folded := map[*Agg]bool{}
	for _, a := range ws {
		folded[a] = true
	}
	r.nestedWindows = slices.DeleteFunc(r.nestedWindows, func(a *Agg) bool { return folded[a] })
	if len(r.nestedWindows) > 0 {
		return q // a window nested deeper: addQuery rejects it
	}
	r.checkWindows(&f, ws[0])
	return &f
}

// checkRowNumbers rejects the uses of ROW_NUMBER in a bag view that would
// tell its copies apart (see above): an expression of a ROW_NUMBER, and a
// filter on ROW_NUMBERs that is not an interval of one.
func (r *resolver) checkRowNumbers(q *Query) {
	var rn *Agg
	for _, a := range windowsOf(q) {
		if a.Fn == "ROW_NUMBER" {
			rn = a
		}
	}
	if rn == nil || q.Aggregated() {
		return
	}
	for _, it := range q.Items {
		if a, ok := it.Expr.(*Agg); ok && a.Fn == "ROW_NUMBER" {
			continue
		}
		walkExpr(it.Expr, 0, func(e Expr, depth int) bool {
			if a, ok := e.(*Agg); ok && depth == 0 && a.Fn == "ROW_NUMBER" {
				r.fail(a.P, "ROW_NUMBER in an expression is not supported yet in a query without GROUP BY (select the number itself)")
			}
			return depth == 0
		})
	}
	if q.Qualify == nil {
		return
	}
	var filtered *Agg
	for _, c := range conjuncts(q.Qualify) {
		if a, _, _, ok := RowNumberBound(c); ok {
			if filtered != nil && exprKey(filtered) != exprKey(a) {
				r.fail(c.Pos(), "a filter on two different ROW_NUMBER windows is not supported")
			}
			filtered = a
			continue
		}
		walkExpr(c, 0, func(e Expr, depth int) bool {
			if a, ok := e.(*Agg); ok && depth == 0 && a.Fn == "ROW_NUMBER" {
				r.fail(c.Pos(), "a filter on ROW_NUMBER must compare it with an integer constant (=, <, <=, >, >=, BETWEEN), joined by AND")
			}
			return depth == 0
		})
	}
	if filtered == nil {
		return
	}
	for _, a := range windowsOf(q) {
		if a.Fn == "ROW_NUMBER" && exprKey(a) != exprKey(filtered) {
			r.fail(a.P, "a query that filters on one ROW_NUMBER cannot show another (which copies of a row it keeps would be arbitrary)")
		}
	}
}

// conjuncts splits e at its top-level ANDs.
func conjuncts(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []Expr{e}
}

// RowNumberBound reads a comparison of a ROW_NUMBER with an integer
// constant, written either way round (a conjunct of a Qualify), as the
// ROW_NUMBER, the comparison with the ROW_NUMBER on the left, and the
// constant; the calculus reads a Qualify's bounds with it.
func RowNumberBound(e Expr) (*Agg, string, int64, bool) {
	b, ok := e.(*Binary)
	if !ok {
		return nil, "", 0, false
	}
	flip := map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
	if _, ok := flip[b.Op]; !ok {
		return nil, "", 0, false
	}
	a, ok1 := b.L.(*Agg)
	k, ok2 := intConst(b.R)
	op := b.Op
	if !ok1 || !ok2 {
		a, ok1 = b.R.(*Agg)
		k, ok2 = intConst(b.L)
		op = flip[b.Op]
	}
	if !ok1 || !ok2 || a.Fn != "ROW_NUMBER" || a.Over == nil {
		return nil, "", 0, false
	}
	return a, op, k, true
}

// intConst reads an integer literal, maybe negated.
func intConst(e Expr) (int64, bool) {
	switch x := e.(type) {
	case *Lit:
		if x.T == TInt && !x.Null {
			return x.Int, true
		}
	case *Unary:
		if x.Op == "-" {
			v, ok := intConst(x.X)
			return -v, ok
		}
	}
	return 0, false
}

// replaceCols rebuilds e with each column of the query's one FROM item (a
// derived table) replaced by the expression of that table's SELECT item.
func replaceCols(e Expr, items []*SelectItem) Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *ColRef:
		if x.Outer == 0 && x.From == 0 {
			return items[x.Col].Expr
		}
		return x
	case *Unary:
		y := *x
		y.X = replaceCols(x.X, items)
		return &y
	case *Binary:
		y := *x
		y.L, y.R = replaceCols(x.L, items), replaceCols(x.R, items)
		return &y
	case *IsNull:
		y := *x
		y.X = replaceCols(x.X, items)
		return &y
	case *Like:
		y := *x
		y.X = replaceCols(x.X, items)
		return &y
	case *InList:
		y := *x
		y.X = replaceCols(x.X, items)
		y.List = make([]Expr, len(x.List))
		for i, l := range x.List {
			y.List[i] = replaceCols(l, items)
		}
		return &y
	case *Case:
		y := *x
		y.Whens = make([]*When, len(x.Whens))
		for i, w := range x.Whens {
			y.Whens[i] = &When{Cond: replaceCols(w.Cond, items), Then: replaceCols(w.Then, items)}
		}
		y.Else = replaceCols(x.Else, items)
		return &y
	case *Call:
		y := *x
		y.Args = make([]Expr, len(x.Args))
		for i, a := range x.Args {
			y.Args[i] = replaceCols(a, items)
		}
		return &y
	}
	return e
}
