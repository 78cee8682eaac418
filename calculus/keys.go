package calculus

import (
	"slices"

	"github.com/toastgen/toastgen/lang"
)

// Determinant returns the positions, in def.Group, of group variables that
// determine all the others in every monomial of def: through the primary
// keys of the relations (keys maps a relation's name to the positions of
// its key columns, lang.Relation.Key), through equalities between
// variables, and through lifted aggregates (x ^= Q is a function of Q's
// inputs). An entry of a map defined by def is then identified by the
// values of the returned positions alone, where the relations keep their
// keys; a map can hash them instead of its whole key. Variables of the
// types costliest to hash (strings, then floats, then dates) are left out
// first. With no primary keys involved, every position is returned.
func Determinant(def *AggSum, keys map[string][]int) []int {
	monos := Expand(def.T)
	kept := make([]bool, len(def.Group))
	for i := range kept {
		kept[i] = true
	}
	determines := func() bool {
		var from []string
		for i, g := range def.Group {
			if kept[i] {
				from = append(from, g.Name)
			}
		}
		for _, m := range monos {
			closed := closure(m, from, keys)
			for _, g := range def.Group {
				if !closed[g.Name] {
					return false
				}
			}
		}
		return true
	}
	order := make([]int, len(def.Group))
	for i := range order {
		order[i] = len(order) - 1 - i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return hashCost(def.Group[b].Type) - hashCost(def.Group[a].Type)
	})
	for _, i := range order {
		kept[i] = false
		if !determines() {
			kept[i] = true
		}
	}
	var out []int
	for i, k := range kept {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// VarEquality reports whether f is a condition a = b between two
// variables, and names them.
func VarEquality(f Term) (a, b string, ok bool) {
	v, isVal := f.(*Val)
	if !isVal {
		return "", "", false
	}
	e, isBin := v.E.(*lang.Binary)
	if !isBin || e.Op != "=" {
		return "", "", false
	}
	l, lok := e.L.(*VarRef)
	r, rok := e.R.(*VarRef)
	if !lok || !rok {
		return "", "", false
	}
	return l.V.Name, r.V.Name, true
}

// hashCost ranks types by the cost of hashing a value of them.
func hashCost(t lang.Type) int {
	switch t {
	case lang.TString:
		return 3
	case lang.TFloat:
		return 2
	case lang.TDate:
		return 1
	}
	return 0
}

// closure returns the variables of monomial m whose values the variables
// from determine (from included).
func closure(m Monomial, from []string, keys map[string][]int) map[string]bool {
	in := map[string]bool{}
	for _, v := range from {
		in[v] = true
	}
	for changed := true; changed; {
		changed = false
		add := func(v string) {
			if !in[v] {
				in[v] = true
				changed = true
			}
		}
		for _, f := range m.Factors {
			switch x := f.(type) {
			case *Rel:
				key, ok := keys[x.Name]
				if !ok || len(key) == 0 {
					continue
				}
				all := true
				for _, p := range key {
					all = all && p < len(x.Vars) && in[x.Vars[p].Name]
				}
				if all {
					for _, v := range x.Vars {
						add(v.Name)
					}
				}
			case *Lift:
				all := true
				for _, v := range FreeVars(x.T) {
					all = all && in[v.Name]
				}
				if all {
					add(x.V.Name)
				}
			case *Val:
				if a, b, ok := VarEquality(x); ok && in[a] != in[b] {
					add(a)
					add(b)
				}
			}
		}
	}
	return in
}
