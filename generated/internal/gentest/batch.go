package gentest

import (
	"math/rand/v2"
	"testing"

	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// CheckBatches applies the example data of the package, then its inverse,
// in batches of random sizes (1 to 64 events) into which random events are
// slipped together with their inverses (a tuple inserted and deleted in
// one batch, in either order, sometimes twice): after every batch the
// views must equal those of an engine given the same events one by one
// (Apply), under each policy (runtime.Policy). Batches that touch several relations at once include the
// joins' both sides; consolidated batches fire each tuple's net events.
func CheckBatches(t *testing.T, newEngine func() runtime.Engine) {
	t.Helper()
	for _, p := range []runtime.Policy{runtime.Auto, runtime.Incremental, runtime.SetAtATime} {
		t.Run(p.String(), func(t *testing.T) { checkBatches(t, newEngine, p) })
	}
}

func checkBatches(t *testing.T, newEngine func() runtime.Engine, policy runtime.Policy) {
	t.Helper()
	e := newEngine()
	evs := RoundTrip(t, e)
	rng := rand.New(rand.NewPCG(7, uint64(len(evs))))
	one := newEngine()
	apply := func(x runtime.Engine, ev Event) {
		if err := x.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
			t.Fatal(err)
		}
	}
	batches := 0
	for i := 0; i < len(evs); {
		n := 1 + rng.IntN(64)
		b := e.NewBatch()
		var in []Event
		for _, ev := range evs[i:min(i+n, len(evs))] {
			in = append(in, ev)
			if rng.IntN(4) == 0 {
				// A random event and its inverse, around this one.
				x := evs[rng.IntN(len(evs))]
				inv := x
				inv.Insert = !x.Insert
				for range 1 + rng.IntN(2) {
					in = append(in, x, inv)
				}
				if rng.IntN(2) == 0 {
					in[len(in)-1], in[len(in)-2] = in[len(in)-2], in[len(in)-1]
				}
			}
		}
		for _, ev := range in {
			if err := b.Add(ev.Rel, ev.Insert, ev.Fields); err != nil {
				t.Fatal(err)
			}
			apply(one, ev)
		}
		if err := e.ApplyBatch(runtime.WithPolicy(b, policy)); err != nil {
			t.Fatalf("batch %d: %v", batches, err)
		}
		batches++
		if err := CompareViews(one.Views(), e.Views()); err != nil {
			t.Fatalf("after batch %d (events %d to %d and %d slipped in): batched and one-by-one views differ: %v", batches, i, min(i+n, len(evs)), len(in)-min(n, len(evs)-i), err)
		}
		i += n
	}
}

// CheckAbsentDeletes applies the inverse of the example data to an empty
// engine — deletes of absent tuples first: negative multiplicities, as
// Z-sets allow — beside the interpreter, comparing their views every 10
// events, then the data itself, which must bring every view back to an
// empty engine's: a delete of an absent tuple is undone exactly by its
// insert, in every view kind.
func CheckAbsentDeletes(t *testing.T, newEngine func() runtime.Engine) {
	t.Helper()
	e := newEngine()
	evs, err := Record(e.Relations(), RepoRoot)
	if err != nil {
		t.Fatal(err)
	}
	_, p := Compile(t)
	in, err := WithRelations(viewlet.NewInterp(p), e.Relations())
	if err != nil {
		t.Fatal(err)
	}
	if err := Lockstep([]Named{{"interpreter", in}, {"generated", e}}, Inverse(evs), 10); err != nil {
		t.Fatalf("deletes of absent tuples: %v", err)
	}
	if err := Lockstep([]Named{{"interpreter", in}, {"generated", e}}, evs, 10); err != nil {
		t.Fatalf("inserts back: %v", err)
	}
	if err := CompareViews(newEngine().Views(), e.Views()); err != nil {
		t.Fatalf("after deletes of absent tuples and their inserts, the views are not an empty engine's: %v", err)
	}
}

// CheckLazy feeds the example data and its inverse to a runtime.Lazy
// engine and, event by event, to an eager one: the Lazy's events wait
// (its engine's views do not change) until its views are read, at random
// points, when they must equal the eager engine's, under each policy.
func CheckLazy(t *testing.T, newEngine func() runtime.Engine) {
	t.Helper()
	evs := RoundTrip(t, newEngine())
	for _, p := range []runtime.Policy{runtime.Auto, runtime.Incremental, runtime.SetAtATime} {
		t.Run(p.String(), func(t *testing.T) {
			eager, inner := newEngine(), newEngine()
			lazy := runtime.NewLazy(inner)
			lazy.Policy = p
			rng := rand.New(rand.NewPCG(11, uint64(p)))
			before := inner.Views()
			for i, ev := range evs {
				if err := eager.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
					t.Fatal(err)
				}
				if err := lazy.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
					t.Fatal(err)
				}
				if rng.IntN(25) != 0 && i != len(evs)-1 {
					continue
				}
				if err := CompareViews(before, inner.Views()); err != nil {
					t.Fatalf("after event %d: the deferred events changed the views before a read: %v", i, err)
				}
				got := lazy.Views()
				if err := lazy.Err(); err != nil {
					t.Fatal(err)
				}
				if lazy.Pending() != 0 {
					t.Fatalf("after event %d: %d events pending after Views", i, lazy.Pending())
				}
				if err := CompareViews(eager.Views(), got); err != nil {
					t.Fatalf("after event %d: lazy and eager views differ: %v", i, err)
				}
				before = got
			}
		})
	}
}
