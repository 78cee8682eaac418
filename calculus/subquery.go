package calculus

import (
	"slices"

	"github.com/toastgen/toastgen/lang"
)

// countDistinct translates COUNT(DISTINCT e) of a subquery block (a scalar
// subquery or a grouped derived table): agg builds the block's aggregate
// over its group (the derived table's group keys, none for a scalar
// subquery; correlation variables stay free). As for a view,
// the number of distinct values is a sum of Exists over (group, value):
//
//	AggSum(g, Exists(AggSum(g ∪ {d}, body * Lift(d, e))))
//
// Subqueries inside e are lifted inside the inner body.
func (b *block) countDistinct(a *lang.Agg, agg func(...Term) Term) (Term, error) {
	if a.Fn != "COUNT" || a.Arg == nil {
		return nil, errorAt(a.P, "%s(DISTINCT …) is not supported yet", a.Fn)
	}
	v, ls, err := b.scalar(a.Arg)
	if err != nil {
		return nil, err
	}
	d := b.t.newVar("distinct", a.Arg.Type())
	// agg renames the block's local variables (freshCopy); d is bound here,
	// in the group of the inner AggSum, so it must keep its name through that
	// copy. Enclosing blocks' copies rename it like any other of their
	// variables.
	o := b.t.order[d.Name]
	b.t.order[d.Name] = -1
	inner, ok := agg(append(ls, &Lift{V: d, T: &Val{E: v}})...).(*AggSum)
	b.t.order[d.Name] = o
	if !ok {
		return nil, errorAt(a.P, "COUNT(DISTINCT …) here is not supported yet")
	}
	group := append([]Var{}, inner.Group...)
	inner.Group = append(inner.Group, d)
	return &AggSum{Group: group, T: &Exists{T: inner}}, nil
}

// readoutSubquery translates a subquery in the SELECT list or HAVING of a
// grouped query (body is the view's body, keyVars its group keys). Each
// aggregate the subquery lifts becomes an aggregate of the view keyed by the
// group keys it is correlated with (none: keyless), recorded in cq.AggKeys:
//
//   - a sum (COUNT, SUM, AVG's parts, the row count of EXISTS, IN,
//     SOME/ALL, COUNT(DISTINCT)) becomes AggSum(corr, …), read by an AggRef;
//   - a MIN/MAX becomes the count of each (corr, value), AggSum(corr ∪
//     {arg}, …), read by an ExtremeRef, as a view's own MIN/MAX.
//
// A subquery correlated with a column that is not a group key has no single
// value per group: SQL rejects it outside an aggregate (inside one, as in
// SUM((SELECT …)), it is translated with the aggregate's argument).
func (b *block) readoutSubquery(e lang.Expr, body []Term, keyVars []Var, addAgg func(Term) int, cq *Query) (lang.Expr, error) {
	r, lifts, err := b.subquery(e)
	if err != nil {
		return nil, err
	}
	outer := map[string]bool{}
	for _, f := range body {
		for _, v := range Vars(f) {
			outer[v.Name] = true
		}
	}
	// correlation returns the group keys t reads, with their positions.
	correlation := func(t Term) ([]Var, []int, error) {
		var corr []Var
		var pos []int
		for _, v := range Vars(t) {
			if !outer[v.Name] || hasVar(corr, v.Name) {
				continue
			}
			i := slices.IndexFunc(keyVars, func(k Var) bool { return k.Name == v.Name })
			if i < 0 {
				return nil, nil, errorAt(e.Pos(), "a subquery in SELECT or HAVING is correlated with %s, which is not a group key: it has no single value per group (use it in an aggregate or GROUP BY it)", b.columnName(v))
			}
			corr, pos = append(corr, v), append(pos, i)
		}
		return corr, pos, nil
	}
	keyed := func(idx int, pos []int) {
		if len(pos) == 0 {
			return
		}
		if cq.AggKeys == nil {
			cq.AggKeys = map[int][]int{}
		}
		cq.AggKeys[idx] = pos
	}
	sub := map[string]lang.Expr{}
	for _, l := range lifts {
		lf, ok := l.(*Lift)
		if !ok {
			return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
		}
		switch a := lf.T.(type) {
		case *AggSum:
			if len(a.Group) > 0 {
				return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
			}
			corr, pos, err := correlation(a.T)
			if err != nil {
				return nil, err
			}
			idx := addAgg(&AggSum{Group: corr, T: withGroup(a.T, corr)})
			keyed(idx, pos)
			sub[lf.V.Name] = &AggRef{Index: idx, T: lf.V.Type}
		case *Extreme:
			rows, ok := a.T.(*AggSum)
			if !ok || len(rows.Group) != 1 || rows.Group[0].Name != a.Arg.Name {
				return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
			}
			corr, pos, err := correlation(rows.T)
			if err != nil {
				return nil, err
			}
			idx := addAgg(&AggSum{Group: append(append([]Var{}, corr...), a.Arg), T: rows.T})
			keyed(idx, pos)
			sub[lf.V.Name] = &ExtremeRef{Index: idx, Max: a.Max, T: lf.V.Type}
		default:
			return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
		}
	}
	return SubstExpr(r, sub), nil
}

// withGroup adds the correlation variables corr to the group of an
// Exists(AggSum(g, …)) factor of t (COUNT(DISTINCT)'s shape): once t is
// keyed by corr, the inner aggregate must keep them apart too. With corr
// bound outside, the two are equal.
func withGroup(t Term, corr []Var) Term {
	if len(corr) == 0 {
		return t
	}
	ex, ok := t.(*Exists)
	if !ok {
		return t
	}
	a, ok := ex.T.(*AggSum)
	if !ok {
		return t
	}
	g := append([]Var{}, corr...)
	for _, v := range a.Group {
		if !hasVar(g, v.Name) {
			g = append(g, v)
		}
	}
	return &Exists{T: &AggSum{Group: g, T: a.T}}
}

// columnName names the column of block b (or of an enclosing block) whose
// variable is v, as alias.column, for messages.
func (b *block) columnName(v Var) string {
	for ; b != nil; b = b.up {
		for i, fi := range b.q.From {
			if i >= len(b.vars) {
				break
			}
			for j := range b.vars[i] {
				if b.t.resolve(b.vars[i][j]).Name != v.Name {
					continue
				}
				switch {
				case fi.Rel != nil:
					return fi.Alias + "." + fi.Rel.Columns[j].Name
				case fi.Sub != nil && j < len(fi.Sub.Items):
					return fi.Alias + "." + fi.Sub.Items[j].Name
				}
			}
		}
	}
	return "column " + v.Name
}
