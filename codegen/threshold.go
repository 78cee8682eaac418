package codegen

import (
	"slices"

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
//
// Where the loop must stay — M's read binds keys beside k, or the
// statement's target has keys the entries bind (MissedTrades'
//
//	QUERY1_COUNT[b_broker] := M3[b_broker, b_price] * (x ^= AggSum([], M2[p] * {p > b_price})) * {0.25 * agg > x}
//
// ) — the rays of k where the conditions hold are searched once before the
// loop, and each entry is kept when its k is in them (thresholdLoop):
// O(n) per event where reading x at each entry is O(n log n). Where every
// key of M is unbound (or a pinned flag) and there are at most two rays,
// there is no loop either: M's range-sum index by k, grouped by its other
// keys, yields each group's sum over the rays (raySums), O(groups × log n).

// thresholdSum recognizes such a monomial and emits it into sk, times
// coef; ok is false when it does not apply (the caller loops).
func (g *gen) thresholdSum(sk *sink, mono calculus.Monomial, sc scope, coef *jen.Statement) ([]jen.Code, bool, error) {
	return g.thresholdSums(mono, sc, coef, []thresholdMember{{sk: sk}}, false)
}

// thresholdLoopSum is thresholdSum for a monomial that must loop over its
// map's entries (a := statement's unbound keys, which the entries bind):
// each entry is tested against rays searched once (thresholdLoop).
func (g *gen) thresholdLoopSum(sk *sink, mono calculus.Monomial, sc scope, coef *jen.Statement) ([]jen.Code, bool, error) {
	return g.thresholdSums(mono, sc, coef, []thresholdMember{{sk: sk}}, true)
}

// thresholdMember is one of the monomials that a threshold read emits
// together: equal but for the map they loop over (same keys; nil: the
// monomial's own), each into its sink, times its coefficient.
type thresholdMember struct {
	loop *calculus.MapRef
	sk   *sink
	coef *jen.Statement
}

// thresholdSums is thresholdSum for monomials that differ only in their
// loop map (a replace group's members, replacegroup.go): the prefix and
// the rays of keys are computed once, then each member's map is summed
// over them. With loop, or when the loop map has unbound keys beside k,
// the map is looped over, not summed (thresholdLoop).
func (g *gen) thresholdSums(mono calculus.Monomial, sc scope, coef *jen.Statement, members []thresholdMember, looped bool) ([]jen.Code, bool, error) {
	// The loop map: one map read with unbound keys.
	var loop *calculus.MapRef
	var frees []int
	// Variables lifted to values before the loop map (a pinned presence
	// flag) are bound keys of its read.
	lifted := map[string]bool{}
	for _, f := range mono.Factors {
		if l, ok := f.(*calculus.Lift); ok && loop == nil {
			if _, isVal := l.T.(*calculus.Val); isVal {
				lifted[l.V.Name] = true
			}
		}
		r, ok := f.(*calculus.MapRef)
		if !ok {
			continue
		}
		var free []int
		for i, k := range r.Keys {
			if _, bound := sc[k.Name]; !bound && !lifted[k.Name] {
				free = append(free, i)
			}
		}
		if len(free) == 0 {
			continue
		}
		if loop != nil || !g.maps[r.Name].keyed {
			return nil, false, nil
		}
		loop, frees = r, free
	}
	if loop == nil {
		return nil, false, nil
	}
	if len(frees) == 1 && !looped {
		return g.thresholdAt(mono, sc, coef, members, loop, frees[0], nil, false, lifted)
	}
	// Unbound keys beside k (the keys of a := statement's groups): the
	// loop stays, each entry tested against the rays searched once.
	if len(members) > 1 {
		return nil, false, nil
	}
	for _, pos := range frees {
		var others []calculus.Var
		for _, p := range frees {
			if p != pos {
				others = append(others, loop.Keys[p])
			}
		}
		if code, ok, err := g.thresholdAt(mono, sc, coef, members, loop, pos, others, true, lifted); ok || err != nil {
			return code, ok, err
		}
	}
	return nil, false, nil
}

// thresholdAt is thresholdSums with the loop map's key at pos as k; others
// are its other unbound keys. With looped the map is looped over, its
// entries tested against the rays (the loop binds others); otherwise the
// entries kept are summed over a range of its keys. pinned are the
// variables lifted to constants before the loop map (pinned presence
// flags).
func (g *gen) thresholdAt(mono calculus.Monomial, sc scope, coef *jen.Statement, members []thresholdMember, loop *calculus.MapRef, pos int, others []calculus.Var, looped bool, pinned map[string]bool) ([]jen.Code, bool, error) {
	k := loop.Keys[pos]
	kt := g.maps[loop.Name].m.Keys[pos].Type
	// The other factors: lifts and conditions over bound variables (the
	// prefix, emitted first), lifts of range sums over k, conditions on k
	// and those lifts.
	var prefix, kLifts, conds []calculus.Term
	slopes := map[string]int{}
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
			slopes[x.V.Name] = dir
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
	// unit: the prefix multiplies by no value (lifts and conditions only)
	// and there is no coefficient, so its product is the literal 1.
	unit := coef == nil
	for _, t := range prefix {
		if v, ok := t.(*calculus.Val); ok && v.E.Type() != lang.TBool {
			unit = false
		}
	}
	// The rays are searched before the loop binds the other keys.
	for _, t := range append(slices.Clone(kLifts), conds...) {
		if usesAny([]calculus.Term{t}, others) {
			return nil, false, nil
		}
	}
	var ups, downs []lang.Expr
	for _, c := range conds {
		e := c.(*calculus.Val).E
		switch monotoneWith(nonNegative(e, slopes), k.Name, kt, slopes) {
		case 1:
			ups = append(ups, e)
		case -1:
			downs = append(downs, e)
		default:
			return nil, false, nil
		}
	}
	for i := range members {
		if members[i].loop == nil {
			members[i].loop = loop
		}
	}
	inner := &sink{typ: members[0].sk.typ, uses: members[0].sk.uses, emit: func(sc2 scope, acc *jen.Statement) ([]jen.Code, error) {
		if len(members) > 1 {
			// A replace group's prefix is conditions and lifts (groupShape):
			// its product is 1, in the first member's type.
			acc = nil
		}
		// The loop, while a summed map holds a negative value.
		var slow []jen.Code
		for _, m := range members {
			loopFactors := append(append([]calculus.Term{m.loop}, kLifts...), conds...)
			c, err := g.factors(m.sk, loopFactors, sc2, memberCoef(g, acc, m))
			if err != nil {
				return nil, err
			}
			slow = append(slow, c...)
		}
		if looped {
			if unit {
				acc = nil // the literal 1 of a product of no values: no product per entry
			}
			return g.thresholdLoop(members[0], acc, sc2, kLifts, conds, k, kt, slow, pinned)
		}
		param := "k"
		for _, taken := sc2[param]; taken; _, taken = sc2[param] {
			param += "_"
		}
		psc := sc2.with(k.Name, jen.Id(param))
		var negative *jen.Statement
		var reads []jen.Code
		var readVars []string // the lifted variable each read binds
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
			readVars = append(readVars, l.V.Name)
			if negative == nil {
				negative = g.rangeCall(rr.mi, rr.ix, "Negative")
			} else {
				negative = negative.Op("||").Add(g.rangeCall(rr.mi, rr.ix, "Negative"))
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
			// Only the reads the conditions use.
			var used []jen.Code
			for i, v := range readVars {
				if slices.ContainsFunc(cs, func(c lang.Expr) bool { return hasVar(calculus.ExprVars(c, nil), v) }) {
					used = append(used, reads[i])
				}
			}
			return jen.Func().Params(jen.Id(param).Add(goType(kt))).Bool().Block(append(used, jen.Return(body))...), nil
		}
		var args []jen.Code
		group, gkey := g.rangeGroup(loop, pos, sc2)
		if gkey != nil {
			args = append(args, gkey)
		}
		var fast []jen.Code
		searches, ok, err := g.thresholdRays(kLifts, conds, k, kt, sc2)
		if err != nil {
			return nil, err
		}
		rays := make([]jen.Code, len(searches))
		for i, r := range searches {
			rays[i] = r.code
		}
		if ok && len(members) > 1 {
			// The rays once, for every member.
			for i, r := range rays {
				n := g.fresh("ray")
				fast = append(fast, jen.Id(n).Op(":=").Add(r))
				rays[i] = jen.Id(n)
			}
		}
		// Two members summing the two lanes of one pair over the rays: one
		// descent for both.
		laneSums := map[*mapInfo]jen.Code{}
		if ok {
			var c []jen.Code
			c, laneSums = g.pairedRaySums(members, group, pos, args, rays)
			fast = append(fast, c...)
		}
		for _, m := range members {
			mi := g.maps[m.loop.Name]
			ix := mi.rangeFor(group, pos)
			var read, paired *jen.Statement
			if ok && len(members) == 1 && len(rays) == 1 {
				paired = g.pairedRaySum(mi, ix, gkey, searches[0])
			}
			switch {
			case laneSums[mi] != nil:
				read = jen.Add(laneSums[mi])
			case paired != nil:
				// One descent of the pair: the threshold on lane 1, the sum of lane 2.
				read = paired
			case ok && len(rays) == 1:
				// One descent of the nested map's index, one range sum of M's.
				read = g.rangeCall(mi, ix, "SumRay", append(slices.Clone(args), rays[0])...)
			case ok:
				// One descent per nested map, one range sum of M's over the
				// rays' intersection.
				read = g.rangeCall(mi, ix, "SumRays", append(slices.Clone(args), rays...)...)
			default:
				up, err := pred(ups)
				if err != nil {
					return nil, err
				}
				down, err := pred(downs)
				if err != nil {
					return nil, err
				}
				read = g.rangeCall(mi, ix, "SumWhere", append(slices.Clone(args), up, down)...)
			}
			c, err := m.sk.emit(sc2, jen.Add(g.mul(memberCoef(g, acc, m), convert(read, mi.m.Type, m.sk.typ), m.sk.typ)))
			if err != nil {
				return nil, err
			}
			fast = append(fast, c...)
		}
		return []jen.Code{jen.If(negative).Block(slow...).Else().Block(fast...)}, nil
	}}
	code, err := g.factors(inner, prefix, sc, coef)
	return code, err == nil, err
}

// thresholdLoop emits a threshold read whose loop map binds keys beside
// k: the rays of k where the conditions hold, searched once, then the
// loop over the map with each entry kept when its k is in every ray
// (runtime.InRay), O(n) where the loop read the nested sums at each entry,
// O(n log n); slow is that loop, run while a summed map holds a negative
// value, and alone when the conditions are not rays.
func (g *gen) thresholdLoop(m thresholdMember, acc *jen.Statement, sc scope, kLifts, conds []calculus.Term, k calculus.Var, kt lang.Type, slow []jen.Code, pinned map[string]bool) ([]jen.Code, error) {
	searches, ok, err := g.thresholdRays(kLifts, conds, k, kt, sc)
	if err != nil || !ok {
		return slow, err
	}
	var fast []jen.Code
	rays := make([]string, len(searches))
	var negative *jen.Statement
	for i, r := range searches {
		rays[i] = g.fresh("ray")
		fast = append(fast, jen.Id(rays[i]).Op(":=").Add(r.code))
		neg := g.rangeCall(r.mi, r.ix, "Negative")
		if negative == nil {
			negative = neg
		} else {
			negative = negative.Op("||").Add(neg)
		}
	}
	inRays := &sink{typ: m.sk.typ, uses: append(slices.Clone(m.sk.uses), k), emit: func(sc2 scope, acc *jen.Statement) ([]jen.Code, error) {
		code, err := m.sk.emit(sc2, acc)
		if err != nil {
			return nil, err
		}
		var in *jen.Statement
		for _, r := range rays {
			c := jen.Qual(runtimePkg, "InRay").Call(jen.Id(r), sc2[k.Name].Clone())
			if in == nil {
				in = c
			} else {
				in = in.Op("&&").Add(c)
			}
		}
		return []jen.Code{jen.If(in).Block(code...)}, nil
	}}
	c, ok, err := g.raySums(m, memberCoef(g, acc, m), sc, k, rays, pinned)
	if err != nil {
		return nil, err
	}
	if !ok {
		c, err = g.factors(inRays, []calculus.Term{m.loop}, sc, memberCoef(g, acc, m))
		if err != nil {
			return nil, err
		}
	}
	fast = append(fast, c...)
	return []jen.Code{jen.If(negative).Block(slow...).Else().Block(fast...)}, nil
}

// raySums emits thresholdLoop's fast path without the loop where every
// key of the loop map M is unbound or pinned (a presence flag lifted to 1),
// k one of them, and there are one or two rays: M's range-sum index by k,
// grouped by its other keys, yields each group's sum over the rays
// (GroupSumRay, GroupSumRays), which goes to the sink with the group's
// keys bound, the groups of other pinned values skipped — O(groups × log
// n) where the loop is O(entries). ok is false where it does not apply.
func (g *gen) raySums(m thresholdMember, coef *jen.Statement, sc scope, k calculus.Var, rays []string, pinned map[string]bool) ([]jen.Code, bool, error) {
	if len(rays) > 2 {
		return nil, false, nil
	}
	mi := g.maps[m.loop.Name]
	pos := -1
	var group []int
	seen := map[string]bool{}
	for i, key := range m.loop.Keys {
		if _, bound := sc[key.Name]; bound && !pinned[key.Name] || seen[key.Name] {
			return nil, false, nil
		}
		seen[key.Name] = true
		if key.Name == k.Name {
			pos = i
		} else {
			group = append(group, i)
		}
	}
	if pos < 0 || len(group) == 0 {
		return nil, false, nil
	}
	ix := mi.rangeFor(group, pos)
	gk, sum := g.fresh("group"), g.fresh("sum")
	gsc := sc
	var body []jen.Code
	for j, p := range group {
		name, field := m.loop.Keys[p].Name, keyField(jen.Id(gk), len(group), j)
		if pinned[name] {
			body = append(body, jen.If(field.Clone().Op("!=").Add(sc[name].Clone())).Block(jen.Continue()))
			continue
		}
		gsc = gsc.with(name, field)
	}
	c, err := m.sk.emit(gsc, jen.Add(g.mul(coef, convert(jen.Id(sum), mi.m.Type, m.sk.typ), m.sk.typ)))
	if err != nil {
		return nil, false, err
	}
	body = append(body, c...)
	fn := "GroupSumRay"
	if len(rays) == 2 {
		fn = "GroupSumRays"
	}
	var args []jen.Code
	for _, r := range rays {
		args = append(args, jen.Id(r))
	}
	return []jen.Code{jen.For(jen.List(jen.Id(gk), jen.Id(sum)).Op(":=").Range().Add(g.rangeCall(mi, ix, fn, args...))).Block(body...)}, true, nil
}

// memberCoef is the product of the prefix's acc and a member's coefficient.
func memberCoef(g *gen, acc *jen.Statement, m thresholdMember) *jen.Statement {
	switch {
	case m.coef == nil:
		return acc
	case acc == nil:
		return m.coef
	}
	return jen.Add(g.mul(acc, m.coef, m.sk.typ))
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

// thresholdRays returns the rays of keys k where a threshold read's
// conditions hold, one per lift (at most two), when each condition reads
// one lift and not k itself, and each lift is a range sum that
// thresholdRay reads in one descent. ok is false for other reads.
func (g *gen) thresholdRays(kLifts, conds []calculus.Term, k calculus.Var, kt lang.Type, sc scope) ([]raySearch, bool, error) {
	if len(kLifts) > 2 {
		return nil, false, nil
	}
	byLift := make([][]calculus.Term, len(kLifts))
	for _, c := range conds {
		at := -1
		for i, l := range kLifts {
			if hasVar(calculus.Vars(c), l.(*calculus.Lift).V.Name) {
				if at >= 0 {
					return nil, false, nil
				}
				at = i
			}
		}
		if at < 0 {
			return nil, false, nil
		}
		byLift[at] = append(byLift[at], c)
	}
	var rays []raySearch
	for i, l := range kLifts {
		if len(byLift[i]) == 0 {
			continue // a lift no condition reads: its value is 1 at every key
		}
		ray, ok, err := g.thresholdRay([]calculus.Term{l}, byLift[i], k, kt, sc)
		if err != nil || !ok {
			return nil, false, err
		}
		rays = append(rays, ray)
	}
	return rays, len(rays) > 0, nil
}

// thresholdRay returns, for a threshold read whose one lift x sums a map
// M2 over the keys on one side of k (x ^= AggSum([], M2[g…, p] * {p > k}),
// >=, <, <=, either way round) and whose conditions read k through x
// only, the runtime.KeyRay of the keys k where they hold: one descent of
// M2's index (RangeSum.Threshold), O(log n), instead of a read of x at
// each step of a search, O(log² n). ok is false for other reads.
func (g *gen) thresholdRay(kLifts, conds []calculus.Term, k calculus.Var, kt lang.Type, sc scope) (raySearch, bool, error) {
	var none raySearch
	if len(kLifts) != 1 {
		return none, false, nil
	}
	l := kLifts[0].(*calculus.Lift)
	for _, c := range conds {
		if hasVar(calculus.Vars(c), k.Name) {
			return none, false, nil
		}
	}
	mono := calculus.Expand(l.T.(*calculus.AggSum).T)[0]
	var bound *lang.Binary
	for _, f := range mono.Factors {
		if v, ok := f.(*calculus.Val); ok {
			if bound != nil {
				return none, false, nil
			}
			b, ok := v.E.(*lang.Binary)
			if !ok {
				return none, false, nil
			}
			bound = b
		}
	}
	if bound == nil {
		return none, false, nil
	}
	// p op k, with p the summed key.
	lv, lok := bound.L.(*calculus.VarRef)
	rv, rok := bound.R.(*calculus.VarRef)
	if !lok || !rok {
		return none, false, nil
	}
	op := bound.Op
	if lv.V.Name == k.Name {
		op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
		lv, rv = rv, lv
	}
	if rv.V.Name != k.Name || lv.V.Name == k.Name {
		return none, false, nil
	}
	above, incl := op == ">" || op == ">=", op == ">=" || op == "<="
	if op != ">" && op != ">=" && op != "<" && op != "<=" {
		return none, false, nil
	}
	psc := sc.with(k.Name, jen.Id("k"))
	rr, rest, ok, err := g.rangeSum(mono, psc)
	if err != nil || !ok || len(rest) > 0 {
		return none, false, err
	}
	m2 := g.maps[rr.r.Name]
	if !keyHasType(m2, rr.r, lv.V.Name, kt) {
		return none, false, nil
	}
	// pred(x): the conditions, x bound to the function's parameter.
	param := "sum"
	for _, taken := sc[param]; taken; _, taken = sc[param] {
		param += "_"
	}
	xsc := sc.with(l.V.Name, jen.Add(convert(jen.Id(param), m2.m.Type, l.V.Type)))
	var body *jen.Statement
	for _, c := range conds {
		x, err := g.expr(c.(*calculus.Val).E, xsc)
		if err != nil {
			return none, false, err
		}
		if body == nil {
			body = jen.Parens(x)
		} else {
			body = body.Op("&&").Parens(x)
		}
	}
	var args []jen.Code
	if rr.group != nil {
		args = append(args, rr.group)
	}
	args = append(args, jen.Lit(above), jen.Lit(incl))
	fn := "Threshold"
	if b, ok, err := g.sumBound(conds, l.V, m2.m.Type, sc); err != nil {
		return none, false, err
	} else if ok {
		fn = "ThresholdBound"
		args = append(args, b)
	} else {
		args = append(args, jen.Func().Params(jen.Id(param).Add(goType(m2.m.Type))).Bool().Block(jen.Return(body)))
	}
	return raySearch{code: g.rangeCall(rr.mi, rr.ix, fn, args...), fn: fn, mi: rr.mi, ix: rr.ix, group: rr.group, args: args}, true, nil
}

// sumBound returns the condition of a threshold read as a
// runtime.SumBound when it is one comparison of the sum x (of type vt,
// the index's value type) with an expression of that type without x —
// VWAP's 0.25 * total > x: the search then compares inline instead of
// calling a function per entry.
func (g *gen) sumBound(conds []calculus.Term, x calculus.Var, vt lang.Type, sc scope) (jen.Code, bool, error) {
	if len(conds) != 1 || x.Type != vt {
		return nil, false, nil
	}
	b, ok := conds[0].(*calculus.Val).E.(*lang.Binary)
	if !ok {
		return nil, false, nil
	}
	isX := func(e lang.Expr) bool {
		v, ok := e.(*calculus.VarRef)
		return ok && v.V.Name == x.Name
	}
	// sum op c, the sum on the left.
	op, c := b.Op, b.R
	if isX(b.R) {
		op, c = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op], b.L
	} else if !isX(b.L) {
		return nil, false, nil
	}
	if l, ok := c.(*lang.Lit); ok && !l.Null && op == "!=" && (l.T == lang.TInt && l.Int == 0 || l.T == lang.TFloat && l.Float == 0) {
		op = ">" // a threshold read sums no negative value: x != 0 is x > 0 (the count that makes a SUM NULL)
	}
	if op != "<" && op != "<=" && op != ">" && op != ">=" || c.Type() != vt || hasVar(calculus.ExprVars(c, nil), x.Name) {
		return nil, false, nil
	}
	ce, err := g.expr(c, sc)
	if err != nil {
		return nil, false, err
	}
	return jen.Qual(runtimePkg, "SumBound").Types(goType(vt)).Values(
		jen.Id("C").Op(":").Add(ce),
		jen.Id("Below").Op(":").Lit(op == "<" || op == "<="),
		jen.Id("Incl").Op(":").Lit(op == "<=" || op == ">="),
	), true, nil
}

// raySearch is a threshold search of one range-sum index: its code and
// what it searches, so that the sum over its ray of the index paired with
// it is the same descent (RangeSumPairIndex.ThresholdSum2).
type raySearch struct {
	code  jen.Code
	fn    string // Threshold, or ThresholdBound
	mi    *mapInfo
	ix    int
	group jen.Code   // the group key searched (nil: an index without groups)
	args  []jen.Code // of Threshold, for an index without a pair
}

// pairedRaySum returns the sum of map mi's range-sum index ix in group
// gkey over ray search r when mi's index is lane 2 of the pair whose lane
// 1 r searches, in the same group (one descent for both), else nil.
func (g *gen) pairedRaySum(mi *mapInfo, ix int, gkey jen.Code, r raySearch) *jen.Statement {
	p, lane := mi.pairOf(ix)
	q, searched := r.mi.pairOf(r.ix)
	if p == nil || p != q || lane != 1 || searched != 0 || (gkey == nil) != (r.group == nil) || gkey != nil && !same(gkey, r.group) {
		return nil
	}
	return jen.Id("e").Dot(mi.field).Dot(p.field).Dot(r.fn + "Sum2").Call(p.args(r.args)...)
}

// pairedRaySums returns, for the members of a threshold read whose maps'
// indexes are the two lanes of one pair, one read of both lanes' sums
// over the rays (RangeSumPairIndex.SumRay or SumRays) and, per such
// member's map, the variable holding its lane's sum.
func (g *gen) pairedRaySums(members []thresholdMember, group []int, pos int, args, rays []jen.Code) ([]jen.Code, map[*mapInfo]jen.Code) {
	var code []jen.Code
	sums := map[*mapInfo]jen.Code{}
	for i, a := range members {
		ma := g.maps[a.loop.Name]
		p, lane := ma.pairOf(ma.rangeFor(group, pos))
		if p == nil || lane != 0 || sums[ma] != nil {
			continue
		}
		for _, b := range members[i+1:] {
			mb := g.maps[b.loop.Name]
			if q, lb := mb.pairOf(mb.rangeFor(group, pos)); q != p || lb != 1 {
				continue
			}
			fn := "SumRays"
			if len(rays) == 1 {
				fn = "SumRay"
			}
			s1, s2 := g.fresh("lane"), g.fresh("lane")
			call := jen.Id("e").Dot(ma.field).Dot(p.field).Dot(fn).Call(p.args(append(slices.Clone(args), rays...))...)
			code = append(code, jen.List(jen.Id(s1), jen.Id(s2)).Op(":=").Add(call))
			sums[ma], sums[mb] = jen.Id(s1), jen.Id(s2)
			break
		}
	}
	return code, sums
}

// keyHasType reports whether the key of map read r named name has type
// kt (the summed key must be ordered as the loop key is).
func keyHasType(mi *mapInfo, r *calculus.MapRef, name string, kt lang.Type) bool {
	for i, k := range r.Keys {
		if k.Name == name {
			return mi.m.Keys[i].Type == kt
		}
	}
	return false
}

// nonNegative returns condition e with a test x != 0 of a lifted range sum
// x (a key of slopes) as x > 0: the same while the sum's entries are
// non-negative, which the threshold read requires, and monotone in x.
func nonNegative(e lang.Expr, slopes map[string]int) lang.Expr {
	b, ok := e.(*lang.Binary)
	if !ok || b.Op != "!=" {
		return e
	}
	x, zero := b.L, b.R
	if _, ok := x.(*calculus.VarRef); !ok {
		x, zero = b.R, b.L
	}
	r, ok := x.(*calculus.VarRef)
	if !ok || slopes[r.V.Name] == 0 {
		return e
	}
	if l, ok := zero.(*lang.Lit); !ok || l.Null || (l.T != lang.TInt || l.Int != 0) && (l.T != lang.TFloat || l.Float != 0) {
		return e
	}
	return &lang.Binary{Op: ">", L: x, R: zero, T: lang.TBool}
}
