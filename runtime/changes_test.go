package runtime

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDiffViews checks the changes between two snapshots of a view — new,
// removed, changed and unchanged rows, NULL keys, NaN values, a row that
// moves in an ordered view — and that a Replica fed them reaches the
// second snapshot.
func TestDiffViews(t *testing.T) {
	cols := []Column{{Name: "K", Type: Int}}
	vals := []Column{{Name: "V", Type: Float}}
	nan := math.NaN()
	old := []View{{Name: "Q", Keys: cols, Values: vals, Rows: [][]any{
		{nil, 1.0}, {int64(1), 2.0}, {int64(2), nan}, {int64(3), 4.0}, {int64(4), 5.0},
	}}}
	now := []View{{Name: "Q", Keys: cols, Values: vals, Rows: [][]any{
		{nil, 1.5}, {int64(2), nan}, {int64(3), 4.0}, {int64(4), 6.0}, {int64(5), 7.0},
	}}}
	var got []Change
	DiffViews(old, now, func(c Change) { got = append(got, c) })
	want := []Change{
		{View: "Q", Key: []any{nil}, Old: []any{1.0}, New: []any{1.5}},
		{View: "Q", Key: []any{int64(4)}, Old: []any{5.0}, New: []any{6.0}},
		{View: "Q", Key: []any{int64(5)}, New: []any{7.0}},
		{View: "Q", Key: []any{int64(1)}, Old: []any{2.0}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("changes (-want +got):\n%s", d)
	}
	r := NewReplica(old)
	for _, c := range got {
		if err := r.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	if d := cmp.Diff(now, r.Views(), cmp.Comparer(func(a, b float64) bool { return a == b || a != a && b != b })); d != "" {
		t.Fatalf("replica (-want +got):\n%s", d)
	}
	if err := r.Apply(Change{View: "X"}); err == nil {
		t.Error("a change of an unknown view: no error")
	}
	// An ordered view: the replica lists its rows in the view's order.
	ord := []View{{Name: "O", Keys: cols, Values: vals, Order: []SortKey{{Pos: 1, Desc: true}, {Pos: 0}}}}
	r = NewReplica(ord)
	for _, c := range []Change{{View: "O", Key: []any{int64(1)}, New: []any{1.0}}, {View: "O", Key: []any{int64(2)}, New: []any{3.0}}} {
		r.Apply(c)
	}
	if rows := r.Views()[0].Rows; rows[0][0] != int64(2) {
		t.Errorf("ordered replica: %v", rows)
	}
}
