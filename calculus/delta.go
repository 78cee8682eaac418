package calculus

import "fmt"

// Event is a single-tuple update of a base relation: the trigger's relation,
// its argument variables (one per column) and whether it inserts or deletes.
type Event struct {
	Rel    string
	Args   []Var
	Insert bool
}

// Delta returns the change of t caused by ev, unsimplified, following the
// delta rules: sums and products distribute (with the ΔA·ΔB term that
// self-joins need), AggSum commutes with Δ, a matching relation atom becomes
// ±1 with its variables lifted to the trigger arguments, and Lift and Exists
// take the non-linear difference f(t+Δt) − f(t).
func Delta(t Term, ev Event) Term {
	switch x := t.(type) {
	case *Rel:
		if x.Name != ev.Rel {
			return Zero
		}
		fs := make([]Term, len(x.Vars))
		for i, v := range x.Vars {
			fs[i] = &Lift{V: v, T: &Val{E: Ref(ev.Args[i])}}
		}
		var d Term = &Prod{Factors: fs}
		if !ev.Insert {
			d = &Neg{T: d}
		}
		return d
	case *Val, *MapRef:
		return Zero
	case *Sum:
		var ds []Term
		for _, u := range x.Terms {
			if d := Delta(u, ev); !IsZero(d) {
				ds = append(ds, d)
			}
		}
		return mkSum(ds)
	case *Neg:
		d := Delta(x.T, ev)
		if IsZero(d) {
			return Zero
		}
		return &Neg{T: d}
	case *AggSum:
		d := Delta(x.T, ev)
		if IsZero(d) {
			return Zero
		}
		return &AggSum{Group: x.Group, T: d}
	case *Prod:
		// Δ(f1·…·fn) = Σ over non-empty subsets S of the factors with a
		// non-zero delta of Π (Δfi if i ∈ S else fi).
		ds := make([]Term, len(x.Factors))
		var changing []int
		for i, f := range x.Factors {
			ds[i] = Delta(f, ev)
			if !IsZero(ds[i]) {
				changing = append(changing, i)
			}
		}
		if len(changing) > MaxChangingFactors {
			panic(&DeltaTooLargeError{Rel: ev.Rel, Factors: len(changing)})
		}
		var terms []Term
		for mask := 1; mask < 1<<len(changing); mask++ {
			fs := append([]Term{}, x.Factors...)
			for j, i := range changing {
				if mask&(1<<j) != 0 {
					fs[i] = ds[i]
				}
			}
			terms = append(terms, &Prod{Factors: fs})
		}
		return mkSum(terms)
	case *Lift:
		d := Delta(x.T, ev)
		if IsZero(d) {
			return Zero
		}
		return &Sum{Terms: []Term{
			&Lift{V: x.V, T: &Sum{Terms: []Term{x.T, d}}},
			&Neg{T: &Lift{V: x.V, T: x.T}},
		}}
	case *Extreme:
		d := Delta(x.T, ev)
		if IsZero(d) {
			return Zero
		}
		return &Sum{Terms: []Term{
			&Extreme{Max: x.Max, Arg: x.Arg, T: &Sum{Terms: []Term{x.T, d}}, Hol: x.Hol},
			&Neg{T: x},
		}}
	case *Exists:
		d := Delta(x.T, ev)
		if IsZero(d) {
			return Zero
		}
		return &Sum{Terms: []Term{
			&Exists{T: &Sum{Terms: []Term{x.T, d}}},
			&Neg{T: &Exists{T: x.T}},
		}}
	}
	panic("calculus.Delta: unknown term")
}

func mkSum(ts []Term) Term {
	switch len(ts) {
	case 0:
		return Zero
	case 1:
		return ts[0]
	}
	return &Sum{Terms: ts}
}

// MaxChangingFactors bounds the factors of a product that one event may
// change: Delta expands the product into a monomial for every non-empty
// subset of them (2^n − 1). Independent groups of a join are aggregated
// apart (factor.go), so only a relation repeated many times within one
// connected join, or within a view keyed by several groups, reaches it.
const MaxChangingFactors = 16

// DeltaTooLargeError is the panic of Delta for a product with more than
// MaxChangingFactors factors that the event changes; viewlet.Compile
// returns it as its error.
type DeltaTooLargeError struct {
	Rel     string
	Factors int
}

func (e *DeltaTooLargeError) Error() string {
	return fmt.Sprintf("the delta of an event on %s would have 2^%d - 1 terms: %s occurs %d times in one join whose tables are connected or are all read by the view (at most %d are supported)", e.Rel, e.Factors, e.Rel, e.Factors, MaxChangingFactors)
}
