package holistic_test

import (
	"bytes"
	"testing"

	"github.com/toastgen/toastgen/generated/holistic"
	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/runtime"
)

// TestTypedChanges subscribes to view QUERY1's typed changes beside the
// generic stream, applies the example stream and its inverse in batches,
// and checks after each batch that every typed change is the generic one
// as a row — nullable columns included — and that its new row is the one
// Query1Get reads (none for a removed row).
func TestTypedChanges(t *testing.T) {
	e := holistic.New()
	evs, err := gentest.Record(e.Relations(), gentest.RepoRoot)
	if err != nil {
		t.Fatal(err)
	}
	evs = append(evs, gentest.Inverse(evs)...)
	var generic []runtime.Change
	var typed []holistic.Query1Change
	e.OnChanges(func(c runtime.Change) {
		if c.View == "QUERY1" {
			generic = append(generic, c)
		}
	})
	e.OnQuery1Change(func(c holistic.Query1Change) {
		// The rows are the engine's during the call: copied to be kept.
		if c.Old != nil {
			old := *c.Old
			c.Old = &old
		}
		if c.New != nil {
			row := *c.New
			c.New = &row
		}
		typed = append(typed, c)
	})
	seen := 0
	for i := 0; i < len(evs); i += 7 {
		b := e.NewBatch()
		for _, ev := range evs[i:min(i+7, len(evs))] {
			if err := b.Add(ev.Rel, ev.Insert, ev.Fields); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.ApplyBatch(b); err != nil {
			t.Fatal(err)
		}
		if len(typed) != len(generic) {
			t.Fatalf("%d typed changes, %d generic", len(typed), len(generic))
		}
		for j := seen; j < len(typed); j++ {
			c, tc := generic[j], typed[j]
			if (c.Old == nil) != (tc.Old == nil) || (c.New == nil) != (tc.New == nil) {
				t.Fatalf("change %d: typed %+v, generic %+v", j, tc, c)
			}
			broker := c.Key[0].(int64)
			got, ok := e.Query1Get(broker)
			if tc.New == nil {
				if ok {
					t.Fatalf("change %d: broker %d removed, Query1Get finds %+v", j, broker, got)
				}
				continue
			}
			if !ok || got != *tc.New {
				t.Fatalf("change %d: typed new row %+v, Query1Get %+v (%v)", j, *tc.New, got, ok)
			}
		}
		seen = len(typed)
	}
	if seen == 0 {
		t.Fatal("no change reported")
	}
	nulls := 0
	for _, c := range typed {
		if c.New != nil && !c.New.MedianPrice.Valid {
			nulls++
		}
	}
	t.Logf("%d typed changes, %d with a NULL median", len(typed), nulls)
	// Restoring a snapshot keeps the subscribers: the next event's change
	// reaches both.
	var snap bytes.Buffer
	if err := e.WriteSnapshot(&snap); err != nil {
		t.Fatal(err)
	}
	if _, err := e.RestoreSnapshot(&snap); err != nil {
		t.Fatal(err)
	}
	n, m := len(typed), len(generic)
	if err := e.InsertTrades(7, runtime.Some(int64(3)), runtime.Some(2.5)); err != nil {
		t.Fatal(err)
	}
	if len(typed) != n+1 || len(generic) != m+1 || typed[n].New == nil || typed[n].New.Broker != 7 {
		t.Fatalf("after a restore: %d typed and %d generic changes, want one each", len(typed)-n, len(generic)-m)
	}
	e.OnQuery1Change(nil)
	e.OnChanges(nil)
}
