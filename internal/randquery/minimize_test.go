package randquery

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// TestMinimize shrinks the interpreter failure of seed TOASTGEN_RANDQ_MIN:
// first the query, by switching off one used feature at a time and keeping
// the shortest query (of this or TOASTGEN_RANDQ_MIN_TRIES other seeds) that
// uses no feature the current one does not and fails with the same symptom; then the events, dropping each event (an
// insert with the delete of its tuple) while the failure stays. It prints
// the query and the data rows as /work/repro/mk.sh takes them (seq|op|c1|c2
// per stream).
func TestMinimize(t *testing.T) {
	seed, err := strconv.ParseInt(os.Getenv("TOASTGEN_RANDQ_MIN"), 10, 64)
	if err != nil {
		t.Skip("set TOASTGEN_RANDQ_MIN=seed")
	}
	tries := env("TOASTGEN_RANDQ_MIN_TRIES", 10)
	cfg := config()
	q := New(seed, cfg)
	r := runInterp(q, streamEvents)
	if r.class != failed {
		t.Fatalf("seed %d: %s %s", seed, r.class, r.symptom)
	}
	sym := r.symptom
	t.Logf("seed %d: %s (%d bytes)", seed, sym, len(q.Select))
	for improved := true; improved; {
		improved = false
		for _, f := range q.Used {
			c := cfg.Without(f)
			for k := range tries + 1 {
				s := q.Seed
				if k > 0 {
					s = 100000 + int64(k)*7919 + q.Seed
				}
				cq := New(s, c)
				if len(cq.Select) >= len(q.Select) || !subset(cq.Used, q.Used) {
					continue
				}
				if cr := runInterp(cq, streamEvents); cr.class == failed && cr.symptom == sym {
					q, r, cfg, improved = cq, cr, c, true
					t.Logf("without %s (seed %d): %d bytes", f, s, len(q.Select))
					break
				}
			}
		}
	}
	// Events: the prefix up to the failure, then drop events one by one.
	f, progs, cr := compile(q, []int{viewlet.Unbounded, 1})
	if cr != nil {
		t.Fatalf("recompiling: %s", cr.symptom)
	}
	evs := stream(q, f, streamEvents).Events
	if r.event >= 0 {
		evs = evs[:r.event+1]
	}
	fails := func(evs []oracle.Event) bool {
		rr := runEvents(q, f, progs, evs, 0)
		return rr.class == failed && rr.symptom == sym
	}
	for changed := true; changed; {
		changed = false
		for i := len(evs) - 1; i >= 0; i-- {
			cand := drop(evs, i)
			if cand != nil && fails(cand) {
				evs, changed = cand, true
				if i > len(evs) {
					i = len(evs)
				}
			}
		}
	}
	final := runEvents(q, f, progs, evs, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "minimized: seed %d, features %v\n%s\n%s\n", q.Seed, q.Used, final.symptom, final.detail)
	fmt.Fprintf(&b, "-- query --\n%s-- rows (mk.sh: seq|op|c1|c2) --\n", q.Text)
	for _, rel := range q.Rels {
		var rows []string
		for i, ev := range evs {
			if ev.Rel != rel {
				continue
			}
			op := 0
			if ev.Insert {
				op = 1
			}
			rows = append(rows, fmt.Sprintf("%d|%d|%d|%d", i+1, op, ev.Tuple[0], ev.Tuple[1]))
		}
		fmt.Fprintf(&b, "%s: %s\n", strings.ToLower(rel), strings.Join(rows, " "))
	}
	t.Log(b.String())
}

// drop removes event i from evs, and, for an insert, the first later delete
// of the same tuple; nil if that leaves a delete of an absent tuple.
func drop(evs []oracle.Event, i int) []oracle.Event {
	out := slices.Clone(evs[:i])
	rest := evs[i+1:]
	if evs[i].Insert {
		for j, e := range rest {
			if !e.Insert && e.Rel == evs[i].Rel && slices.Equal(e.Tuple, evs[i].Tuple) {
				rest = append(slices.Clone(rest[:j]), rest[j+1:]...)
				break
			}
		}
	}
	out = append(out, rest...)
	if len(out) == 0 {
		return nil
	}
	// Check that deletes remove present tuples.
	live := map[string]int{}
	for _, e := range out {
		k := e.String()[1:]
		if e.Insert {
			live[k]++
		} else if live[k]--; live[k] < 0 {
			return nil
		}
	}
	return out
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
