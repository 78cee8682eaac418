package runtime

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// A SortedSet under random inserts and deletes of weighted values reads
// the windows and the shown weights that a sorted slice gives.
func TestSortedSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type item struct{ v, w int64 }
	// Descending, as the model.
	s := NewSortedSet(func(a, b int64) int { return cmp.Compare(b, a) })
	var model []item
	for step := range 30000 {
		v := int64(r.IntN(200))
		i, found := slices.BinarySearchFunc(model, v, func(it item, v int64) int { return cmp.Compare(v, it.v) })
		if found {
			if !s.Delete(v) {
				t.Fatalf("step %d: Delete(%d) = false", step, v)
			}
			model = slices.Delete(model, i, i+1)
		} else {
			w := int64(1 + r.IntN(3))
			s.Insert(v, w)
			model = slices.Insert(model, i, item{v, w})
		}
		if s.Len() != len(model) {
			t.Fatalf("step %d: Len = %d, want %d", step, s.Len(), len(model))
		}
		if step%11 != 0 {
			continue
		}
		off, cnt := int64(r.IntN(40)), int64(r.IntN(40))
		var want []item
		pos := int64(0)
		for _, it := range model {
			lo, hi := max(pos, off), min(pos+it.w, off+cnt)
			if hi > lo {
				want = append(want, item{it.v, hi - lo})
			}
			pos += it.w
		}
		var got []item
		for v, w := range s.Window(off, cnt) {
			got = append(got, item{v, w})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: Window(%d, %d) = %v, want %v", step, off, cnt, got, want)
		}
		for _, it := range want {
			if sh := s.Shown(it.v, off, cnt); sh != it.w {
				t.Fatalf("step %d: Shown(%d) = %d, want %d", step, it.v, sh, it.w)
			}
		}
		if sh := s.Shown(-1, 0, 1<<40); sh != 0 {
			t.Fatalf("step %d: Shown of an absent value = %d", step, sh)
		}
	}
	if s.Delete(1000) {
		t.Fatal("Delete of an absent value = true")
	}
	s.Reset()
	if s.Len() != 0 || s.Total() != 0 {
		t.Fatal("not empty after Reset")
	}
}
