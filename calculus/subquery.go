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
	if p := b.t.presence(v); p != nil {
		// NULL is not a value: rows where e is NULL are not counted.
		ls = append(ls, &Val{E: p})
	}
	v = b.t.valueOf(v, true)
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
		case *Val:
			// A grouped scalar subquery's value, over its aggregates.
			sub[lf.V.Name] = SubstExpr(a.E, sub)
		case *AggSum:
			if len(a.Group) > 0 {
				return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
			}
			corr, pos, err := correlation(a.T)
			if err != nil {
				return nil, err
			}
			t, group, perGroup := b.bindCorrelation(withGroup(a.T, corr), corr, keyVars, body, outer)
			idx := addAgg(&AggSum{Group: group, T: t})
			if !perGroup {
				keyed(idx, pos)
				sub[lf.V.Name] = &AggRef{Index: idx, T: lf.V.Type}
				continue
			}
			// The value times the group's row count, divided by it: exact for
			// integers (below 2^53), within rounding for floats.
			var v lang.Expr = &lang.Binary{Op: "/", L: &AggRef{Index: idx, T: lf.V.Type}, R: &AggRef{Index: 0, T: lang.TInt}, T: lang.TFloat}
			if lf.V.Type == lang.TInt {
				v = &lang.Call{Name: "CAST_INT", Args: []lang.Expr{v}, T: lang.TInt}
			}
			sub[lf.V.Name] = v
		case *Extreme:
			rows, ok := a.T.(*AggSum)
			if !ok || len(rows.Group) != 1 || rows.Group[0].Name != a.Arg.Name {
				return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
			}
			corr, pos, err := correlation(rows.T)
			if err != nil {
				return nil, err
			}
			t, group, perGroup := b.bindCorrelation(rows.T, corr, keyVars, body, outer)
			idx := addAgg(&AggSum{Group: append(append([]Var{}, group...), a.Arg), T: t})
			if !perGroup {
				keyed(idx, pos)
			}
			sub[lf.V.Name] = &ExtremeRef{Index: idx, Max: a.Max, Hol: a.Hol, T: lf.V.Type}
		default:
			return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
		}
	}
	// A lifted variable that may be NULL becomes a maybe value over the
	// view's aggregates (nullable.go); lifted values and presence
	// conditions read the variables' values as they are.
	out := map[string]lang.Expr{}
	for n, x := range sub {
		out[n] = x
		if p := b.t.present[n]; p != nil {
			out[n] = &maybe{V: x, P: SubstExpr(p, sub)}
		}
	}
	return SubstExpr(r, out), nil
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

// bindCorrelation makes the group keys corr that a subquery's term t reads
// enumerable once t is an aggregate of the view keyed by them. A key
// equated to a variable of the subquery (IN's test, or s.C = t.C after
// unification with other columns) replaces that variable. A key that no
// relation atom of t then holds (an inequality correlation t.C < s.C,
// SOME/ALL's test) would key a map by a variable nothing binds: then t is
// joined with the view's body and keyed by all the view's keys, and
// perGroup is set: the aggregate holds t times each group's row count
// (Aggs[0]), by which the reader divides (a MIN/MAX only tests counts
// against 0 and needs no division).
func (b *block) bindCorrelation(t Term, corr, keyVars []Var, body []Term, outer map[string]bool) (out Term, group []Var, perGroup bool) {
	if len(corr) == 0 {
		return t, nil, false
	}
	t = unifyWith(t, corr, outer)
	for _, v := range corr {
		if !heldByAtoms(t, v.Name) {
			return prod(append(append([]Term{}, body...), t)), keyVars, true
		}
	}
	return t, corr, false
}

// unifyWith substitutes each key of corr for a variable of t (not of the
// enclosing body: outer) that a top-level equality factor of t equates it
// with, and drops the equality. The variable is summed over in t, so the
// sum keeps only its terms where it equals the key: they are t at the key.
func unifyWith(t Term, corr []Var, outer map[string]bool) Term {
	p, ok := t.(*Prod)
	if !ok {
		return t
	}
	fs := append([]Term{}, p.Factors...)
	for changed := true; changed; {
		changed = false
		for i, f := range fs {
			v, isVal := f.(*Val)
			if !isVal {
				continue
			}
			e, isBin := v.E.(*lang.Binary)
			if !isBin || e.Op != "=" {
				continue
			}
			l, lok := e.L.(*VarRef)
			r, rok := e.R.(*VarRef)
			if !lok || !rok || l.V.Type != r.V.Type {
				continue
			}
			if hasVar(corr, r.V.Name) {
				l, r = r, l
			}
			if !hasVar(corr, l.V.Name) || outer[r.V.Name] || hasVar(corr, r.V.Name) {
				continue
			}
			sub := map[string]lang.Expr{r.V.Name: Ref(l.V)}
			rest := append(append([]Term{}, fs[:i]...), fs[i+1:]...)
			for j, g := range rest {
				rest[j] = SubstTerm(g, sub)
			}
			fs, changed = rest, true
			break
		}
	}
	return prod(fs)
}

// heldByAtoms reports whether every monomial of t holds variable v in a
// relation atom, directly or inside a nested aggregate whose group keeps v.
func heldByAtoms(t Term, v string) bool {
	var held func(t Term) bool
	held = func(t Term) bool {
		switch x := t.(type) {
		case *Rel:
			return hasVar(x.Vars, v)
		case *Prod:
			return slices.ContainsFunc(x.Factors, held)
		case *Sum:
			return len(x.Terms) > 0 && !slices.ContainsFunc(x.Terms, func(u Term) bool { return !held(u) })
		case *Neg:
			return held(x.T)
		case *Exists:
			return held(x.T)
		case *AggSum:
			return hasVar(x.Group, v) && held(x.T)
		}
		return false
	}
	for _, m := range Expand(t) {
		if !slices.ContainsFunc(m.Factors, held) {
			return false
		}
	}
	return true
}
