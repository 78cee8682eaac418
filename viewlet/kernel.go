package viewlet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toastgen/toastgen/calculus"
)

// Kernels. A map whose definition is the count of a cyclic join of three
// relations (calculus.Triangle) costs any delta plan O(N) for some events;
// it is kept instead by a heavy/light kernel (runtime.TriangleCount) in
// amortized O(√N). Its three inputs are ordinary maps, the relations'
// weights keyed by the variables each shares with its neighbours in the
// cycle, which the triggers keep in O(1) (the event binds their keys); a
// trigger that writes an input ends with a Sync, which hands the entry's
// new value to the kernel, and the kernel's count is the map's value.

// Kernel describes the structure that maintains a map.
type Kernel struct {
	Kind   string  // "triangle"
	Inputs [3]*Map // the weights W0(x, y), W1(y, z), W2(z, x)
	Split  [3]int  // the keys of input i are Split[i] keys (x), then the rest (y)
}

// Sync hands a kernel the entry of input Input at Keys (the event's
// variables) after the trigger's statements.
type Sync struct {
	Map   *Map
	Input int
	Keys  []calculus.Var
}

// kernelMap returns the map defined by def, a triangle, kept by a kernel
// over its weights (compiled as maps at the given depth).
func (c *compiler) kernelMap(name string, def *calculus.AggSum, cyc *calculus.Cycle, depth int) *Map {
	canon := canonical(def)
	if m, ok := c.byDef[canon]; ok {
		return m
	}
	c.names[name] = true
	m := &Map{Name: name, Type: calculus.TypeOf(def.T), Def: def, Kernel: &Kernel{Kind: "triangle", Split: cyc.Split}}
	c.byDef[canon] = m
	c.prog.Maps = append(c.prog.Maps, m)
	for i, w := range cyc.Weights {
		n := fmt.Sprintf("%s_W%d_%s", name, i, strings.Join(calculus.Relations(w), "_"))
		m.Kernel.Inputs[i] = c.mapFor(n, w.Group, w, depth)
	}
	return m
}

// setSyncs records in every trigger the kernel inputs its statements
// write; false if one is written at keys the event does not bind (or
// replaced), which a kernel cannot follow.
func setSyncs(p *Program) bool {
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			for _, m := range p.Maps {
				if m.Kernel == nil {
					continue
				}
				i := slices.Index(m.Kernel.Inputs[:], s.Map)
				if i < 0 {
					continue
				}
				if s.Replace {
					return false
				}
				for _, k := range s.Keys {
					if !slices.ContainsFunc(t.Event.Args, func(a calculus.Var) bool { return a.Name == k.Name }) {
						return false
					}
				}
				u := Sync{Map: m, Input: i, Keys: s.Keys}
				if !slices.ContainsFunc(t.Syncs, func(x Sync) bool { return x.Map == m && x.Input == i && varList(x.Keys) == varList(u.Keys) }) {
					t.Syncs = append(t.Syncs, u)
				}
			}
		}
	}
	return true
}
