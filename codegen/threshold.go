package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Threshold reads. A monomial that loops over the entries of one map M by
// one key k and keeps those where a condition on a nested range sum holds
// — VWAP's
//
//	M3[k] * (x ^= AggSum([], M2[p] * {p > k})) * {0.25 * agg > x}
//
// — re-sums M2 for every entry of M: O(n log n) per event. While no entry
// of M2 is negative (runtime.RangeSum.Negative), x only falls as k grows,
// so the condition, monotone in x, is monotone in k, and the entries it
// keeps are a range of M's keys: one search of M's range-sum index whose
// steps each read x, O(log² n). While M2 holds a negative value (a delete
// of an absent tuple, a negative volume) the generated code loops as
// before.

// thresholdSum recognizes such a monomial and emits it into sk, times
// coef; ok is false when it does not apply (the caller loops).
func (g *gen) thresholdSum(sk *sink, mono calculus.Monomial, sc scope, coef *jen.Statement) ([]jen.Code, bool, error) {
	// The loop map: one map read whose keys are bound but one.
	var loop *calculus.MapRef
	pos := -1
	for _, f := range mono.Factors {
		r, ok := f.(*calculus.MapRef)
		if !ok {
			continue
		}
		free := -1
		for i, k := range r.Keys {
			if _, bound := sc[k.Name]; !bound {
				if free >= 0 {
					return nil, false, nil
				}
				free = i
			}
		}
		if free < 0 {
			continue
		}
		if loop != nil || !g.maps[r.Name].keyed {
			return nil, false, nil
		}
		loop, pos = r, free
	}
	if loop == nil {
		return nil, false, nil
	}
	k := loop.Keys[pos]
	kt := g.maps[loop.Name].m.Keys[pos].Type
	// The other factors: lifts and conditions over bound variables (the
	// prefix, emitted first), lifts of range sums over k, conditions on k
	// and those lifts.
	var prefix, kLifts, conds []calculus.Term
	lifted := map[string]int{}
	inPrefix := map[string]bool{}
	boundBy := func(t calculus.Term) bool {
		for _, v := range calculus.FreeVars(t) {
			if _, ok := sc[v.Name]; !ok && !inPrefix[v.Name] {
				return false
			}
		}
		return true
	}
	for _, f := range mono.Factors {
		switch x := f.(type) {
		case *calculus.MapRef:
			if x != loop {
				return nil, false, nil
			}
		case *calculus.Lift:
			if boundBy(x.T) {
				prefix = append(prefix, x)
				inPrefix[x.V.Name] = true
				continue
			}
			dir := g.rangeSlope(x, k, kt, sc, inPrefix)
			if dir == 0 {
				return nil, false, nil
			}
			kLifts = append(kLifts, x)
			lifted[x.V.Name] = dir
		case *calculus.Val:
			if boundBy(x) {
				prefix = append(prefix, x)
				continue
			}
			conds = append(conds, x)
		default:
			return nil, false, nil
		}
	}
	if len(kLifts) == 0 || len(conds) == 0 {
		return nil, false, nil
	}
	var ups, downs []lang.Expr
	for _, c := range conds {
		e := c.(*calculus.Val).E
		switch monotoneWith(e, k.Name, kt, lifted) {
		case 1:
			ups = append(ups, e)
		case -1:
			downs = append(downs, e)
		default:
			return nil, false, nil
		}
	}
	loopFactors := append(append([]calculus.Term{loop}, kLifts...), conds...)
	inner := &sink{typ: sk.typ, uses: sk.uses, emit: func(sc2 scope, acc *jen.Statement) ([]jen.Code, error) {
		// The loop, while a summed map holds a negative value.
		slow, err := g.factors(sk, loopFactors, sc2, acc)
		if err != nil {
			return nil, err
		}
		param := "k"
		for _, taken := sc2[param]; taken; _, taken = sc2[param] {
			param += "_"
		}
		psc := sc2.with(k.Name, jen.Id(param))
		var negative *jen.Statement
		var reads []jen.Code
		for _, t := range kLifts {
			l := t.(*calculus.Lift)
			a := l.T.(*calculus.AggSum)
			rr, _, _, err := g.rangeSum(calculus.Expand(a.T)[0], psc)
			if err != nil {
				return nil, err
			}
			n := g.fresh(varName(l.V.Name))
			psc = psc.with(l.V.Name, jen.Id(n))
			reads = append(reads, jen.Id(n).Op(":=").Add(convert(rr.code, g.maps[rr.r.Name].m.Type, l.V.Type)))
			if negative == nil {
				negative = rr.index.Clone().Dot("Negative").Call()
			} else {
				negative = negative.Op("||").Add(rr.index.Clone().Dot("Negative").Call())
			}
		}
		pred := func(cs []lang.Expr) (jen.Code, error) {
			if len(cs) == 0 {
				return jen.Nil(), nil
			}
			var body *jen.Statement
			for _, c := range cs {
				x, err := g.expr(c, psc)
				if err != nil {
					return nil, err
				}
				if body == nil {
					body = jen.Parens(x)
				} else {
					body = body.Op("&&").Parens(x)
				}
			}
			return jen.Func().Params(jen.Id(param).Add(goType(kt))).Bool().Block(append(append([]jen.Code{}, reads...), jen.Return(body))...), nil
		}
		mi := g.maps[loop.Name]
		var args []jen.Code
		var group []int
		var gvals []jen.Code
		for i, key := range loop.Keys {
			if i != pos {
				group = append(group, i)
				gvals = append(gvals, sc2[key.Name].Clone())
			}
		}
		if len(group) > 0 {
			args = append(args, g.keyValue(subVars(mi.m.Keys, group), gvals))
		}
		up, err := pred(ups)
		if err != nil {
			return nil, err
		}
		down, err := pred(downs)
		if err != nil {
			return nil, err
		}
		args = append(args, up, down)
		read := jen.Id("e").Dot(mi.field).Dot(rngName(mi, mi.rangeFor(group, pos))).Dot("SumWhere").Call(args...)
		fast, err := sk.emit(sc2, jen.Add(g.mul(acc, convert(read, mi.m.Type, sk.typ), sk.typ)))
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(negative).Block(slow...).Else().Block(fast...)}, nil
	}}
	code, err := g.factors(inner, prefix, sc, coef)
	return code, err == nil, err
}

// rangeSlope returns the direction in which lift l's value moves with k
// (1: up, −1: down) when it is a range sum over one map's key p, bounded
// by k — l.V ^= AggSum([], M[g…, p] * {p > k}) — its entries being non-
// negative; 0 when l is no such lift.
func (g *gen) rangeSlope(l *calculus.Lift, k calculus.Var, kt lang.Type, sc scope, prefix map[string]bool) int {
	a, ok := l.T.(*calculus.AggSum)
	if !ok || len(a.Group) > 0 {
		return 0
	}
	monos := calculus.Expand(a.T)
	if len(monos) != 1 || monos[0].Coef != 1 {
		return 0
	}
	psc := sc.with(k.Name, jen.Id("k"))
	for v := range prefix {
		psc = psc.with(v, jen.Id(v))
	}
	_, rest, ok, err := g.rangeSum(monos[0], psc)
	if err != nil || !ok || len(rest) > 0 {
		return 0
	}
	// The range's bound in k: a comparison of the summed key with k.
	var dir int
	for _, f := range monos[0].Factors {
		v, ok := f.(*calculus.Val)
		if !ok || !hasVar(calculus.Vars(v), k.Name) {
			continue
		}
		// Where the condition holds for more keys as k grows, the sum of
		// non-negative entries grows.
		d := monotone(v.E, k.Name, kt)
		if d == 0 || dir != 0 && d != dir {
			return 0
		}
		dir = d
	}
	return dir
}
