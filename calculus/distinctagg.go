package calculus

import "github.com/toastgen/toastgen/lang"

// Aggregates of DISTINCT values. COUNT(DISTINCT e) counts the values of e
// per group as a sum of Exists over (group, value):
//
//	AggSum(g, Exists(AggSum(g ∪ {d}, body * Lift(d, e))))
//
// SUM(DISTINCT e) weighs each distinct value by itself, the same set times
// the value:
//
//	AggSum(g, Exists(AggSum(g ∪ {d}, body * Lift(d, e))) * d)
//
// and AVG(DISTINCT e) is SUM(DISTINCT e) / COUNT(DISTINCT e), read out as
// AVG is (LISTMAX(1, count) keeps an empty group's AVG 0 in dialect
// dbtoaster). The lang resolver has made MIN(DISTINCT e) and
// MAX(DISTINCT e) plain MIN and MAX. Both forms are maintained like COUNT
// (DISTINCT): the inner AggSum is a map keyed by (group, value), whose
// entries appearing and disappearing change the sum by the value.

// distinctReadout translates a DISTINCT aggregate of a view (body is the
// view's body, keyVars its group keys) into a readout over the view's
// aggregates, added with addAgg.
func (b *block) distinctReadout(x *lang.Agg, body []Term, keyVars []Var, addAgg func(Term) int) (lang.Expr, error) {
	a, lifts, err := b.scalar(x.Arg)
	if err != nil {
		return nil, err
	}
	// A value that may be NULL (nullable.go) counts only where it is present.
	if p := b.t.presence(a); p != nil {
		lifts = append(append([]Term{}, lifts...), &Val{E: p})
	}
	a = b.t.valueOf(a, true)
	set := func() (Term, Var) {
		d := b.t.newVar("distinct", x.Arg.Type())
		inner := append(append(append([]Term{}, body...), lifts...), &Lift{V: d, T: &Val{E: a}})
		return &Exists{T: &AggSum{Group: append(append([]Var{}, keyVars...), d), T: prod(inner)}}, d
	}
	s, _ := set()
	count := &AggRef{Index: addAgg(&AggSum{Group: keyVars, T: s}), T: lang.TInt}
	if x.Fn == "COUNT" {
		return count, nil
	}
	s, d := set()
	sum := &AggRef{Index: addAgg(&AggSum{Group: keyVars, T: &Prod{Factors: []Term{s, &Val{E: Ref(d)}}}}), T: x.Arg.Type()}
	r, err := distinctResult(x, sum, count)
	if err == nil && b.t.sql {
		// Over no (non-NULL) value: NULL.
		r = &maybe{V: r, P: &lang.Binary{Op: "!=", L: count, R: IntLit(0), T: lang.TBool}}
	}
	return r, err
}

// distinctAggregate translates a DISTINCT aggregate of a subquery block
// (see countDistinct): lift turns an aggregate term into a lifted variable.
func (b *block) distinctAggregate(x *lang.Agg, agg func(...Term) Term, lift func(Term, lang.Type) lang.Expr) (lang.Expr, error) {
	c := *x
	c.Fn = "COUNT"
	countTerm, err := b.countDistinct(&c, agg)
	if err != nil {
		return nil, err
	}
	count := lift(countTerm, lang.TInt)
	if x.Fn == "COUNT" {
		return count, nil
	}
	// A second copy of the set, with its own variables, weighed by the
	// value: the value variable is the last group variable of the inner
	// AggSum.
	t, err := b.countDistinct(&c, agg)
	if err != nil {
		return nil, err
	}
	st := t.(*AggSum)
	ex := st.T.(*Exists)
	inner := ex.T.(*AggSum)
	d := inner.Group[len(inner.Group)-1]
	sum := lift(&AggSum{Group: st.Group, T: &Prod{Factors: []Term{ex, &Val{E: Ref(d)}}}}, x.Arg.Type())
	if r, ok := sum.(*VarRef); ok && b.t.sql {
		// Over no (non-NULL) value: NULL.
		b.t.setPresent(r.V, &lang.Binary{Op: "!=", L: count, R: IntLit(0), T: lang.TBool})
	}
	return distinctResult(x, sum, count)
}

// distinctResult is SUM(DISTINCT) or AVG(DISTINCT) from the sum and the
// count of the distinct values.
func distinctResult(x *lang.Agg, sum, count lang.Expr) (lang.Expr, error) {
	switch x.Fn {
	case "SUM":
		return sum, nil
	case "AVG":
		return &lang.Binary{Op: "/", L: sum, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), count}, T: lang.TInt}, T: lang.TFloat}, nil
	}
	return nil, errorAt(x.P, "%s(DISTINCT …) is not supported yet", x.Fn)
}
