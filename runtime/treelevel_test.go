package runtime

import (
	"math/rand"
	"slices"
	"testing"
)

// TestTreeLevelRandom checks a TreeLevel against a map model after every
// step of random sets (rows to and from zero, groups that empty and come
// back).
func TestTreeLevelRandom(t *testing.T) {
	for _, universe := range []int{2, 5, 40} {
		r := rand.New(rand.NewSource(int64(universe)))
		var l TreeLevel[int, int]
		model := map[[2]int]int64{}
		for step := range 5000 {
			p, k := r.Intn(universe/2+1), r.Intn(universe)
			rows := int64(r.Intn(3))
			if r.Intn(4) == 0 {
				rows = 0
			}
			prev := model[[2]int{p, k}]
			changed := l.Set(p, k, rows)
			if rows == 0 {
				delete(model, [2]int{p, k})
			} else {
				model[[2]int{p, k}] = rows
			}
			if changed != (prev != rows) {
				t.Fatalf("step %d: Set(%d, %d, %d) over %d reported change %v", step, p, k, rows, prev, changed)
			}
			for q := range universe/2 + 1 {
				if got, want := l.Total(q), total(model, q); got != want {
					t.Fatalf("step %d: Total(%d) = %d, want %d", step, q, got, want)
				}
				var got, want []int
				for k := range l.Each(q) {
					got = append(got, k)
					if l.Rows(q, k) == 0 {
						t.Fatalf("step %d: Each(%d) lists %d without rows", step, q, k)
					}
				}
				for pk := range model {
					if pk[0] == q {
						want = append(want, pk[1])
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: Each(%d) = %v, want %v", step, q, got, want)
				}
			}
			if l.Len() != len(model) {
				t.Fatalf("step %d: Len = %d, want %d", step, l.Len(), len(model))
			}
		}
	}
}

func total(model map[[2]int]int64, p int) int64 {
	var s int64
	for pk, n := range model {
		if pk[0] == p {
			s += n
		}
	}
	return s
}
