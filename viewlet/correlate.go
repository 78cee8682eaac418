package viewlet

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Range restriction. A map is a finite function: each of its keys must be
// range-restricted by its definition, that is, take finitely many values,
// each bound by a relation atom (or a map) or computed from such values. A
// variable that the definition only compares (`{t_c < s_c}`, the correlation
// of a subquery by an inequality, or `{d_x > d}` with d_x computed outside
// the map) is a parameter: a map keyed by it would have an entry for every
// value of it, which no statement can enumerate. The compiler never makes
// such maps:
//
//   - materialize keeps a condition that reads a parameter in the statement,
//     where the parameter is bound, and evaluates a nested aggregate that
//     reads one in place, with the parameter as an input (its conditions on
//     it become range reads of the maps inside), instead of as a map keyed
//     by it;
//   - a view aggregate correlated with group keys by an inequality (a
//     subquery in SELECT or HAVING) is restricted to the groups of the view,
//     which are the only entries the view reads (guardGroups).
//
// Compile checks every map it makes and rejects, at the query's position,
// one keyed by a parameter (unsafeKeys).

// restricts returns the variables range-restricted after evaluating t, given
// that the variables in s are: s itself plus those t binds to finitely many
// values.
func restricts(t calculus.Term, s map[string]bool) map[string]bool {
	out := copySet(s)
	switch x := t.(type) {
	case *calculus.Rel:
		for _, v := range x.Vars {
			out[v.Name] = true
		}
	case *calculus.MapRef:
		// Maps hold finitely many entries (every map is checked).
		for _, v := range x.Keys {
			out[v.Name] = true
		}
	case *calculus.Lift:
		// x.V is a function of the inputs of x.T: restricted when they are.
		inner := restricts(x.T, s)
		ok := true
		for _, v := range calculus.FreeVars(x.T) {
			if !inner[v.Name] {
				ok = false
			}
		}
		if ok {
			out[x.V.Name] = true
		}
	case *calculus.Extreme:
		return restricts(x.T, s)
	case *calculus.Exists:
		inner := restricts(x.T, s)
		for _, v := range calculus.FreeVars(x.T) {
			if inner[v.Name] {
				out[v.Name] = true
			}
		}
	case *calculus.AggSum:
		inner := restricts(x.T, s)
		for _, v := range x.Group {
			if inner[v.Name] {
				out[v.Name] = true
			}
		}
	case *calculus.Neg:
		return restricts(x.T, s)
	case *calculus.Prod:
		for changed := true; changed; {
			changed = false
			for _, f := range x.Factors {
				for v := range restricts(f, out) {
					if !out[v] {
						out[v] = true
						changed = true
					}
				}
			}
		}
	case *calculus.Sum:
		// A union restricts what every one of its terms restricts.
		var common map[string]bool
		for _, u := range x.Terms {
			r := restricts(u, s)
			if common == nil {
				common = r
				continue
			}
			for v := range common {
				if !r[v] {
					delete(common, v)
				}
			}
		}
		for v := range common {
			out[v] = true
		}
	}
	return out
}

// unrestricted returns the variables among keys that the factors fs do not
// range-restrict.
func unrestricted(fs []calculus.Term, keys []calculus.Var) []calculus.Var {
	r := restricts(&calculus.Prod{Factors: fs}, nil)
	var out []calculus.Var
	for _, k := range keys {
		if !r[k.Name] {
			out = append(out, k)
		}
	}
	return out
}

// unsafeKeys returns the keys of a map definition that its body does not
// range-restrict.
func unsafeKeys(def *calculus.AggSum) []calculus.Var {
	return unrestricted([]calculus.Term{def.T}, def.Group)
}

// checkSafe records an error for a map keyed by a parameter: no statement
// could enumerate its entries.
func (c *compiler) checkSafe(m *Map) {
	def, ok := m.Def.(*calculus.AggSum)
	if !ok || c.err != nil {
		return
	}
	if ks := unsafeKeys(def); len(ks) > 0 {
		var names []string
		for _, k := range ks {
			names = append(names, k.Name)
		}
		c.err = c.errorf("a correlation of this shape is not supported yet (map %s would be keyed by %s, which only a comparison reads: %s)",
			m.Name, strings.Join(names, ", "), calculus.String(def))
	}
}

// errorf returns an error positioned at the query being compiled.
func (c *compiler) errorf(format string, args ...any) error {
	if c.file != nil && c.query >= 0 && c.query < len(c.file.Queries) {
		return c.file.Errorf(c.file.Queries[c.query].Pos, format, args...)
	}
	return fmt.Errorf("viewlet: "+format, args...)
}

// guardGroups restricts a view aggregate to the view's groups when its keys
// (group keys a subquery in SELECT or HAVING is correlated with) are not
// range-restricted by its definition, as with an inequality correlation:
// AggSum(g, T(..)·{t_c < s_c}) becomes AggSum(g, Exists(AggSum(g, body))·
// T(..)·{t_c < s_c}), where AggSum(g, body) projects the view's row count
// on g. The view reads the aggregate only at its groups, so its value there
// is unchanged; the map now holds one entry per group, which statements
// enumerate through the group map.
func guardGroups(count *calculus.AggSum, a *calculus.AggSum, pos []int) *calculus.AggSum {
	if count == nil || len(unsafeKeys(a)) == 0 {
		return a
	}
	if pos == nil {
		if len(a.Group) != len(count.Group) {
			return a
		}
		pos = make([]int, len(a.Group))
		for i := range pos {
			pos[i] = i
		}
	}
	// The row count's variables, with its keys at pos renamed to a's keys
	// and the others renamed apart from a's variables.
	taken := map[string]bool{}
	for _, v := range calculus.Vars(a) {
		taken[v.Name] = true
	}
	sub := map[string]calculus.Var{}
	for i, p := range pos {
		if p < 0 || p >= len(count.Group) {
			return a
		}
		sub[count.Group[p].Name] = a.Group[i]
	}
	ren := map[string]lang.Expr{}
	for _, v := range calculus.Vars(count.T) {
		if w, ok := sub[v.Name]; ok {
			ren[v.Name] = calculus.Ref(w)
			continue
		}
		n := v.Name
		for taken[n] {
			n += "_g"
		}
		taken[n] = true
		ren[v.Name] = calculus.Ref(calculus.Var{Name: n, Type: v.Type})
	}
	body := calculus.SubstTerm(count.T, ren)
	domain := &calculus.Exists{T: &calculus.AggSum{Group: a.Group, T: body}}
	return &calculus.AggSum{Group: a.Group, T: calculus.Flatten(&calculus.Prod{Factors: []calculus.Term{domain, a.T}})}
}

func copySet(s map[string]bool) map[string]bool {
	out := make(map[string]bool, len(s))
	for k, v := range s {
		if v {
			out[k] = true
		}
	}
	return out
}

// keepParameters checks that every component materialize would turn into a
// map range-restricts the map's keys (the variables it shares with the rest
// of the statement). For a key that the component does not restrict (a
// parameter: bound by the event or by a factor outside, and only compared
// inside), the component's factors that read it leave the component: a
// condition stays in the statement (stay), and a nested aggregate is
// evaluated in place with the parameter as an input (hoist), its own
// conditions on it becoming range reads of the maps inside it. It reports
// whether it changed anything, after which the components are recomputed.
func (c *compiler) keepParameters(factors []calculus.Term, stay []bool, comps []int, members map[int][]int, hasRel []bool, args, lhs []calculus.Var, need map[string]bool, parent string) (bool, error) {
	changed := false
	for _, r := range comps {
		idx := members[r]
		rel := false
		var fs []calculus.Term
		var keys []calculus.Var
		for _, i := range idx {
			rel = rel || hasRel[i]
			fs = append(fs, factors[i])
			for _, v := range calculus.Vars(factors[i]) {
				if need[v.Name] && !hasVar(keys, v.Name) {
					keys = append(keys, v)
				}
			}
		}
		if !rel {
			continue
		}
		params := map[string]bool{}
		for _, k := range unrestricted(fs, keys) {
			params[k.Name] = true
		}
		if len(params) == 0 {
			continue
		}
		for _, i := range idx {
			f := factors[i]
			if isRel(f) || !readsAny(f, params) {
				continue
			}
			if !calculus.HasRel(f) {
				stay[i] = true
				changed = true
				continue
			}
			h, err := c.hoist(f, nestedInputs(factors, i, args, lhs), parent, Unbounded)
			if err != nil {
				return false, err
			}
			if calculus.HasRel(h) {
				// Not materialized: it would join the component again.
				return false, c.errorf("cannot evaluate the nested aggregate %s in place", calculus.String(f))
			}
			factors[i] = h
			changed = true
		}
	}
	return changed, nil
}

// nestedInputs returns the variables of the nested factor fs[i] that are
// bound where it is evaluated in place: the event's arguments it reads and
// those it shares with the other factors or the target's keys.
func nestedInputs(fs []calculus.Term, i int, args, lhs []calculus.Var) []calculus.Var {
	in := correlation(fs[i], fs, i, lhs)
	own := map[string]bool{}
	for _, v := range binds(fs[i]) {
		own[v.Name] = true
	}
	for _, v := range calculus.Vars(fs[i]) {
		if hasVar(args, v.Name) && !own[v.Name] && !hasVar(in, v.Name) {
			in = append(in, v)
		}
	}
	return in
}

// enumerableAtDepth0 prepares a guarded view aggregate (guardGroups) for
// re-evaluation from the base relations (depth 0). Its guard, a nested
// grouped aggregate Exists(AggSum(g, t)) whose group holds keys of the
// target that no relation atom of its monomial binds, would have to
// enumerate its groups in place; it is read from a map of its own instead
// (re-evaluated from the base relations as well), whose entries the
// statement enumerates.
func (c *compiler) enumerableAtDepth0(def *calculus.AggSum, parent string) *calculus.AggSum {
	var terms []calculus.Term
	changed := false
	for _, mono := range calculus.Expand(def.T) {
		atoms := map[string]bool{}
		for _, f := range mono.Factors {
			if r, ok := f.(*calculus.Rel); ok {
				for _, v := range r.Vars {
					atoms[v.Name] = true
				}
			}
		}
		fs := make([]calculus.Term, len(mono.Factors))
		for i, f := range mono.Factors {
			fs[i] = f
			inner, _ := f.(*calculus.AggSum)
			e, exists := f.(*calculus.Exists)
			if exists {
				inner, _ = e.T.(*calculus.AggSum)
			}
			if inner == nil || !calculus.HasRel(inner) || len(calculus.InputVars(inner.T)) > 0 {
				continue
			}
			needs := false
			for _, g := range inner.Group {
				if hasVar(def.Group, g.Name) && !atoms[g.Name] {
					needs = true
				}
			}
			if !needs {
				continue
			}
			m := c.mapFor(parent+"_g", inner.Group, inner, 0)
			var r calculus.Term = &calculus.MapRef{Name: m.Name, Keys: inner.Group, Type: m.Type}
			if exists {
				r = &calculus.Exists{T: r}
			}
			fs[i] = r
			changed = true
		}
		terms = append(terms, calculus.Monomial{Coef: mono.Coef, Factors: fs}.Term(calculus.TypeOf(def.T)))
	}
	if !changed {
		return def
	}
	return &calculus.AggSum{Group: def.Group, T: sumOf(terms)}
}
