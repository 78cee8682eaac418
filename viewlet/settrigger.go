package viewlet

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Set-at-a-time triggers. A batch of events of one relation R can be
// applied as one delta instead of event by event: ΔR, the batch as a
// Z-set, is a finite map from tuples to multiplicities, and each
// statement M[K] += Σ coef·E·Rest of R's triggers, where E are the
// factors that read only the event's columns (its conditions and values)
// and Rest the others (map reads and loops, conditions over their keys),
// adds up over the batch to
//
//	M[K] += Σ_V Δ[V] · Rest(V),   Δ[V] = Σ_{events with columns V} coef·E
//
// with V the event columns that Rest and K read. Δ is the batch
// pre-aggregated by V: TPC-H Q1's sums per (returnflag, linestatus) become
// four additions per batch, Q3's lineitems one read of their order's
// entry per order key. A SetTrigger holds this form of R's triggers:
// Collect statements add each event's E to the Δ maps (one per distinct
// target, keys, Rest and V: an insert and a delete with the same Rest share
// it, their coefficients of opposite signs), and Apply, run once per
// batch with no arguments, loops over the Δ maps and runs the statements'
// Rest for each of their entries.
//
// The sum telescopes only when every statement reads the maps as they were
// before the batch, so R's triggers qualify when none of their statements
// reads a map they write (no self-join), reads a base relation, replaces
// (:=) or runs after the others, and they feed no kernel or factorized
// view (setTriggers): the others are applied event by event. The maps are
// functions of the base relations, so applying a batch relation by
// relation gives the state its events give one by one (static tables,
// which the triggers assume loaded before any stream event, first).
// Δ maps are no state: they are empty between batches, and snapshots and
// fingerprints leave them out.

// SetTrigger is the set-at-a-time form of the triggers of one relation.
type SetTrigger struct {
	Rel string
	// Deltas are the batch pre-aggregated, keyed by event columns; Def
	// names the batch's delta relation DELTA_<Rel>.
	Deltas []*Map
	// Collect, per event of the batch ([0] inserts, [1] deletes; nil when
	// that trigger has no statements), adds to the Delta maps.
	Collect [2]*Trigger
	// Apply runs once per batch: each statement reads one Delta map (its
	// first factor) and the maps its Rest reads, as they were before the
	// batch. Its Event has no arguments.
	Apply *Trigger
}

// setTriggers returns the set-at-a-time triggers of the relations whose
// triggers qualify (see above), in the order of p.Relations.
func setTriggers(p *Program) []*SetTrigger {
	var out []*SetTrigger
	for _, r := range p.Relations {
		if st := setTrigger(p, r); st != nil {
			out = append(out, st)
		}
	}
	return out
}

func setTrigger(p *Program, r *lang.Relation) *SetTrigger {
	var ts [2]*Trigger
	for _, t := range p.Triggers {
		if t.Event.Rel == r.Name && len(t.Stmts) > 0 {
			if t.Event.Insert {
				ts[0] = t
			} else {
				ts[1] = t
			}
		}
	}
	if ts[0] == nil && ts[1] == nil {
		return nil
	}
	written := map[string]bool{}
	for _, t := range ts {
		if t == nil {
			continue
		}
		if len(t.Touches) > 0 || len(t.Syncs) > 0 {
			return nil
		}
		for _, s := range t.Stmts {
			if s.Replace || s.After || s.Buffered || s.Map.Kernel != nil {
				return nil
			}
			written[s.Map.Name] = true
		}
	}
	for _, t := range ts {
		if t == nil {
			continue
		}
		for _, s := range t.Stmts {
			for _, n := range s.Reads() {
				if written[n] {
					return nil
				}
			}
			for _, m := range s.RHS {
				for _, f := range m.Factors {
					base := false
					calculus.Walk(f, func(u calculus.Term) {
						if _, ok := u.(*calculus.Rel); ok {
							base = true
						}
					})
					if base {
						return nil
					}
				}
			}
		}
	}
	st := &SetTrigger{Rel: r.Name, Apply: &Trigger{Event: calculus.Event{Rel: r.Name, Insert: true}}}
	// Each Delta is made for one group of a statement's monomials (same
	// target, keys, V and Rest); adds[d] are what each trigger adds to it.
	type delta struct {
		d    *Map
		adds [2][]calculus.Monomial
	}
	var ds []*delta
	var reads []*delta // the Delta each Apply statement reads
	bySig := map[string]*delta{}
	for i, t := range ts {
		if t == nil {
			continue
		}
		args := map[string]bool{}
		for _, a := range t.Event.Args {
			args[a.Name] = true
		}
		for _, s := range t.Stmts {
			// The statement's monomials grouped by their Rest: each group
			// adds Σ coef·E to one Delta.
			type group struct {
				sig  string
				keys []calculus.Var
				rest []calculus.Term
				es   []calculus.Monomial
			}
			var groups []*group
			byRest := map[string]*group{}
			for _, mono := range s.RHS {
				var ev, rest []calculus.Term
				for _, f := range mono.Factors {
					if eventOnly(f, args) {
						ev = append(ev, f)
					} else {
						rest = append(rest, f)
					}
				}
				// V: the event columns that the rest or the target's keys read.
				var reads []calculus.Var
				for _, f := range rest {
					reads = append(reads, calculus.Vars(f)...)
				}
				reads = append(reads, s.Keys...)
				var keys []calculus.Var
				for _, a := range t.Event.Args {
					if hasVarNamed(reads, a.Name) {
						keys = append(keys, a)
					}
				}
				sig := fmt.Sprintf("%s[%s] %s | %s", s.Map.Name, varList(s.Keys), varList(keys), calculus.String(&calculus.Prod{Factors: rest}))
				g := byRest[sig]
				if g == nil {
					g = &group{sig: sig, keys: keys, rest: rest}
					byRest[sig] = g
					groups = append(groups, g)
				}
				g.es = append(g.es, calculus.Monomial{Coef: mono.Coef, Factors: ev})
			}
			for _, g := range groups {
				if x := bySig[g.sig]; x != nil && i == 1 && x.adds[1] == nil &&
					monosString(g.es, s.Map.Type, -1) == monosString(x.adds[0], s.Map.Type, 1) {
					// The delete adds the negation of what the insert adds:
					// the same Delta.
					x.adds[1] = g.es
					continue
				}
				x := &delta{d: &Map{Name: fmt.Sprintf("DELTA_%s_%d", r.Name, len(ds)+1), Keys: g.keys, Type: s.Map.Type}}
				x.adds[i] = g.es
				ds = append(ds, x)
				if i == 0 {
					bySig[g.sig] = x
				}
				reads = append(reads, x)
				st.Apply.Stmts = append(st.Apply.Stmts, &Stmt{Map: s.Map, Keys: s.Keys,
					RHS: []calculus.Monomial{{Coef: 1, Factors: append([]calculus.Term{nil}, g.rest...)}}})
			}
		}
	}
	// Deltas that both triggers add the same to are one (Q3's ORDERS
	// events add the same count to the Deltas of eight statements).
	same := map[string]*Map{}
	final := map[*delta]*Map{}
	for _, x := range ds {
		sig := fmt.Sprintf("%s %s [%s] %s | %s", x.d.Type, typedVarList(x.d.Keys), varList(x.d.Keys), monosString(x.adds[0], x.d.Type, 1), monosString(x.adds[1], x.d.Type, 1))
		if d := same[sig]; d != nil {
			final[x] = d
			continue
		}
		same[sig], final[x] = x.d, x.d
		x.d.Name = fmt.Sprintf("DELTA_%s_%d", r.Name, len(st.Deltas)+1)
		st.Deltas = append(st.Deltas, x.d)
		for i, t := range ts {
			if t == nil || x.adds[i] == nil {
				continue
			}
			if st.Collect[i] == nil {
				st.Collect[i] = &Trigger{Event: t.Event}
			}
			st.Collect[i].Stmts = append(st.Collect[i].Stmts, &Stmt{Map: x.d, Keys: x.d.Keys, RHS: x.adds[i]})
			if x.d.Def == nil {
				x.d.Def = &calculus.AggSum{Group: x.d.Keys, T: &calculus.Prod{Factors: []calculus.Term{
					&calculus.Rel{Name: "DELTA_" + r.Name, Vars: t.Event.Args}, monosTerm(x.adds[i], x.d.Type)}}}
			}
		}
	}
	for i, s := range st.Apply.Stmts {
		d := final[reads[i]]
		s.RHS[0].Factors[0] = &calculus.MapRef{Name: d.Name, Keys: d.Keys, Type: d.Type}
	}
	return st
}

// monosString prints the sum of es times sign.
func monosString(es []calculus.Monomial, typ lang.Type, sign float64) string {
	parts := make([]string, len(es))
	for i, m := range es {
		parts[i] = calculus.String(calculus.Monomial{Coef: sign * m.Coef, Factors: m.Factors}.Term(typ))
	}
	return strings.Join(parts, " + ")
}

func monosTerm(es []calculus.Monomial, typ lang.Type) calculus.Term {
	if len(es) == 1 {
		return es[0].Term(typ)
	}
	terms := make([]calculus.Term, len(es))
	for i, m := range es {
		terms[i] = m.Term(typ)
	}
	return &calculus.Sum{Terms: terms}
}

// eventOnly reports whether factor f is a value or condition over the
// event's columns (args) only: no map, no lifted variable.
func eventOnly(f calculus.Term, args map[string]bool) bool {
	v, ok := f.(*calculus.Val)
	if !ok {
		return false
	}
	pure := true
	calculus.WalkExpr(v.E, func(x lang.Expr) {
		switch x := x.(type) {
		case *calculus.VarRef:
			if !args[x.V.Name] {
				pure = false
			}
		case *calculus.AggRef, *calculus.RangeRef, *calculus.ExtremeRef:
			pure = false
		default:
			if strings.HasPrefix(fmt.Sprintf("%T", x), "*calculus.") {
				pure = false
			}
		}
	})
	return pure
}

func hasVarNamed(vs []calculus.Var, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// SetTrigger returns the set-at-a-time form of relation rel's triggers,
// nil when they do not have one (see setTriggers).
func (p *Program) SetTrigger(rel string) *SetTrigger {
	for _, st := range p.SetTriggers {
		if st.Rel == rel {
			return st
		}
	}
	return nil
}

// setTriggerString prints a SetTrigger as m3 does.
func setTriggerString(b *strings.Builder, st *SetTrigger) {
	fmt.Fprintf(b, "\nON BATCH OF %s:\n", st.Rel)
	for _, d := range st.Deltas {
		fmt.Fprintf(b, "  DELTA %s[%s] : %s\n", d.Name, typedVarList(d.Keys), strings.ToLower(d.Type.String()))
	}
	for _, t := range st.Collect {
		if t == nil {
			continue
		}
		fmt.Fprintf(b, "  EACH %s:\n", EventString(t.Event))
		for _, s := range t.Stmts {
			fmt.Fprintf(b, "    %s\n", s)
		}
	}
	b.WriteString("  THEN:\n")
	for _, s := range st.Apply.Stmts {
		fmt.Fprintf(b, "    %s\n", s)
	}
}
