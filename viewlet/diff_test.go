package viewlet_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/internal/testmode"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// The differential suite: every query file in testdata/diff is compiled at
// several depths, driven by random insert/delete streams, and after every
// event each view of the interpreter must equal the view SQLite computes from
// scratch on the current base tables (package oracle).
//
// A file may start with comment directives:
//
//	-- KNOWN BUG: <description>   skip the file (a compiler bug to fix)
//	-- diff: depth0               also run at depth 0
//	-- diff: sql                  read the file in dialect sql (SQLite's semantics, unwrapped)
//	-- diff: ints=N               integer domain [0, N) (floats k/4, k < 4N)
//	-- diff: REL.COL=N COL=N      integer domain of one column (of every relation)
//	-- diff: days=N               date range 1994-01-01 + [0, N) days
//	-- diff: words=N              N strings: oracle.DefaultWords, then word015, word016, …
//	-- diff: events=N             stream length (default diffEvents)
//	-- diff: deletes=F            fraction of deletes (default diffDeleteFrac)
//	-- diff: skew=F               INT columns draw 0 with probability F (a heavy value)
//	-- diff: nulls=F              fraction of NULLs in nullable columns (dialect sql;
//	                              default oracle.DefaultNullFrac, 0.2; nulls=0: none)
//
// Several directives may share one "-- diff:" line, separated by spaces.
//
// Two layers (package internal/testmode): by default each file runs its two
// seeds split over the depths (seed 1 unbounded, seed 2 at depth 1, at
// depth 0 seed 1 or 2 by the file's index) as parallel subtests, comparing after each of the first
// diffDense events and then every diffStride-th and after the last; with
// TOASTGEN_SOAK=1 every depth runs both seeds and compares after every event.
//
// The oracle recomputes every view from scratch after every event, so its
// cost is the size of each join. Files whose joins would grow large over a
// 2,000-event stream widen their join-key domains (fewer matches per probe,
// still several per key) and, for inherently quadratic theta joins, raise
// the delete fraction so that the live tables stay small; this keeps
// `go test ./viewlet/` within about a minute and a half on two cores.

const (
	diffEvents      = 2000 // events per stream
	diffShortEvents = 300  // with -short
	diffDeleteFrac  = 0.3
	diffTol         = 1e-9
	diffDense       = 200 // fast layer: compare after each of the first diffDense events,
	diffStride      = 12  // then after every diffStride-th
)

func TestDiff(t *testing.T) {
	paths, err := filepath.Glob("testdata/diff/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no query files in testdata/diff")
	}
	for fi, path := range paths {
		c, err := oracle.ReadCase(path, diffEvents, diffDeleteFrac)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			t.Parallel()
			if c.KnownBug != "" {
				t.Skipf("KNOWN BUG (see %s): %s", path, c.KnownBug)
			}
			f, err := lang.Config{Dialect: c.Dialect}.Parse(path, c.Src)
			if err != nil {
				t.Fatal(err)
			}
			qs, err := calculus.FromSQL(f)
			if err != nil {
				t.Fatal(err)
			}
			depths := []int{viewlet.Unbounded, 1}
			if c.Depth0 {
				depths = append(depths, 0)
			}
			events := c.Events
			if testing.Short() {
				events = min(events, diffShortEvents)
			}
			for di, depth := range depths {
				t.Run(fmt.Sprintf("depth=%d", depth), func(t *testing.T) {
					p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
					if err != nil {
						t.Fatal(err)
					}
					seeds := []int64{1, 2}
					switch {
					case testmode.Soak():
					case depth != 0:
						seeds = seeds[di : di+1]
					default:
						// Depth 0 re-evaluates every view per event,
						// half the fast layer's time with both seeds:
						// one, alternating by file.
						seeds = seeds[fi%2 : fi%2+1]
					}
					for _, seed := range seeds {
						t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
							s := oracle.Generate(f, seed, events, c.DeleteFrac, c.Domain)
							runDiff(t, c.Path, depth, seed, f, p, s, false)
						})
					}
				})
			}
			// A depth per view (as -depth auto chooses them), the views
			// alternating between first-order and full depth, sharing maps,
			// read from a replica of the change stream: every fourth file,
			// every file with TOASTGEN_SOAK.
			if fi%4 == 0 || testmode.Soak() {
				t.Run("depth=mixed", func(t *testing.T) {
					depths := make([]int, len(qs))
					for i := range depths {
						depths[i] = 1 - 2*(i%2)
					}
					p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded, Depths: depths})
					if err != nil {
						t.Fatal(err)
					}
					s := oracle.Generate(f, 3, events, c.DeleteFrac, c.Domain)
					runDiff(t, c.Path, -2, 3, f, p, s, true)
				})
			}
		})
	}
}

// runDiff replays s into the interpreter of p and into the oracle, comparing
// every view after every event; it stops at the first mismatch. With
// changes set, the views compared are not the interpreter's but a replica
// kept from its change stream alone (OnChanges, runtime.Replica).
func runDiff(t *testing.T, path string, depth int, seed int64, f *lang.File, p *viewlet.Program, s oracle.Stream, changes bool) {
	t.Helper()
	db, err := oracle.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	in := viewlet.NewInterp(p)
	var replica *runtime.Replica
	if changes {
		replica = runtime.NewReplica(in.Views())
		in.OnChanges(func(c runtime.Change) {
			if err := replica.Apply(c); err != nil {
				t.Fatal(err)
			}
		})
	}
	// Halfway (at a point that depends on the seed), the interpreter writes
	// a snapshot and a new one restored from it takes over; the one that
	// never stopped runs on beside it, and the two must end with the same
	// views.
	// (The fast layer drops the uninterrupted one after the snapshot: the
	// restored one is compared with SQLite at every check from there on.)
	cut := len(s.Events)/3 + int(seed*7919)%(len(s.Events)/3+1)
	var whole *viewlet.Interp
	var rewind bytes.Buffer // in's snapshot at event cut/2 (changes only)
	// batched gets the events in batches of random sizes, applied with the
	// set-at-a-time policy (Auto for odd seeds) at the checks and between
	// them: its views must be SQLite's too. (In soak, seed 1 only: the
	// fast layer runs seed 2 at depth 1.)
	var batched *viewlet.Interp
	if !testmode.Soak() || seed == 1 {
		batched = viewlet.NewInterp(p)
	}
	policy := runtime.SetAtATime
	if seed%2 == 1 {
		policy = runtime.Auto
	}
	rng := rand.New(rand.NewSource(seed))
	var pending runtime.Batch
	if batched != nil {
		pending = batched.NewBatch()
	}
	flush := func(i int) {
		if batched == nil {
			return
		}
		if err := batched.ApplyBatch(runtime.WithPolicy(pending, policy)); err != nil {
			t.Fatalf("%s depth=%d seed=%d: batch ending at event %d (%s): %v", path, depth, seed, i, policy, err)
		}
		pending = batched.NewBatch()
	}
	nextFlush := rng.Intn(40)
	for i, ev := range s.Events {
		if batched != nil {
			pending.(interface{ AddTuple(string, bool, []any) }).AddTuple(ev.Rel, ev.Insert, ev.Tuple)
		}
		if i >= nextFlush {
			flush(i)
			nextFlush = i + 1 + rng.Intn(80)
		}
		if replica != nil && i == cut/2 {
			if err := in.WriteSnapshot(&rewind); err != nil {
				t.Fatalf("snapshot: %v", err)
			}
		}
		if replica != nil && i == cut && cut/2 < cut {
			// The subscribed interpreter restored in place from its
			// snapshot of event cut/2: the replica follows it back (a
			// restore reports the changes from the views before to the
			// views restored); then the events since, again.
			if _, err := in.RestoreSnapshot(&rewind); err != nil {
				t.Fatalf("restore: %v", err)
			}
			if d := gocmp.Diff(in.Views(), replica.Views(), cmpopts.EquateNaNs()); d != "" {
				t.Fatalf("%s depth=%d seed=%d: after a restore in place, the replica differs (-views +replica):\n%s", path, depth, seed, d)
			}
			for _, e := range s.Events[cut/2 : cut] {
				if err := in.Fire(e.Rel, e.Insert, e.Tuple); err != nil {
					t.Fatalf("%s: event %v again: %v", path, e, err)
				}
			}
		}
		if i == cut {
			in, whole = restored(t, p, in), in
			if replica != nil {
				whole.OnChanges(nil)
				in.OnChanges(func(c runtime.Change) {
					if err := replica.Apply(c); err != nil {
						t.Fatal(err)
					}
				})
			}
			if !testmode.Soak() {
				whole = nil
			}
		}
		if whole != nil {
			if err := whole.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil {
				t.Fatalf("uninterrupted: event %d: %v", i, err)
			}
		}
		if ev.Insert {
			err = db.Insert(ev.Rel, ev.Tuple)
		} else {
			err = db.Delete(ev.Rel, ev.Tuple)
		}
		if err != nil {
			t.Fatalf("oracle: event %d %v: %v", i, ev, err)
		}
		if err := in.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil {
			t.Fatalf("%s depth=%d seed=%d: event %d %v: %v", path, depth, seed, i, ev, err)
		}
		if !testmode.CheckAt(i, len(s.Events), diffDense, diffStride) {
			continue
		}
		got := in.Views()
		if replica != nil {
			got = replica.Views()
		}
		if err := in.Err(); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(f.Queries) {
			t.Fatalf("%s: interpreter has %d views, file has %d queries", path, len(got), len(f.Queries))
		}
		flush(i)
		nextFlush = i + 1 + rng.Intn(80)
		var bv []runtime.View
		if batched != nil {
			bv = batched.Views()
		}
		for j, q := range f.Queries {
			want, err := db.View(q)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if err := oracle.Compare(want, got[j], diffTol); err != nil {
				t.Fatalf("%s depth=%d seed=%d: after event %d %v (restored from a snapshot after event %d: %v):\n%v", path, depth, seed, i, ev, cut-1, whole != nil, err)
			}
			if bv == nil {
				continue
			}
			if err := oracle.Compare(want, bv[j], diffTol); err != nil {
				t.Fatalf("%s depth=%d seed=%d: applied in batches (%s), after event %d %v:\n%v", path, depth, seed, policy, i, ev, err)
			}
		}
	}
	if whole != nil {
		want, got := whole.Views(), in.Views()
		for j := range want {
			if err := oracle.Compare(want[j], got[j], diffTol); err != nil {
				t.Fatalf("%s depth=%d seed=%d: restored from a snapshot after event %d, the views end unlike the uninterrupted run's:\n%v", path, depth, seed, cut-1, err)
			}
		}
	}
}

// restored writes a snapshot of in and returns a new interpreter of p
// restored from it, after checking that it shows the same views.
func restored(t *testing.T, p *viewlet.Program, in *viewlet.Interp) *viewlet.Interp {
	t.Helper()
	var buf bytes.Buffer
	if err := in.WriteSnapshot(&buf); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	out := viewlet.NewInterp(p)
	if _, err := out.RestoreSnapshot(&buf); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if diff := gocmp.Diff(in.Views(), out.Views(), cmpopts.EquateNaNs()); diff != "" {
		t.Fatalf("restored views differ (-snapshotted +restored):\n%s", diff)
	}
	return out
}
