package calculus

import "github.com/toastgen/toastgen/lang"

// Statistical aggregates. VAR_POP, VAR_SAMP (= VARIANCE) and the STDDEVs
// are algebraic: a group's count n of non-NULL values, their sum s1 and
// the sum of their squares s2 are ring aggregates (maps, O(1) per event),
// and the view reads
//
//	VAR_POP  = (s2 − s1²/n) / n        NULL unless n ≥ 1
//	VAR_SAMP = (s2 − s1²/n) / (n − 1)  NULL unless n ≥ 2
//	STDDEV_* = SQRT(max(0, VAR_*))
//
// Over an INT argument the sums are exact: s1 is two INT maps of the
// argument's 32-bit limbs and s2 four of its square's (runtime.IntLimb,
// SquareLimb), each event adding values below 2^32, and the view reads
// runtime.ExactVariance, (n·s2 − s1²) / (n·(n − 1)) in exact integer
// arithmetic rounded once. Over a FLOAT argument the sums are FLOAT
// maps, whose entries are compensated sums (codegen's runtime.FloatSum),
// so that s2 − s1²/n loses no more than a few ulps of s2 to deletes: the
// result is within 1e-9 × (mean² + variance) of a two-pass computation,
// which the oracle makes (lang/oracle). In dialect dbtoaster, which has no
// NULL, the view reads 0 where SQL has NULL.

// statReadout reads aggregate x (one of lang.StatAggs) of a view out of
// the sums it adds with addAgg over group.
func (b *block) statReadout(x *lang.Agg, group func(...Term) Term, addAgg func(Term) int, sql bool) (lang.Expr, error) {
	lifts, r, err := b.statArg(x)
	if err != nil {
		return nil, err
	}
	n := &AggRef{Index: addAgg(group(lifts...)), T: lang.TInt}
	sum := func(factor Term, t lang.Type) lang.Expr {
		return &AggRef{Index: addAgg(group(append(append([]Term{}, lifts...), factor)...)), T: t}
	}
	var st lang.Expr
	var min int64
	if exact := limbs(r); exact != nil {
		var ls []lang.Expr
		for _, l := range exact {
			ls = append(ls, sum(l, lang.TInt))
		}
		st, min = exactValue(x.Fn, n, ls)
	} else {
		s1 := sum(r, lang.TFloat)
		s2 := &AggRef{Index: addAgg(group(append(append([]Term{}, lifts...), r, r)...)), T: lang.TFloat}
		st, min = statValue(x.Fn, n, s1, s2)
	}
	enough := &lang.Binary{Op: ">=", L: n, R: IntLit(min), T: lang.TBool}
	if !sql {
		return &lang.Case{Whens: []*lang.When{{Cond: enough, Then: st}}, Else: FloatLit(0), T: lang.TFloat}, nil
	}
	return &maybe{V: st, P: enough}, nil
}

// limbs returns, for an INT argument r, the factors whose sums keep its
// sum and its sum of squares exactly: the limbs of r (high, low), then
// those of r² (runtime.IntLimb, SquareLimb); nil for a FLOAT argument.
func limbs(r Term) []Term {
	v, ok := r.(*Val)
	if !ok || v.E.Type() != lang.TInt {
		return nil
	}
	call := func(fn string, k int64) Term {
		return &Val{E: &lang.Call{Name: fn, Args: []lang.Expr{v.E, IntLit(k)}, T: lang.TInt}}
	}
	out := []Term{call("INT_LIMB", 1), call("INT_LIMB", 0)}
	for k := range int64(4) {
		out = append(out, call("SQUARE_LIMB", k))
	}
	return out
}

// exactValue is aggregate fn (one of lang.StatAggs) of the count n and
// the limb sums ls (limbs) of a group's INT values, and the least count
// for which it is not NULL.
func exactValue(fn string, n lang.Expr, ls []lang.Expr) (lang.Expr, int64) {
	samp := fn != "VAR_POP" && fn != "STDDEV_POP"
	min, flag := int64(1), int64(0)
	if samp {
		min, flag = 2, 1
	}
	var v lang.Expr = &lang.Call{Name: "EXACT_VARIANCE", Args: append([]lang.Expr{IntLit(flag), n}, ls...), T: lang.TFloat}
	if fn == "STDDEV" || fn == "STDDEV_SAMP" || fn == "STDDEV_POP" {
		v = &lang.Call{Name: "SQRT", Args: []lang.Expr{v}, T: lang.TFloat}
	}
	return v, min
}

// statLift lifts aggregate x (one of lang.StatAggs) of a subquery: its
// count, sum and sum of squares are lifted variables (lift, agg as in
// aggregates), and the result is NULL below the least count (dialect sql)
// or 0 (dialect dbtoaster).
func (b *block) statLift(x *lang.Agg, agg func(...Term) Term, lift func(Term, lang.Type) *VarRef) (lang.Expr, error) {
	lifts, r, err := b.statArg(x)
	if err != nil {
		return nil, err
	}
	n := lift(agg(lifts...), lang.TInt)
	sum := func(factors ...Term) Term { return agg(append(append([]Term{}, lifts...), factors...)...) }
	var st lang.Expr
	var min int64
	var last *VarRef // a lifted sum, whose presence is the result's
	if exact := limbs(r); exact != nil {
		var ls []lang.Expr
		for _, l := range exact {
			last = lift(sum(l), lang.TInt)
			ls = append(ls, last)
		}
		st, min = exactValue(x.Fn, n, ls)
	} else {
		s1 := lift(sum(r), lang.TFloat)
		last = lift(sum(r, r), lang.TFloat)
		st, min = statValue(x.Fn, n, s1, last)
	}
	enough := &lang.Binary{Op: ">=", L: n, R: IntLit(min), T: lang.TBool}
	if !b.t.sql {
		return &lang.Case{Whens: []*lang.When{{Cond: enough, Then: st}}, Else: FloatLit(0), T: lang.TFloat}, nil
	}
	// NULL below the least count: the presence of the lifted sum.
	b.t.setPresent(last.V, enough)
	return st, nil
}

// statValue is aggregate fn (one of lang.StatAggs) of the count n, sum s1
// and sum of squares s2 of a group's values, and the least count for
// which it is not NULL.
func statValue(fn string, n, s1, s2 lang.Expr) (lang.Expr, int64) {
	fl := func(e lang.Expr) lang.Expr {
		return &lang.Call{Name: "CAST_FLOAT", Args: []lang.Expr{e}, T: lang.TFloat}
	}
	bin := func(op string, l, r lang.Expr) lang.Expr { return &lang.Binary{Op: op, L: l, R: r, T: lang.TFloat} }
	least := func(e lang.Expr) lang.Expr {
		return &lang.Call{Name: "LISTMAX", Args: []lang.Expr{FloatLit(1), e}, T: lang.TFloat}
	}
	nf := fl(n)
	// The sum of squared deviations, never below 0.
	m2 := &lang.Call{Name: "LISTMAX", Args: []lang.Expr{FloatLit(0), bin("-", s2, bin("/", bin("*", s1, s1), least(nf)))}, T: lang.TFloat}
	samp := fn != "VAR_POP" && fn != "STDDEV_POP"
	var v lang.Expr
	min := int64(1)
	if samp {
		v, min = bin("/", m2, least(bin("-", nf, FloatLit(1)))), 2
	} else {
		v = bin("/", m2, least(nf))
	}
	if fn == "STDDEV" || fn == "STDDEV_SAMP" || fn == "STDDEV_POP" {
		v = &lang.Call{Name: "SQRT", Args: []lang.Expr{v}, T: lang.TFloat}
	}
	return v, min
}

// statArg returns the factors that restrict statistical aggregate x to
// the rows where its argument is not NULL (the argument's lifts and its
// presence), and the argument's value as a term: INT or FLOAT (others
// are cast to FLOAT).
func (b *block) statArg(x *lang.Agg) ([]Term, Term, error) {
	v, lifts, err := b.scalar(x.Arg)
	if err != nil {
		return nil, nil, err
	}
	if p := b.t.presence(v); p != nil {
		lifts = append(append([]Term{}, lifts...), &Val{E: p})
	}
	e := b.t.valueOf(v, true)
	if t := e.Type(); t != lang.TFloat && t != lang.TInt {
		e = &lang.Call{Name: "CAST_FLOAT", Args: []lang.Expr{e}, T: lang.TFloat}
	}
	return lifts, &Val{E: e}, nil
}
