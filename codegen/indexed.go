package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Nested aggregates that an index of a map answers: sums over a range of
// one key (runtime.RangeSum) and MIN/MAX (runtime.OrderedIndex).

// rangeRead is a nested sum read from a range-sum index.
type rangeRead struct {
	r    *calculus.MapRef
	code *jen.Statement
}

// rangeSum recognizes a monomial of a nested sum over the entries of one
// keyed map whose keys are all bound but one, k, restricted to a range of
// k by comparisons with bound expressions — M[g..., k] * {k > x} (also
// {x < k}, <, <=, >=, and at most one lower and one upper bound), possibly
// times factors over bound variables only — and returns the read of the
// sum from the map's range-sum index by group g (planning it), with the
// remaining factors. It declines anything else: the caller loops.
func (g *gen) rangeSum(mono calculus.Monomial, sc scope) (rangeRead, []calculus.Term, bool, error) {
	var none rangeRead
	var r *calculus.MapRef
	var vals []*calculus.Val
	for _, f := range mono.Factors {
		switch x := f.(type) {
		case *calculus.MapRef:
			if r != nil {
				return none, nil, false, nil
			}
			r = x
		case *calculus.Val:
			vals = append(vals, x)
		default:
			return none, nil, false, nil
		}
	}
	if r == nil || !g.maps[r.Name].keyed {
		return none, nil, false, nil
	}
	mi := g.maps[r.Name]
	pos := -1
	for i, k := range r.Keys {
		if _, bound := sc[k.Name]; !bound {
			if pos >= 0 {
				return none, nil, false, nil
			}
			pos = i
		}
	}
	if pos < 0 {
		return none, nil, false, nil
	}
	k := r.Keys[pos]
	kt := mi.m.Keys[pos].Type
	var rest []calculus.Term
	var lo, hi lang.Expr // bounds of k
	var loIncl, hiIncl bool
	for _, v := range vals {
		mentions := false
		for _, u := range calculus.Vars(v) {
			if u.Name == k.Name {
				mentions = true
			} else if _, bound := sc[u.Name]; !bound {
				return none, nil, false, nil
			}
		}
		if !mentions {
			rest = append(rest, v)
			continue
		}
		b, ok := v.E.(*lang.Binary)
		if !ok {
			return none, nil, false, nil
		}
		op, other := b.Op, b.R
		if ref, isRef := b.L.(*calculus.VarRef); !isRef || ref.V.Name != k.Name {
			ref, isRef = b.R.(*calculus.VarRef)
			if !isRef || ref.V.Name != k.Name {
				return none, nil, false, nil
			}
			// x op k: flip to k op' x.
			other = b.L
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
		}
		for _, u := range calculus.ExprVars(other, nil) {
			if u.Name == k.Name {
				return none, nil, false, nil
			}
		}
		if ot := other.Type(); ot != kt && !(kt == lang.TFloat && ot == lang.TInt) {
			return none, nil, false, nil
		}
		switch op {
		case ">", ">=":
			if lo != nil {
				return none, nil, false, nil
			}
			lo, loIncl = other, op == ">="
		case "<", "<=":
			if hi != nil {
				return none, nil, false, nil
			}
			hi, hiIncl = other, op == "<="
		default:
			return none, nil, false, nil
		}
	}
	if lo == nil && hi == nil {
		return none, nil, false, nil
	}
	var args []jen.Code
	var group []int
	var gvals []jen.Code
	for i, key := range r.Keys {
		if i != pos {
			group = append(group, i)
			gvals = append(gvals, sc[key.Name].Clone())
		}
	}
	if len(group) > 0 {
		args = append(args, g.keyValue(subVars(mi.m.Keys, group), gvals))
	}
	bound := func(e lang.Expr) (jen.Code, error) {
		c, err := g.expr(e, sc)
		if err != nil {
			return nil, err
		}
		return convert(c, e.Type(), kt), nil
	}
	var fn string
	switch {
	case lo != nil && hi != nil:
		l, err := bound(lo)
		if err != nil {
			return none, nil, false, err
		}
		h, err := bound(hi)
		if err != nil {
			return none, nil, false, err
		}
		fn, args = "SumBetween", append(args, l, jen.Lit(loIncl), h, jen.Lit(hiIncl))
	case lo != nil:
		l, err := bound(lo)
		if err != nil {
			return none, nil, false, err
		}
		fn, args = "SumGreater", append(args, l)
		if loIncl {
			fn = "SumGreaterEq"
		}
	default:
		h, err := bound(hi)
		if err != nil {
			return none, nil, false, err
		}
		fn, args = "SumLess", append(args, h)
		if hiIncl {
			fn = "SumLessEq"
		}
	}
	ix := mi.rangeFor(group, pos)
	return rangeRead{r: r, code: jen.Id("e").Dot(mi.field).Dot(rngName(mi, ix)).Dot(fn).Call(args...)}, rest, true, nil
}

// extreme emits the code that finds the least (or greatest) value of
// ex.Arg over the rows of ex.T with a non-zero multiplicity, into best (0
// when there is none): a lookup in an ordered index of the map when ex.T
// is one map's entries grouped by bound keys (see extremeMap), else loops.
func (g *gen) extreme(ex *calculus.Extreme, best string, sc scope) ([]jen.Code, error) {
	if ex.Hol != nil {
		return g.holistic(ex, best, sc)
	}
	if r, pos, guards, ok := g.extremeMap(ex, sc); ok {
		// One map's entries: read the group's multiset in its ordered index.
		mi := g.maps[r.Name]
		var group []int
		var vals []jen.Code
		for i, k := range r.Keys {
			if c, bound := sc[k.Name]; bound {
				group = append(group, i)
				vals = append(vals, c.Clone())
			}
		}
		ix := mi.orderedFor(group, pos)
		fn := "Min"
		if ex.Max {
			fn = "Max"
		}
		read := jen.Id("e").Dot(mi.field).Dot(fmt.Sprintf("ord%d", ix)).Dot(fn)
		if len(group) == 0 {
			read = read.Call()
		} else {
			read = read.Call(g.keyValue(subVars(mi.m.Keys, group), vals))
		}
		cond, err := g.guardCond(guards, sc)
		if cond == nil || err != nil {
			return []jen.Code{jen.List(jen.Id(best), jen.Id("_")).Op(":=").Add(read)}, err
		}
		return []jen.Code{jen.Var().Id(best).Add(goType(ex.Arg.Type)), jen.If(cond).Block(jen.List(jen.Id(best), jen.Id("_")).Op("=").Add(read))}, nil
	}
	found := g.fresh("found")
	code := []jen.Code{jen.Var().Id(best).Add(goType(ex.Arg.Type)), jen.Id(found).Op(":=").False()}
	op := "<"
	if ex.Max {
		op = ">"
	}
	t := ex.T
	if a, ok := t.(*calculus.AggSum); ok {
		t = a.T
	}
	sk := &sink{typ: lang.TFloat, uses: []calculus.Var{ex.Arg}, emit: func(inner scope, acc *jen.Statement) ([]jen.Code, error) {
		arg, ok := inner[ex.Arg.Name]
		if !ok {
			return nil, fmt.Errorf("codegen: %s is not bound in %s", ex.Arg.Name, calculus.String(ex))
		}
		return []jen.Code{jen.If(jen.Parens(acc).Op("!=").Lit(0).Op("&&").Parens(jen.Op("!").Id(found).Op("||").Add(arg.Clone()).Op(op).Id(best))).Block(
			jen.List(jen.Id(best), jen.Id(found)).Op("=").List(arg.Clone(), jen.True()))}, nil
	}}
	for _, mono := range calculus.Expand(t) {
		var coef *jen.Statement
		if mono.Coef != 1 {
			coef = jen.Lit(mono.Coef)
		}
		c, err := g.factors(sk, mono.Factors, sc, coef)
		if err != nil {
			return nil, err
		}
		code = append(code, jen.Block(c...))
	}
	code = append(code, jen.Id("_").Op("=").Id(found))
	return code, nil
}

// extremeMap recognizes an extreme over the entries of one keyed map, the
// argument being one of its keys (at position pos) and every other key bound
// or occurring once (so that it ranges over the map's entries): the shape
// viewlet gives MIN and MAX, which an ordered index of the map answers. The
// map may be guarded by conditions over bound variables (a nullable
// correlation key's presence, say), which it returns; where they fail the
// extreme has no value. An ordered-set aggregate counts the entries by
// their values, so its map must have coefficient 1.
func (g *gen) extremeMap(ex *calculus.Extreme, sc scope) (r *calculus.MapRef, pos int, guards []lang.Expr, ok bool) {
	t := ex.T
	if a, isAgg := t.(*calculus.AggSum); isAgg {
		t = a.T
	}
	monos := calculus.Expand(t)
	if len(monos) != 1 || monos[0].Coef == 0 || ex.Hol != nil && monos[0].Coef != 1 {
		return nil, 0, nil, false
	}
	for _, f := range monos[0].Factors {
		switch x := f.(type) {
		case *calculus.MapRef:
			if r != nil {
				return nil, 0, nil, false
			}
			r = x
		case *calculus.Val:
			if x.E.Type() != lang.TBool || !g.allBound(calculus.Vars(x), sc) {
				return nil, 0, nil, false
			}
			if _, isConst := calculus.ConstBool(x.E); !isConst {
				guards = append(guards, x.E)
			}
		default:
			return nil, 0, nil, false
		}
	}
	if r == nil || !g.maps[r.Name].keyed {
		return nil, 0, nil, false
	}
	if _, bound := sc[ex.Arg.Name]; bound {
		return nil, 0, nil, false
	}
	seen := map[string]int{}
	for _, k := range r.Keys {
		seen[k.Name]++
	}
	pos = -1
	for i, k := range r.Keys {
		if _, bound := sc[k.Name]; !bound && seen[k.Name] > 1 {
			return nil, 0, nil, false
		}
		if k.Name == ex.Arg.Name {
			pos = i
		}
	}
	if pos < 0 || g.maps[r.Name].m.Keys[pos].Type != ex.Arg.Type {
		return nil, 0, nil, false
	}
	return r, pos, guards, true
}

// guardCond is the conjunction of the guards of an extreme (see
// extremeMap), nil for none.
func (g *gen) guardCond(guards []lang.Expr, sc scope) (*jen.Statement, error) {
	var cond *jen.Statement
	for _, gd := range guards {
		c, err := g.expr(gd, sc)
		if err != nil {
			return nil, err
		}
		if cond == nil {
			cond = c
		} else {
			cond = cond.Op("&&").Add(c)
		}
	}
	return cond, nil
}
