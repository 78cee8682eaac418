package viewlet

import (
	"fmt"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Initial values. A map starts empty when every monomial of its definition
// reads a relation at its top level: over empty relations it is 0. A
// definition whose relations all sit inside a nested aggregate is not:
// `(count ^= AggSum([], T(c, d))) * {count = 0}`, a NOT EXISTS materialized
// on its own, is 1 before the first event. Compile evaluates every map's
// definition over empty relations; a keyless map gets that value as its
// Init, which both engines store before any event; a keyed map whose keys
// come from constants (a constant view, SELECT 1) gets its InitEntries.

// initialValue returns the value of m's definition over empty relations:
// the value of a keyless map, the entries of a keyed one.
func initialValue(m *Map, dialect lang.Dialect) (v float64, entries []InitEntry, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("evaluating %s over empty relations: %v", m.Name, r)
		}
	}()
	t := withoutRelations(m.Def)
	if a, ok := t.(*calculus.AggSum); ok {
		// A monomial that read a relation at its top level is 0 now: drop
		// it before evaluating, since the factors before its relation may
		// read variables only the relation binds.
		var terms []calculus.Term
		for _, mono := range calculus.Expand(a.T) {
			terms = append(terms, mono.Term(m.Type))
		}
		if len(terms) == 0 {
			return 0, nil, nil
		}
		t = &calculus.AggSum{Group: a.Group, T: sumOf(terms)}
	}
	in := NewInterp(&Program{Dialect: dialect}) // x / y by the program's rules
	e := &env{}
	ev[float64]{in}.eval(t, e, func(x float64) {
		if len(m.Keys) == 0 {
			v += x
			return
		}
		keys := make([]any, len(m.Keys))
		for i, k := range m.Keys {
			kv, ok := e.get(k.Name)
			if !ok {
				panic(fmt.Sprintf("key %s is not bound", k.Name))
			}
			keys[i] = coerce(kv, k.Type)
		}
		entries = append(entries, InitEntry{Keys: keys, Value: x})
	})
	return v, entries, nil
}

// withoutRelations replaces every relation atom of t by 0.
func withoutRelations(t calculus.Term) calculus.Term {
	return calculus.ReplaceRels(t, func(*calculus.Rel) calculus.Term { return calculus.Zero })
}

// setInitialValues computes Init for every map of the program.
func (c *compiler) setInitialValues() error {
	for _, m := range c.prog.Maps {
		v, entries, err := initialValue(m, c.prog.Dialect)
		if err != nil {
			return c.errorf("not supported yet: %v", err)
		}
		m.Init, m.InitEntries = v, entries
	}
	return nil
}
