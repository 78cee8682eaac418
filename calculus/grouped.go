package calculus

import (
	"github.com/toastgen/toastgen/lang"
)

// groupedScalar translates a scalar subquery with GROUP BY or HAVING, whose
// FROM and WHERE inner has translated. Every GROUP BY expression must be
// fixed by the WHERE clause — equated to an expression of the enclosing
// queries or a constant, directly or through other equalities — so that
// the subquery has one group at most:
//
//	(SELECT AVG(e2.salary) FROM employee e2 WHERE e2.dept = e.dept GROUP BY e2.dept)
//
// is then the ungrouped aggregate over the same rows, when that group has a
// row and passes HAVING; otherwise the subquery has no row and its value is
// NULL. The value is lifted to a variable that may be NULL (nullable.go),
// present where the row count is non-zero (for a HAVING without GROUP BY,
// which has its one row over empty input too: where HAVING holds).
func (b *block) groupedScalar(x *lang.Subquery, inner *block) (lang.Expr, []Term, error) {
	t := b.t
	q := x.Q
	pins := inner.pins(q)
	for _, g := range q.GroupBy {
		if containsSubquery(g) {
			return nil, nil, errorAt(g.Pos(), "a subquery in the GROUP BY of a scalar subquery is not supported yet")
		}
		e, _, err := inner.scalar(g)
		if err != nil {
			return nil, nil, err
		}
		if !inner.fixed(e, pins) {
			return nil, nil, errorAt(g.Pos(), "this scalar subquery can return several rows: its GROUP BY %s is not fixed by an equality in its WHERE with a column of the enclosing query or a constant (not supported)", groupName(g))
		}
	}
	body := inner.body()
	agg := func(factors ...Term) Term {
		return inner.freshCopy(&AggSum{T: prod(append(append([]Term{}, body...), factors...))}, nil)
	}
	val, lifts, err := inner.aggregates(q.Items[0].Expr, agg)
	if err != nil {
		return nil, nil, err
	}
	val = SubstExpr(val, pins)
	var present lang.Expr
	if len(q.GroupBy) > 0 {
		n := t.newVar("count", lang.TInt)
		lifts = append(lifts, &Lift{V: n, T: agg()})
		present = countTest(n, true)
	}
	if q.Having != nil {
		h, ls, err := inner.aggregates(q.Having, agg)
		if err != nil {
			return nil, nil, err
		}
		lifts = append(lifts, ls...)
		present = andExpr(present, t.truth(SubstExpr(h, pins)))
	}
	// The lifted aggregates are this block's; any other variable of the
	// block left in the value is a column that is neither aggregated nor
	// fixed.
	lifted := map[string]bool{}
	for _, l := range lifts {
		if lf, ok := l.(*Lift); ok {
			lifted[lf.V.Name] = true
		}
	}
	for _, v := range ExprVars(val, nil) {
		if t.order[v.Name] >= inner.start && !lifted[v.Name] {
			return nil, nil, errorAt(q.Items[0].Expr.Pos(), "%s in a grouped scalar subquery is neither aggregated nor fixed by its WHERE", b.columnName(v))
		}
	}
	present = andExpr(present, t.presence(val))
	z := t.newVar("sub", val.Type())
	lifts = append(lifts, &Lift{V: z, T: &Val{E: t.valueOf(val, true)}})
	t.setPresent(z, present)
	return Ref(z), lifts, nil
}

// pins finds the variables of block b that q's WHERE conjuncts fix: a
// variable equated to an expression over variables of enclosing blocks,
// constants and variables fixed already maps to that expression (a column
// equated to an outer column has been unified with it: it is an outer
// variable already).
func (b *block) pins(q *lang.Query) map[string]lang.Expr {
	pins := map[string]lang.Expr{}
	for changed := true; changed; {
		changed = false
		for _, c := range conjuncts(q.Where) {
			x, ok := c.(*lang.Binary)
			if !ok || x.Op != "=" || containsSubquery(x) {
				continue
			}
			l, _, err := b.scalar(x.L)
			if err != nil {
				continue
			}
			r, _, err := b.scalar(x.R)
			if err != nil {
				continue
			}
			for _, s := range [][2]lang.Expr{{l, r}, {r, l}} {
				v, ok := s[0].(*VarRef)
				if !ok || b.t.order[v.V.Name] < b.start || pins[v.V.Name] != nil ||
					v.V.Type != s[1].Type() || !b.fixed(s[1], pins) {
					continue
				}
				pins[v.V.Name] = SubstExpr(s[1], pins)
				changed = true
			}
		}
	}
	return pins
}

// fixed reports whether e reads only variables of enclosing blocks and
// variables that pins fix.
func (b *block) fixed(e lang.Expr, pins map[string]lang.Expr) bool {
	for _, v := range ExprVars(e, nil) {
		if b.t.order[v.Name] >= b.start && pins[v.Name] == nil {
			return false
		}
	}
	return true
}

// groupName names a GROUP BY expression in messages.
func groupName(g lang.Expr) string {
	if c, ok := g.(*lang.ColRef); ok {
		return c.Alias + "." + c.Name
	}
	return "expression"
}

// nullableCol reports whether column c may be NULL (a derived table's column
// computed from a grouped scalar subquery).
func (b *block) nullableCol(c *lang.ColRef) bool {
	return b.t.present[b.colVar(c.Outer, c.From, c.Col).Name] != nil
}

// mayBeNull reports whether e, not translated yet, may be NULL: whether it
// holds a scalar subquery with GROUP BY or HAVING, a constant subquery
// (conservatively: its item may hold one) or a column that may be NULL. It
// decides where an argument that is otherwise ignored (COUNT's) must be
// translated after all.
func (b *block) mayBeNull(e lang.Expr) bool {
	if b.t.sql && lang.MayBeNull(e) {
		return true // a nullable column, NULL, x / 0, NULLIF, CASE without ELSE, …
	}
	found := false
	walkLang(e, func(x lang.Expr) {
		switch y := x.(type) {
		case *lang.ColRef:
			found = found || b.nullableCol(y)
		case *lang.Subquery:
			found = found || len(y.Q.GroupBy) > 0 || y.Q.Having != nil || len(y.Q.From) == 0
		}
	})
	return found
}
