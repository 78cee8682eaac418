// Package calculus is the aggregate calculus (AGCA) toastgen compiles through.
//
// In: resolved queries from package lang. Out: Terms — Rel, Val, Sum, Prod,
// Neg, AggSum, Lift, Exists, MapRef — with a stable printer (String), the
// delta rules (Delta), a simplifier (Simplify) and the SQL translation
// (FromSQL, which returns one Query per SELECT: its key variables and one
// term per aggregate).
//
// Scalar expressions inside Val and Lift terms reuse lang's expression nodes,
// with columns replaced by *VarRef leaves naming calculus variables. Ring
// values are int64 or float64; a tuple's multiplicity is its value.
//
// Decisions:
//   - Equality conjuncts between columns are unified at translation time, so
//     a join on R.B = S.B uses one variable for both columns. A subquery's
//     equality never unifies two variables of enclosing blocks (t.C = s.B
//     AND t.C = s.C): it stays a condition of the subquery (s.B = s.C is
//     tested per outer row, inside the aggregate).
//   - Each copy of an aggregate body gets fresh local variables, MIN/MAX's
//     argument included; an Extreme binds its argument (not a free variable).
//   - A SELECT DISTINCT without aggregates, as a derived table, union branch
//     or subquery, contributes Exists(AggSum(items, rows)): each distinct row
//     once. DISTINCT on an aggregated query means nothing here (lang has
//     rewritten the cases where it matters).
//   - Arithmetic in aggregated expressions is decomposed into ring operations
//     (e1*e2 → Val(e1)*Val(e2), e1+e2 → Val(e1)+Val(e2), CASE → guarded sum),
//     so that the viewlet transform can split values between maps.
//   - A conjunct mentioning no relation variable at all is kept as a
//     condition; OR, NOT, LIKE, IN-lists stay atomic conditions (Val of a
//     boolean expression, value 1 or 0).
//   - A scalar subquery with GROUP BY (every key fixed by the WHERE) or
//     HAVING is the ungrouped aggregate over the same rows, lifted to a
//     variable that is NULL where the group is empty or fails HAVING
//     (grouped.go). No term holds NULL: where an expression becomes a term,
//     SQL's three-valued logic is spelled out over the condition under which
//     each such variable has a value (nullable.go).
package calculus
