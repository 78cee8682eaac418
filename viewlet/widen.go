package viewlet

import "github.com/toastgen/toastgen/calculus"

// widenGroups adds to the group of every aggregate nested in t (under
// products, sums, negations and Exists) the map keys its body reads.
//
// In a query, a nested aggregate may read a variable that an enclosing
// factor binds: in `S(b, c) * Exists(AggSum([d], T(c, d)))` the inner
// AggSum sums over d's rows for the c at hand, c being an input. When the
// nested term becomes a map keyed by c, nothing binds c while the map is
// evaluated, and AggSum([d], …) would sum over every c at once: the
// correlation would be lost. AggSum(g, t) with x bound is AggSum(g ∪ {x}, t)
// at that x, so keeping x in the group preserves the meaning for every key.
// A Lift's body is a single value for bound inputs and is left alone.
func widenGroups(t calculus.Term, keys []calculus.Var) calculus.Term {
	if len(keys) == 0 {
		return t
	}
	switch x := t.(type) {
	case *calculus.Prod:
		fs := make([]calculus.Term, len(x.Factors))
		for i, f := range x.Factors {
			fs[i] = widenGroups(f, keys)
		}
		return &calculus.Prod{Factors: fs}
	case *calculus.Sum:
		ts := make([]calculus.Term, len(x.Terms))
		for i, f := range x.Terms {
			ts[i] = widenGroups(f, keys)
		}
		return &calculus.Sum{Terms: ts}
	case *calculus.Neg:
		return &calculus.Neg{T: widenGroups(x.T, keys)}
	case *calculus.Exists:
		return &calculus.Exists{T: widenGroups(x.T, keys)}
	case *calculus.AggSum:
		group := append([]calculus.Var{}, x.Group...)
		used := map[string]bool{}
		for _, v := range calculus.Vars(x.T) {
			used[v.Name] = true
		}
		for _, k := range keys {
			if used[k.Name] && !hasVar(group, k.Name) {
				group = append(group, k)
			}
		}
		return &calculus.AggSum{Group: group, T: widenGroups(x.T, group)}
	}
	return t
}
