package codegen

import (
	"cmp"
	"fmt"
	"slices"

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
	// mi and ix: the map and its range-sum index read; method and args:
	// the read's method (of one index, without a pair's lane number) and
	// arguments, so that the reads of two lanes of one paired index
	// share a descent (hoist.code).
	mi     *mapInfo
	ix     int
	method string
	args   []jen.Code
	group  jen.Code // the group key of the read (nil: an index without groups)
	// fn and bound, for a read of one side of a bound (SumLess, SumLessEq,
	// SumGreater, SumGreaterEq): the method and its bound argument, so
	// that hoisted reads of both sides of one bound share a descent
	// (hoist.code).
	fn    string
	bound jen.Code
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
	var conds []lang.Expr // the conditions on k
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
		conds = append(conds, v.E)
	}
	simple := true
	for _, c := range conds {
		b, ok := c.(*lang.Binary)
		if !ok {
			simple = false
			break
		}
		op, other := b.Op, b.R
		if ref, isRef := b.L.(*calculus.VarRef); !isRef || ref.V.Name != k.Name {
			ref, isRef = b.R.(*calculus.VarRef)
			if !isRef || ref.V.Name != k.Name {
				simple = false
				break
			}
			// x op k: flip to k op' x.
			other = b.L
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
		}
		if slices.ContainsFunc(calculus.ExprVars(other, nil), func(u calculus.Var) bool { return u.Name == k.Name }) {
			simple = false
			break
		}
		if ot := other.Type(); ot != kt && !(kt == lang.TFloat && ot == lang.TInt) {
			return none, nil, false, nil
		}
		switch {
		case (op == ">" || op == ">=") && lo == nil:
			lo, loIncl = other, op == ">="
		case (op == "<" || op == "<=") && hi == nil:
			hi, hiIncl = other, op == "<="
		default:
			simple = false
		}
		if !simple {
			break
		}
	}
	if len(conds) == 0 {
		return none, nil, false, nil
	}
	if !simple {
		return g.rangeWhere(r, pos, conds, rest, sc)
	}
	var args []jen.Code
	group, gkey := g.rangeGroup(r, pos, sc)
	if gkey != nil {
		args = append(args, gkey)
	}
	bound := func(e lang.Expr) (jen.Code, error) {
		c, err := g.expr(e, sc)
		if err != nil {
			return nil, err
		}
		return convert(c, e.Type(), kt), nil
	}
	var fn string
	var side jen.Code
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
		fn, args, side = "SumGreater", append(args, l), l
		if loIncl {
			fn = "SumGreaterEq"
		}
	default:
		h, err := bound(hi)
		if err != nil {
			return none, nil, false, err
		}
		fn, args, side = "SumLess", append(args, h), h
		if hiIncl {
			fn = "SumLessEq"
		}
	}
	ix := mi.rangeFor(group, pos)
	rr := rangeRead{r: r, code: g.rangeCall(mi, ix, fn, args...), mi: mi, ix: ix, method: fn, args: args, group: gkey}
	if side != nil {
		rr.fn, rr.bound = fn, side
	}
	return rr, rest, true, nil
}

// rangeGroup returns the positions of map read r's keys but pos (the
// group of a range-sum index over key pos) and the group key's value in sc
// (nil for an index without groups).
func (g *gen) rangeGroup(r *calculus.MapRef, pos int, sc scope) ([]int, jen.Code) {
	var group []int
	var vals []jen.Code
	for i, key := range r.Keys {
		if i != pos {
			group = append(group, i)
			vals = append(vals, sc[key.Name].Clone())
		}
	}
	if len(group) == 0 {
		return nil, nil
	}
	return group, g.keyValue(subVars(g.maps[r.Name].m.Keys, group), vals)
}

// rangeWhere reads the sum of map r's entries over key pos (the others
// bound) where conds hold, conditions on that key that are each monotone
// in it (monotone), or one of them an OR of two: the keys where monotone
// conditions hold are a range of the map's range-sum index, which
// runtime.RangeSum.SumWhere finds by evaluating the conditions themselves
// on O(log n) keys — exactly the loop's truth, float rounding included —
// and an OR of two is the union of two ranges (SumWhereEither). AXFinder's
// |a.price − b.price| > 1000 is two range reads instead of a loop over
// the broker's prices. It declines other conditions.
func (g *gen) rangeWhere(r *calculus.MapRef, pos int, conds []lang.Expr, rest []calculus.Term, sc scope) (rangeRead, []calculus.Term, bool, error) {
	var none rangeRead
	mi := g.maps[r.Name]
	k := r.Keys[pos]
	kt := mi.m.Keys[pos].Type
	var ups, downs []lang.Expr
	var or *lang.Binary
	for _, c := range conds {
		if dir := monotone(c, k.Name, kt); dir != 0 {
			if dir > 0 {
				ups = append(ups, c)
			} else {
				downs = append(downs, c)
			}
			continue
		}
		b, ok := c.(*lang.Binary)
		if !ok || b.Op != "OR" || or != nil || monotone(b.L, k.Name, kt) == 0 || monotone(b.R, k.Name, kt) == 0 {
			return none, nil, false, nil
		}
		or = b
	}
	param := "k"
	for _, taken := sc[param]; taken; _, taken = sc[param] {
		param += "_"
	}
	inner := sc.with(k.Name, jen.Id(param))
	// pred is a func literal of the conjunction of cs (nil for none).
	pred := func(cs []lang.Expr) (jen.Code, error) {
		if len(cs) == 0 {
			return jen.Nil(), nil
		}
		var body *jen.Statement
		for _, c := range cs {
			x, err := g.expr(c, inner)
			if err != nil {
				return nil, err
			}
			if body == nil {
				body = jen.Parens(x)
			} else {
				body = body.Op("&&").Parens(x)
			}
		}
		return jen.Func().Params(jen.Id(param).Add(goType(kt))).Bool().Block(jen.Return(body)), nil
	}
	with := func(cs []lang.Expr, c lang.Expr, dir int, want int) []lang.Expr {
		if dir == want {
			return append(slices.Clone(cs), c)
		}
		return cs
	}
	var sets [][]lang.Expr // up, down (, up, down): the conditions of each range
	if or == nil {
		sets = [][]lang.Expr{ups, downs}
	} else {
		dl, dr := monotone(or.L, k.Name, kt), monotone(or.R, k.Name, kt)
		sets = [][]lang.Expr{with(ups, or.L, dl, 1), with(downs, or.L, dl, -1), with(ups, or.R, dr, 1), with(downs, or.R, dr, -1)}
	}
	var args []jen.Code
	group, gkey := g.rangeGroup(r, pos, sc)
	if gkey != nil {
		args = append(args, gkey)
	}
	for _, set := range sets {
		p, err := pred(set)
		if err != nil {
			return none, nil, false, err
		}
		args = append(args, p)
	}
	fn := "SumWhere"
	if or != nil {
		fn = "SumWhereEither"
	}
	ix := mi.rangeFor(group, pos)
	return rangeRead{r: r, code: g.rangeCall(mi, ix, fn, args...), mi: mi, ix: ix, method: fn, args: args}, rest, true, nil
}

// monotone reports how condition c's truth depends on key k of type kt
// along the key order: 1 if it is false then true (up), −1 if true then
// false (down), 0 if it is not known to be either. It is a comparison <,
// <=, >, >= of an expression that is monotone in k with one that does not
// read k. An expression is monotone in k if it is k or, for a FLOAT k,
// built from k with +, − and bound values, multiplication and division by
// non-zero constants, and negation: float rounding keeps such arithmetic
// monotone (not strictly: a condition over it still splits the keys into
// a range), and with finite bound values no key makes it NaN but at an
// infinite end, where the condition is false on the side that keeps it
// monotone. INT arithmetic is left out: its checked overflow is evaluated
// per key by the loop, and only at some keys by a search.
func monotone(c lang.Expr, k string, kt lang.Type) int {
	return monotoneWith(c, k, kt, nil)
}

// monotoneWith is monotone, with the directions in which the variables of
// lifted (threshold.go) move with k.
func monotoneWith(c lang.Expr, k string, kt lang.Type, lifted map[string]int) int {
	b, ok := c.(*lang.Binary)
	if !ok {
		return 0
	}
	var up int
	switch b.Op {
	case ">", ">=":
		up = 1
	case "<", "<=":
		up = -1
	default:
		return 0
	}
	dl, okl := slope(b.L, k, kt, lifted)
	dr, okr := slope(b.R, k, kt, lifted)
	switch {
	case !okl || !okr:
		return 0
	case dl != 0 && dr == 0:
		return up * dl
	case dl == 0 && dr != 0:
		return -up * dr
	}
	return 0
}

// slope is the direction in which expression e moves with k: 1
// (non-decreasing), −1 (non-increasing) or 0 (e does not read k); ok is
// false when e reads k in another way (see monotone).
func slope(e lang.Expr, k string, kt lang.Type, lifted map[string]int) (int, bool) {
	reads := slices.ContainsFunc(calculus.ExprVars(e, nil), func(u calculus.Var) bool { _, l := lifted[u.Name]; return u.Name == k || l })
	if !reads {
		return 0, true
	}
	if r, ok := e.(*calculus.VarRef); ok && r.V.Name == k {
		return 1, true
	}
	if r, ok := e.(*calculus.VarRef); ok {
		return lifted[r.V.Name], true
	}
	if e.Type() != lang.TFloat { // INT arithmetic: see monotone
		return 0, false
	}
	constant := func(e lang.Expr) int { // the sign of a non-zero numeric literal, else 0
		if u, ok := e.(*lang.Unary); ok && u.Op == "-" {
			if l, ok := u.X.(*lang.Lit); ok && !l.Null && (l.T == lang.TInt && l.Int > 0 || l.T == lang.TFloat && l.Float > 0) {
				return -1
			}
			return 0
		}
		if l, ok := e.(*lang.Lit); ok && !l.Null {
			switch {
			case l.T == lang.TInt && l.Int != 0:
				return cmp.Compare(l.Int, 0)
			case l.T == lang.TFloat && l.Float != 0 && l.Float == l.Float:
				return cmp.Compare(l.Float, 0)
			}
		}
		return 0
	}
	switch x := e.(type) {
	case *lang.Unary:
		if x.Op == "-" {
			d, ok := slope(x.X, k, kt, lifted)
			return -d, ok
		}
	case *lang.Call:
		if x.Name == "CAST_FLOAT" && len(x.Args) == 1 {
			return slope(x.Args[0], k, kt, lifted)
		}
	case *lang.Binary:
		dl, okl := slope(x.L, k, kt, lifted)
		dr, okr := slope(x.R, k, kt, lifted)
		if !okl || !okr {
			return 0, false
		}
		// common is the direction of a sum of terms moving in directions a
		// and b, if they agree (0: does not move).
		common := func(a, b int) (int, bool) {
			switch {
			case a == 0:
				return b, true
			case b == 0 || a == b:
				return a, true
			}
			return 0, false
		}
		switch x.Op {
		case "+":
			if d, ok := common(dl, dr); ok {
				return d, true
			}
		case "-":
			if d, ok := common(dl, -dr); ok {
				return d, true
			}
		case "*":
			if s := constant(x.R); dr == 0 && s != 0 {
				return dl * s, true
			}
			if s := constant(x.L); dl == 0 && s != 0 {
				return dr * s, true
			}
		case "/":
			if s := constant(x.R); dr == 0 && s != 0 {
				return dl * s, true
			}
		}
	}
	return 0, false
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
			if v, isConst := calculus.ConstBool(x.E); !isConst {
				guards = append(guards, x.E)
			} else if !v {
				// FALSE: no row (the loops say so; the index would not).
				return nil, 0, nil, false
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

// boundPrefix splits fs after its leading factors that read no map and
// only bound variables (conditions, lifts of values): those a range or
// threshold read of the rest may follow. pre is empty when the rest reads
// no map.
func boundPrefix(fs []calculus.Term, sc scope) (pre, rest []calculus.Term) {
	bound := func(t calculus.Term) bool {
		for _, v := range calculus.Vars(t) {
			if _, ok := sc[v.Name]; !ok && !slices.ContainsFunc(pre, func(p calculus.Term) bool {
				l, ok := p.(*calculus.Lift)
				return ok && l.V.Name == v.Name
			}) {
				return false
			}
		}
		return true
	}
	i := 0
	for ; i < len(fs); i++ {
		switch x := fs[i].(type) {
		case *calculus.Val:
			if !bound(x) {
				return nil, fs
			}
		case *calculus.Lift:
			v, ok := x.T.(*calculus.Val)
			if _, taken := sc[x.V.Name]; !ok || taken || !bound(v) {
				return nil, fs
			}
		default:
			if i == 0 {
				return nil, fs
			}
			for _, f := range fs[i:] {
				if _, ok := f.(*calculus.MapRef); ok {
					return fs[:i], fs[i:]
				}
			}
			return nil, fs
		}
		pre = fs[:i+1]
	}
	return nil, fs
}
