package viewlet

import (
	"fmt"
	"maps"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Nested aggregates: maps whose definitions nest aggregates (scalar
// subqueries, EXISTS, IN, derived tables, MIN/MAX) are re-evaluated from
// maps of their nested aggregates, keyed by their correlation variables
// (compileNested, nestedTerm, hoist).

// compileNested maintains a map whose definition nests aggregates (scalar
// subqueries, EXISTS, IN, derived tables). Each nested aggregate is
// materialized as maps keyed by its correlation variables. Events of
// relations that occur only outside the nested aggregates update m
// incrementally (the nested maps do not change); events of relations inside
// them re-evaluate m from maps (m[keys] := …) after those maps are updated,
// since the delta of a lifted aggregate, Lift(x, t+Δt) − Lift(x, t), is
// not simpler than the term itself.
func (c *compiler) compileNested(m *Map, depth int) error {
	def := m.Def.(*calculus.AggSum)
	nestedRels := map[string]bool{}
	var terms []calculus.Term
	for _, mono := range calculus.Expand(def.T) {
		fs := make([]calculus.Term, len(mono.Factors))
		for i, f := range mono.Factors {
			if isRel(f) || !calculus.HasRel(f) {
				fs[i] = f
				continue
			}
			for _, r := range calculus.Relations(f) {
				nestedRels[r] = true
			}
			h, err := c.hoist(f, correlation(f, mono.Factors, i, def.Group), m.Name, depth)
			if err != nil {
				return err
			}
			fs[i] = h
		}
		terms = append(terms, calculus.Monomial{Coef: mono.Coef, Factors: fs}.Term(m.Type))
	}
	hoisted := &calculus.AggSum{Group: def.Group, T: sumOf(terms)}
	for _, rel := range calculus.Relations(def) {
		if c.emptyWhileLoading(def, rel) {
			continue
		}
		for _, ins := range []bool{true, false} {
			t := c.trigger(rel, ins)
			if !nestedRels[rel] {
				if err := c.incremental(m, hoisted, t, depth); err != nil {
					return err
				}
				continue
			}
			d := avoidNames(hoisted, t.Event.Args)
			// Re-evaluate only the entries the event can change: a key that
			// every atom of the relation holds at the same column is the
			// event's value of that column.
			sub := map[string]lang.Expr{}
			ad := avoidNames(def, t.Event.Args)
			for k, arg := range heldVars(ad, rel, t.Event.Args, ad.Group) {
				sub[k] = calculus.Ref(arg)
			}
			keys := make([]calculus.Var, len(d.Group))
			for i, k := range d.Group {
				keys[i] = k
				if r, ok := sub[k.Name]; ok {
					keys[i] = r.(*calculus.VarRef).V
				}
			}
			// If a summed-over variable is fixed by the event too (Q13's
			// customer key, Q17's part key), only the terms with the
			// event's value of it change: add their new value and subtract
			// their old one, instead of re-evaluating whole entries.
			// Candidates are the variables of the outer atoms only: a
			// variable summed over inside a nested aggregate is not one.
			var outer []calculus.Var
			for _, mono := range calculus.Expand(d.T) {
				for _, f := range mono.Factors {
					var vs []calculus.Var
					switch x := f.(type) {
					case *calculus.Rel:
						vs = x.Vars
					case *calculus.MapRef:
						vs = x.Keys
					case *calculus.Exists:
						if r, ok := x.T.(*calculus.MapRef); ok {
							vs = r.Keys
						}
					case *calculus.Lift:
						if r, ok := x.T.(*calculus.MapRef); ok {
							vs = r.Keys
						}
					}
					for _, v := range vs {
						if !hasVar(d.Group, v.Name) && !hasVar(outer, v.Name) {
							outer = append(outer, v)
						}
					}
				}
			}
			slice := heldVars(ad, rel, t.Event.Args, outer)
			delta := len(slice) > 0
			for v, arg := range slice {
				sub[v] = calculus.Ref(arg)
			}
			var rhs []calculus.Monomial
			for _, mono := range calculus.Expand(calculus.SubstTerm(d.T, sub)) {
				// The event binds its arguments: an equality with one binds
				// the other side (an outer join's ON condition, kept as a
				// condition by the calculus), a lookup instead of a loop.
				if sm, keySub, ok := calculus.SimplifyMonomial(mono, t.Event.Args, keys); !ok {
					continue
				} else if len(keySub) == 0 {
					mono = sm
				}
				fs, err := c.materialize(mono.Factors, t.Event.Args, keys, m.Name, depth, true)
				if err != nil {
					return err
				}
				rhs = append(rhs, calculus.Monomial{Coef: mono.Coef, Factors: fs})
			}
			// An entry the event binds completely is set (:=) in O(1), and
			// a map the event does not restrict is re-evaluated whole. A
			// slice of entries (keys the RHS loops over, Q18's customers of
			// the event's order) is updated by its difference instead: the
			// old RHS subtracted before the updates and the new one added
			// after. A guard the RHS evaluates before its loop (Q18's
			// {SUM(quantity) > 300} of the order) then skips the loop while
			// it is false before and after, where clearing the slice would
			// look it up on every event, and the map needs no index for
			// the clearing.
			if !delta && !partlyBound(keys, t.Event.Args) {
				t.Stmts = append(t.Stmts, &Stmt{Map: m, Keys: keys, Replace: true, RHS: rhs})
				continue
			}
			old := make([]calculus.Monomial, len(rhs))
			for i, mono := range rhs {
				old[i] = calculus.Monomial{Coef: -mono.Coef, Factors: mono.Factors}
			}
			t.Stmts = append(t.Stmts,
				&Stmt{Map: m, Keys: keys, RHS: old},
				&Stmt{Map: m, Keys: keys, After: true, RHS: rhs})
		}
	}
	return nil
}

// partlyBound reports whether some keys but not all are trigger arguments.
func partlyBound(keys, args []calculus.Var) bool {
	n := 0
	for _, k := range keys {
		if hasVar(args, k.Name) {
			n++
		}
	}
	return n > 0 && n < len(keys)
}

// heldVars returns the variables among cands that every atom of relation
// rel in def holds at one and the same column, each with the trigger
// argument of that column: an event of rel changes only the entries with
// those values (called with def's keys, the entries the event can affect).
// An atom holds v at a column whose variable is v, or is equated to v by a
// condition of an enclosing product (Q18's IN subquery, grouped by
// l_orderkey2 and compared with o_orderkey) or a lift of one into the
// other (Q16's distinct values).
func heldVars(def *calculus.AggSum, rel string, args []calculus.Var, cands []calculus.Var) map[string]calculus.Var {
	out := map[string]calculus.Var{}
	for _, k := range cands {
		pos, ok := -1, true
		var visit func(t calculus.Term, same map[string]bool)
		visit = func(t calculus.Term, same map[string]bool) {
			if !ok {
				return
			}
			switch x := t.(type) {
			case *calculus.Rel:
				if x.Name != rel {
					return
				}
				j := -1
				for i, v := range x.Vars {
					if same[v.Name] {
						j = i
						break
					}
				}
				if j < 0 || (pos >= 0 && pos != j) {
					ok = false
					return
				}
				pos = j
			case *calculus.Prod:
				inner := same
				for changed := true; changed; {
					changed = false
					for _, f := range x.Factors {
						a, b, isEq := calculus.VarEquality(f)
						if !isEq {
							a, b, isEq = liftOfVar(f)
						}
						if !isEq || inner[a] == inner[b] {
							continue
						}
						if len(inner) == len(same) {
							inner = maps.Clone(same)
						}
						inner[a], inner[b] = true, true
						changed = true
					}
				}
				for _, f := range x.Factors {
					visit(f, inner)
				}
			case *calculus.Sum:
				for _, u := range x.Terms {
					visit(u, same)
				}
			case *calculus.Neg:
				visit(x.T, same)
			case *calculus.AggSum:
				// A name equal to v outside keeps its meaning inside: the
				// calculus's names are unique per scope, so a nested
				// aggregate that mentions one is correlated on it (Q20's
				// lineitem sum reads ps_suppkey, equated to s_suppkey).
				visit(x.T, same)
			case *calculus.Lift:
				visit(x.T, same)
			case *calculus.Exists:
				visit(x.T, same)
			case *calculus.Extreme:
				visit(x.T, same)
			}
		}
		visit(def.T, map[string]bool{k.Name: true})
		if ok && pos >= 0 && args[pos].Type == k.Type {
			out[k.Name] = args[pos]
		}
	}
	return out
}

// liftOfVar reports whether f lifts a variable's value into another (Q16's
// COUNT(DISTINCT ps_suppkey) keys its distinct values by distinct ^=
// ps_suppkey): the two are then equal, as with an equality condition.
func liftOfVar(f calculus.Term) (a, b string, ok bool) {
	l, isLift := f.(*calculus.Lift)
	if !isLift {
		return "", "", false
	}
	v, isVal := l.T.(*calculus.Val)
	if !isVal {
		return "", "", false
	}
	r, isRef := v.E.(*calculus.VarRef)
	if !isRef {
		return "", "", false
	}
	return l.V.Name, r.V.Name, true
}

// inputsInAtoms reports whether every input variable is a column of a
// relation atom in every monomial of t (so that it can be a map key).
func inputsInAtoms(t calculus.Term, inputs []calculus.Var) bool {
	for _, m := range calculus.Expand(t) {
		inAtom := map[string]bool{}
		for _, f := range m.Factors {
			if r, ok := f.(*calculus.Rel); ok {
				for _, v := range r.Vars {
					inAtom[v.Name] = true
				}
			}
		}
		for _, v := range inputs {
			if !inAtom[v.Name] {
				return false
			}
		}
	}
	return true
}

func sumOf(ts []calculus.Term) calculus.Term {
	if len(ts) == 1 {
		return ts[0]
	}
	return &calculus.Sum{Terms: ts}
}

// correlation returns the variables of nested factor fs[i] that the rest of
// the monomial or the map's keys also use: its inputs.
func correlation(f calculus.Term, fs []calculus.Term, i int, group []calculus.Var) []calculus.Var {
	others := map[string]bool{}
	for j, g := range fs {
		if j != i {
			for _, v := range calculus.Vars(g) {
				others[v.Name] = true
			}
		}
	}
	for _, v := range group {
		others[v.Name] = true
	}
	own := map[string]bool{}
	for _, v := range binds(f) {
		own[v.Name] = true
	}
	var out []calculus.Var
	for _, v := range calculus.Vars(f) {
		if others[v.Name] && !own[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// hoist replaces the aggregate nested in a Lift, Exists or AggSum factor by
// reads of maps, keyed by its group variables and inputs.
func (c *compiler) hoist(f calculus.Term, inputs []calculus.Var, parent string, depth int) (calculus.Term, error) {
	switch x := f.(type) {
	case *calculus.Lift:
		if ex, ok := x.T.(*calculus.Extreme); ok {
			t, err := c.nestedTerm(ex.T, inputs, parent, depth)
			return &calculus.Lift{V: x.V, T: &calculus.Extreme{Max: ex.Max, Arg: ex.Arg, T: t, Hol: ex.Hol}}, err
		}
		t, err := c.nestedTerm(x.T, inputs, parent, depth)
		return &calculus.Lift{V: x.V, T: t}, err
	case *calculus.Exists:
		t, err := c.nestedTerm(x.T, inputs, parent, depth)
		return &calculus.Exists{T: t}, err
	case *calculus.AggSum:
		return c.nestedTerm(x, inputs, parent, depth)
	}
	return nil, fmt.Errorf("viewlet: cannot materialize nested term %s", calculus.String(f))
}

func (c *compiler) nestedTerm(t calculus.Term, inputs []calculus.Var, parent string, depth int) (calculus.Term, error) {
	a, ok := t.(*calculus.AggSum)
	if !ok {
		a = &calculus.AggSum{T: t}
	}
	var terms []calculus.Term
	var ms []calculus.Monomial
	for _, mono := range calculus.Expand(a.T) {
		// Equalities with inputs become lookups; group variables stay.
		if sm, keySub, ok := calculus.SimplifyMonomial(mono, inputs, a.Group); ok && len(keySub) == 0 {
			mono = sm
		}
		// Nested aggregates are always materialized as maps, whatever the
		// depth: -depth bounds the recursion of delta maps only.
		fs, err := c.materialize(mono.Factors, inputs, a.Group, parent, Unbounded, false)
		if err != nil {
			return nil, err
		}
		ms = append(ms, calculus.Monomial{Coef: mono.Coef, Factors: fs})
		terms = append(terms, calculus.Monomial{Coef: mono.Coef, Factors: fs}.Term(calculus.TypeOf(a.T)))
	}
	// A sum (a UNION) that binds group variables is kept as one map keyed by
	// the group and the inputs, so that it can be read by one loop.
	if len(ms) > 1 && len(a.Group) > 0 && inputsInAtoms(a.T, inputs) {
		keys := append(append([]calculus.Var{}, a.Group...), inputs...)
		m := c.mapFor(parent+"_u", keys, &calculus.AggSum{Group: keys, T: a.T}, Unbounded)
		return &calculus.MapRef{Name: m.Name, Keys: keys, Type: m.Type}, nil
	}
	// A single map read keyed by exactly the group and inputs needs no AggSum.
	if len(ms) == 1 && ms[0].Coef == 1 && len(ms[0].Factors) == 1 {
		if r, ok := ms[0].Factors[0].(*calculus.MapRef); ok {
			allowed := map[string]bool{}
			for _, v := range a.Group {
				allowed[v.Name] = true
			}
			for _, v := range inputs {
				allowed[v.Name] = true
			}
			if allBoundVars(r.Keys, allowed) {
				return r, nil
			}
		}
	}
	return &calculus.AggSum{Group: a.Group, T: sumOf(terms)}, nil
}

// toBaseRefs replaces every relation atom by a read of the relation's base map.
func (c *compiler) toBaseRefs(t calculus.Term) calculus.Term {
	return calculus.ReplaceRels(t, func(x *calculus.Rel) calculus.Term {
		bm := c.baseMap(c.rels[x.Name])
		return &calculus.MapRef{Name: bm.Name, Keys: x.Vars, Type: lang.TInt}
	})
}

// avoidNames renames the variables of def that have the name of an argument.
func avoidNames(def *calculus.AggSum, args []calculus.Var) *calculus.AggSum {
	taken := map[string]bool{}
	for _, v := range calculus.Vars(def) {
		taken[v.Name] = true
	}
	sub := map[string]lang.Expr{}
	for _, a := range args {
		if taken[a.Name] {
			n := a.Name
			for taken[n] {
				n += "_"
			}
			taken[n] = true
			sub[a.Name] = calculus.Ref(calculus.Var{Name: n, Type: a.Type})
		}
	}
	if len(sub) == 0 {
		return def
	}
	return calculus.SubstTerm(def, sub).(*calculus.AggSum)
}
