package viewlet

import (
	"fmt"
	"sort"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Materialization: a delta monomial's relation atoms become reads of maps,
// one per component of atoms joined by unbound variables (materialize),
// split at hubs (splitAtHub, groupsApart) and factorized (factorize).

// materialize replaces the relation atoms of a delta monomial by map reads.
//
// The monomial's relation atoms are grouped into components connected by
// variables that the trigger does not bind. A condition or value over
// unbound variables only joins its component (it is pushed into the map); one
// that also reads a trigger argument stays in the statement, and the
// component variables it reads become keys of the component's map, over
// which the statement then loops (DBToaster's choice for inequality joins).
// Each component becomes one map keyed by the variables it shares with the
// rest of the statement: arguments, the target's keys, outside factors; with
// splitHubs, a component whose keys meet only through one summed-over
// variable becomes one map per group (splitAtHub). Nested aggregates keep
// one map per component: their group must be a map's keys. Below depth 2 the components are not aggregated: their relation atoms read
// the base relations' maps directly (first-order IVM).
func (c *compiler) materialize(factors []calculus.Term, args, lhs []calculus.Var, parent string, depth int, splitHubs bool) ([]calculus.Term, error) {
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
	factors = splitConjuncts(factors)
	n := len(factors)
	stay := make([]bool, n) // conditions that read a parameter (see correlate.go)
components:
	parentOf := make([]int, n)
	for i := range parentOf {
		parentOf[i] = i
	}
	find := func(i int) int {
		for parentOf[i] != i {
			i = parentOf[i]
		}
		return i
	}
	// Variables bound by factors that read maps (lifted nested aggregates,
	// loops over nested maps) are bound outside every component.
	liftBound := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range factors {
			if !readsMap(f) && !(readsAny(f, liftBound) && !calculus.HasRel(f)) {
				continue
			}
			for _, v := range binds(f) {
				if !liftBound[v.Name] {
					liftBound[v.Name] = true
					changed = true
				}
			}
		}
	}
	inside := make([]bool, n) // factor joins a component
	hasRel := make([]bool, n)
	owner := map[string]int{} // free variable → a factor using it
	for i, f := range factors {
		vs := calculus.Vars(f)
		var free, boundVs int
		for _, v := range vs {
			if bound[v.Name] {
				boundVs++
			} else {
				free++
			}
		}
		switch {
		case stay[i]:
			inside[i] = false
		case isRel(f):
			inside[i], hasRel[i] = true, true
		case calculus.HasRel(f):
			// A nested aggregate not yet materialized: it joins the
			// component whose variables it reads, and its map compiles it.
			inside[i], hasRel[i] = true, true
		case readsMap(f):
			inside[i] = false
		default:
			inside[i] = free > 0 && boundVs == 0 && !readsAny(f, liftBound)
		}
		if !inside[i] {
			continue
		}
		for _, v := range vs {
			if j, ok := owner[v.Name]; ok {
				a, b := find(i), find(j)
				if a != b {
					parentOf[a] = b
				}
			} else {
				owner[v.Name] = i
			}
		}
	}
	// Variables needed outside a component: arguments, target keys and the
	// variables of factors that stay in the statement.
	need := map[string]bool{}
	for _, v := range args {
		need[v.Name] = true
	}
	for _, v := range lhs {
		need[v.Name] = true
	}
	for i, f := range factors {
		if !inside[i] {
			for _, v := range calculus.Vars(f) {
				need[v.Name] = true
			}
		}
	}
	var out []calculus.Term
	var comps []int
	members := map[int][]int{}
	for i := range factors {
		if !inside[i] {
			out = append(out, factors[i])
			continue
		}
		r := find(i)
		if _, ok := members[r]; !ok {
			comps = append(comps, r)
		}
		members[r] = append(members[r], i)
	}
	if changed, err := c.keepParameters(factors, stay, comps, members, hasRel, args, lhs, need, parent); err != nil {
		return nil, err
	} else if changed {
		goto components
	}
	for _, r := range comps {
		idx := members[r]
		rel := false
		for _, i := range idx {
			rel = rel || hasRel[i]
		}
		if !rel {
			for _, i := range idx {
				out = append(out, factors[i])
			}
			continue
		}
		if depth >= 0 && depth < 2 && !nestedIn(factors, idx) {
			// First-order: each relation atom reads the relation projected on
			// the columns the rest of the statement uses.
			for _, i := range idx {
				x, ok := factors[i].(*calculus.Rel)
				if !ok {
					out = append(out, factors[i])
					continue
				}
				used := map[string]bool{}
				for j, f := range factors {
					if j != i {
						for _, v := range calculus.Vars(f) {
							used[v.Name] = true
						}
					}
				}
				var keys []calculus.Var
				for k, v := range x.Vars {
					if (need[v.Name] || used[v.Name] || hasVar(x.Vars[:k], v.Name)) && !hasVar(keys, v.Name) {
						keys = append(keys, v)
					}
				}
				m := c.mapFor(parent+"_m"+x.Name, keys, &calculus.AggSum{Group: keys, T: x}, Unbounded)
				out = append(out, &calculus.MapRef{Name: m.Name, Keys: keys, Type: lang.TInt})
			}
			continue
		}
		groups := [][]int{idx}
		var hub []calculus.Var
		if v, gs := splitAtHub(factors, idx, bound, need); splitHubs && gs != nil {
			groups, hub = gs, []calculus.Var{v}
		}
		for _, idx := range groups {
			var fs []calculus.Term
			var keys []calculus.Var
			for _, i := range idx {
				fs = append(fs, factors[i])
				for _, v := range calculus.Vars(factors[i]) {
					if (need[v.Name] || hasVar(hub, v.Name)) && !hasVar(keys, v.Name) {
						keys = append(keys, v)
					}
				}
			}
			rels := ""
			for _, i := range idx {
				if x, ok := factors[i].(*calculus.Rel); ok {
					rels += x.Name
				}
			}
			sub := depth
			if depth > 0 {
				sub = depth - 1
			}
			def := &calculus.AggSum{Group: keys, T: prod(fs)}
			m := c.mapFor(parent+"_m"+rels, keys, def, sub)
			// The map may be an earlier one with other key names: read it with ours.
			out = append(out, &calculus.MapRef{Name: m.Name, Keys: keys, Type: m.Type})
		}
	}
	return orderFactors(c.factorize(out, args, lhs), args), nil
}

// splitConjuncts returns factors with each condition that is a
// conjunction replaced by its conjuncts, {A AND B} = {A} * {B}: a
// conjunct reads only its own variables, so that it joins only the
// component they belong to (dialect sql's presence conditions of a
// product's operands AND both sides of a join).
func splitConjuncts(factors []calculus.Term) []calculus.Term {
	out := make([]calculus.Term, 0, len(factors))
	for _, f := range factors {
		if v, ok := f.(*calculus.Val); ok && v.E.Type() == lang.TBool {
			if cs := splitCondition(v.E); len(cs) > 1 {
				for _, c := range cs {
					out = append(out, &calculus.Val{E: c})
				}
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// splitAtHub keeps a component from being materialized as a cross product.
// If the component's keys fall into several groups of atoms that are joined
// only through one summed-over variable v (Q5's nation key joins customers,
// suppliers and orders; variables bound by the event do not join), one map
// keyed by all the keys would hold, for each v, the product of the groups'
// key sets. Instead each group becomes its own
// map keyed by its keys and v, and the statement sums over v:
// Σ_v M1[k1, v]·M2[k2, v] holds the same value with maps no larger than the
// groups. A split must add keyed groups; among the candidates v, the one
// splitting off the most wins; maps of groups are split again when they are compiled. It returns
// nil groups when no split applies.
func splitAtHub(factors []calculus.Term, idx []int, bound, need map[string]bool) (calculus.Var, [][]int) {
	var cands []calculus.Var
	seen := map[string]int{}
	for _, i := range idx {
		f := factors[i]
		if !isRel(f) && calculus.HasRel(f) {
			return calculus.Var{}, nil // nested aggregates compile as a whole
		}
		for _, v := range calculus.Vars(f) {
			if bound[v.Name] || need[v.Name] {
				continue
			}
			seen[v.Name]++
			if seen[v.Name] == 2 {
				cands = append(cands, v)
			}
		}
	}
	keyedGroups := func(groups [][]int) int {
		n := 0
		for _, g := range groups {
			for _, i := range g {
				if readsAny(factors[i], need) {
					n++
					break
				}
			}
		}
		return n
	}
	var best calculus.Var
	var bestGroups [][]int
	bestKeyed := keyedGroups(groupsApart(factors, idx, func(name string) bool { return bound[name] }))
	for _, hub := range cands {
		groups := groupsApart(factors, idx, func(name string) bool {
			return bound[name] || name == hub.Name
		})
		keyed := keyedGroups(groups)
		ok := true
		for _, g := range groups {
			hasRel, usesHub, bindsHub := false, false, false
			for _, i := range g {
				rel := isRel(factors[i])
				hasRel = hasRel || rel
				for _, v := range calculus.Vars(factors[i]) {
					if v.Name == hub.Name {
						usesHub = true
						bindsHub = bindsHub || rel
					}
				}
			}
			// Each group's map is keyed by the hub, so a relation of the
			// group must bind it.
			ok = ok && hasRel && (!usesHub || bindsHub)
		}
		if ok && keyed > bestKeyed {
			best, bestGroups, bestKeyed = hub, groups, keyed
		}
	}
	return best, bestGroups
}

// groupsApart partitions the factors idx into groups connected by shared
// variables, ignoring the variables for which skip is true.
func groupsApart(factors []calculus.Term, idx []int, skip func(string) bool) [][]int {
	group := map[int]int{} // factor → group number
	owner := map[string]int{}
	var groups [][]int
	for _, i := range idx {
		g := -1
		for _, v := range calculus.Vars(factors[i]) {
			if skip(v.Name) {
				continue
			}
			if j, ok := owner[v.Name]; ok {
				h := group[j]
				if g >= 0 && g != h {
					// merge h into g
					for _, k := range groups[h] {
						group[k] = g
					}
					groups[g] = append(groups[g], groups[h]...)
					groups[h] = nil
				} else {
					g = h
				}
			} else {
				owner[v.Name] = i
			}
		}
		if g < 0 {
			g = len(groups)
			groups = append(groups, nil)
		}
		group[i] = g
		groups[g] = append(groups[g], i)
	}
	var out [][]int
	for _, g := range groups {
		if len(g) > 0 {
			sort.Ints(g)
			out = append(out, g)
		}
	}
	return out
}

// factorize computes once the parts of a product that are independent of
// the rest: Σ_{a,b} A(a)·B(b) = (Σ_a A(a))·(Σ_b B(b)). Factors are grouped
// by the unbound variables they share; a group that loops (reads a map at
// unbound keys or nests a sum) and binds none of the target's keys becomes
// a lifted local sum, evaluated before the loops of the other groups.
func (c *compiler) factorize(fs []calculus.Term, args, lhs []calculus.Var) []calculus.Term {
	if len(fs) < 2 {
		return fs
	}
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, f := range fs {
		for _, v := range calculus.Vars(f) {
			if bound[v.Name] {
				continue
			}
			if j, ok := owner[v.Name]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[v.Name] = i
			}
		}
	}
	groups := map[int][]int{}
	var roots []int
	for i := range fs {
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], i)
	}
	if len(roots) < 2 {
		return fs
	}
	looping := 0
	for _, r := range roots {
		for _, i := range groups[r] {
			if !allBoundVars(calculus.Vars(fs[i]), bound) {
				looping++
				break
			}
		}
	}
	if looping < 2 {
		return fs // nothing to gain: a single loop
	}
	var out []calculus.Term
	for _, r := range roots {
		idx := groups[r]
		var part []calculus.Term
		loops, keyed := false, false
		for _, i := range idx {
			part = append(part, fs[i])
			for _, v := range calculus.Vars(fs[i]) {
				if hasVar(lhs, v.Name) {
					keyed = true
				}
				if !bound[v.Name] {
					loops = true
				}
			}
		}
		if !loops || keyed {
			out = append(out, part...)
			continue
		}
		c.parts++
		v := calculus.Var{Name: fmt.Sprintf("part%d", c.parts), Type: lang.TFloat}
		out = append(out, &calculus.Lift{V: v, T: &calculus.AggSum{T: prod(orderFactors(part, args))}}, &calculus.Val{E: calculus.Ref(v)})
	}
	return out
}
