package leaderboard_test

import (
	"errors"
	"math"
	"testing"

	"github.com/toastgen/toastgen/generated/leaderboard"
	"github.com/toastgen/toastgen/runtime"
)

// TestTypedBatch: the typed batch methods (Insert, Delete, Update), one
// change per row per batch, and consolidation before any trigger runs: a
// tuple inserted and deleted in a batch whose insert alone would overflow
// an INT sum fires nothing, while the same batch applied in order stops
// at that insert.
func TestTypedBatch(t *testing.T) {
	e := leaderboard.New()
	var changes []runtime.Change
	e.OnChanges(func(c runtime.Change) {
		if c.View == "Leaders" {
			changes = append(changes, c)
		}
	})
	var b leaderboard.Batch
	b.InsertR(1, 10)
	b.InsertR(2, 20)
	b.UpdateR(1, 10, 1, 30) // a delete of (1, 10) and an insert of (1, 30)
	b.InsertR(3, 5)
	b.UpdateR(3, 5, 3, 7)
	b.UpdateR(3, 7, 3, 9)
	if b.Len() != 9 {
		t.Fatalf("Len() = %d, want 9 events", b.Len())
	}
	if err := e.ApplyBatch(&b); err != nil {
		t.Fatal(err)
	}
	want := []leaderboard.LeadersRow{{A: 1, Total: 30, Place: 1}, {A: 2, Total: 20, Place: 2}, {A: 3, Total: 9, Place: 3}}
	if got := e.Leaders(); !equalRows(got, want) {
		t.Fatalf("Leaders() = %v, want %v", got, want)
	}
	// Three players appeared: three changes, each with its final row.
	if len(changes) != 3 {
		t.Fatalf("%d changes of Leaders, want 3 (one per row): %v", len(changes), changes)
	}
	for _, c := range changes {
		if c.Old != nil {
			t.Errorf("change %v: a new row has no old values", c)
		}
	}

	overflow := func(b *leaderboard.Batch) {
		b.InsertR(4, 1)
		b.InsertR(4, math.MaxInt64) // 1 + MaxInt64 overflows player 4's total
		b.DeleteR(4, math.MaxInt64)
	}
	var c leaderboard.Batch
	overflow(&c)
	changes = nil
	if err := e.ApplyBatch(&c); err != nil {
		t.Fatalf("consolidated: %v (the inserted and deleted tuple must fire nothing)", err)
	}
	if r, ok := e.LeadersGet(4); !ok || r.Total != 1 {
		t.Fatalf("player 4: %v, %v; want a total of 1", r, ok)
	}
	if len(changes) != 1 || changes[0].Old != nil {
		t.Fatalf("changes %v, want player 4 appearing", changes)
	}
	var d leaderboard.Batch
	overflow(&d)
	d.InOrder()
	err := e.ApplyBatch(&d)
	var ee *runtime.EventError
	if !errors.As(err, &ee) || !errors.Is(err, runtime.ErrOverflow) {
		t.Fatalf("in order: %v, want the overflow of the second event", err)
	}
	// The first event applied, the second undone, the third not run.
	if r, _ := e.LeadersGet(4); r.Total != 2 {
		t.Fatalf("player 4 after the batch in order: %v, want a total of 2", r)
	}
}

func equalRows(a, b []leaderboard.LeadersRow) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[leaderboard.LeadersRow]bool{}
	for _, r := range a {
		m[r] = true
	}
	for _, r := range b {
		if !m[r] {
			return false
		}
	}
	return true
}
