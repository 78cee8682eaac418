package viewlet

import (
	"fmt"

	"github.com/toastgen/toastgen/calculus"
)

// Initial values. A map starts empty when every monomial of its definition
// reads a relation at its top level: over empty relations it is 0. A
// definition whose relations all sit inside a nested aggregate is not:
// `(count ^= AggSum([], T(c, d))) * {count = 0}`, a NOT EXISTS materialized
// on its own, is 1 before the first event. Compile evaluates every map's
// definition over empty relations; a keyless map gets that value as its
// Init, which both engines store before any event. A keyed map that would
// hold entries over empty relations is rejected (its keys would come from
// constants alone; no query shape the translation produces makes one).

// initialValue returns the value of m's definition over empty relations.
func initialValue(m *Map) (v float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("evaluating %s over empty relations: %v", m.Name, r)
		}
	}()
	t := withoutRelations(m.Def)
	in := NewInterp(&Program{})
	n := 0
	in.eval(t, &env{}, func(x float64) {
		v += x
		n++
	})
	if len(m.Keys) > 0 && n > 0 && v != 0 {
		return 0, fmt.Errorf("map %s holds entries before any event (its keys do not come from relations)", m.Name)
	}
	if len(m.Keys) > 0 {
		return 0, nil
	}
	return v, nil
}

// withoutRelations replaces every relation atom of t by 0.
func withoutRelations(t calculus.Term) calculus.Term {
	switch x := t.(type) {
	case *calculus.Rel:
		return calculus.Zero
	case *calculus.Sum:
		ts := make([]calculus.Term, len(x.Terms))
		for i, u := range x.Terms {
			ts[i] = withoutRelations(u)
		}
		return &calculus.Sum{Terms: ts}
	case *calculus.Prod:
		fs := make([]calculus.Term, len(x.Factors))
		for i, u := range x.Factors {
			fs[i] = withoutRelations(u)
		}
		return &calculus.Prod{Factors: fs}
	case *calculus.Neg:
		return &calculus.Neg{T: withoutRelations(x.T)}
	case *calculus.AggSum:
		return &calculus.AggSum{Group: x.Group, T: withoutRelations(x.T)}
	case *calculus.Lift:
		return &calculus.Lift{V: x.V, T: withoutRelations(x.T)}
	case *calculus.Exists:
		return &calculus.Exists{T: withoutRelations(x.T)}
	case *calculus.Extreme:
		return &calculus.Extreme{Max: x.Max, Arg: x.Arg, T: withoutRelations(x.T)}
	}
	return t
}

// setInitialValues computes Init for every map of the program.
func (c *compiler) setInitialValues() error {
	for _, m := range c.prog.Maps {
		v, err := initialValue(m)
		if err != nil {
			return c.errorf("not supported yet: %v", err)
		}
		m.Init = v
	}
	return nil
}
