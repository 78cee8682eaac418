package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNumberCopies(t *testing.T) {
	// SELECT A, ROW_NUMBER() OVER (ORDER BY A) AS N, SUM(B) OVER () AS S,
	// ROW_NUMBER() OVER (PARTITION BY A) AS M: keys A; values COUNT, N, S, M.
	v := View{
		Name:    "Q",
		Keys:    []Column{{Name: "A", Type: Int}},
		Values:  []Column{{Name: "COUNT", Type: Int}, {Name: "N", Type: Int}, {Name: "S", Type: Int}, {Name: "M", Type: Int}},
		Columns: []OutputColumn{{Name: "A", Key: true}, {Name: "N", Index: 1}, {Name: "S", Index: 2}, {Name: "M", Index: 3}},
		Rows: [][]any{
			{int64(2), int64(3), int64(4), int64(9), int64(1)},
			{int64(1), int64(1), int64(1), int64(9), int64(1)},
			{int64(3), int64(0), int64(7), int64(9), int64(1)}, // no row
		},
	}
	got := NumberCopies(v, []int{1, 3})
	want := View{
		Name:    "Q",
		Keys:    []Column{{Name: "A", Type: Int}, {Name: "N", Type: Int}, {Name: "M", Type: Int}},
		Values:  []Column{{Name: "COUNT", Type: Int}, {Name: "S", Type: Int}},
		Columns: []OutputColumn{{Name: "A", Key: true}, {Name: "N", Key: true, Index: 1}, {Name: "S", Index: 1}, {Name: "M", Key: true, Index: 2}},
		Rows: [][]any{
			{int64(1), int64(1), int64(1), int64(1), int64(9)},
			{int64(2), int64(4), int64(1), int64(1), int64(9)},
			{int64(2), int64(5), int64(2), int64(1), int64(9)},
			{int64(2), int64(6), int64(3), int64(1), int64(9)},
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("NumberCopies (-want +got):\n%s", d)
	}
	// Ordered: N descending, then every column; positions remapped.
	v.Order = []SortKey{{Pos: 2, Desc: true}, {Pos: 0}, {Pos: 3}, {Pos: 4}}
	got = NumberCopies(v, []int{1, 3})
	if d := cmp.Diff([]SortKey{{Pos: 1, Desc: true}, {Pos: 0}, {Pos: 4}, {Pos: 2}}, got.Order); d != "" {
		t.Errorf("Order (-want +got):\n%s", d)
	}
	var ns []any
	for _, r := range got.Rows {
		ns = append(ns, r[1])
	}
	if d := cmp.Diff([]any{int64(6), int64(5), int64(4), int64(1)}, ns); d != "" {
		t.Errorf("ordered rows' N (-want +got):\n%s", d)
	}
	if got := NumberCopies(v, nil); len(got.Rows) != 3 {
		t.Errorf("nothing numbered: the view changed: %v", got.Rows)
	}
}
