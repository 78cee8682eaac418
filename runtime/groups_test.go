package runtime

import (
	"math/rand/v2"
	"testing"
)

// TestGroupRoots checks the group table against a map: groups created,
// emptied (their slots reused by others) and found again in random order,
// so that the remembered last group never outlives its slot.
func TestGroupRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var r groupRoots[int]
	model := map[int]int32{}
	for step := range 20000 {
		g := rng.IntN(6)
		switch rng.IntN(4) {
		case 0: // grow
			r.slot(g).n++
			model[g]++
		case 1: // shrink, maybe to empty
			if model[g] > 0 {
				r.slot(g).n--
				r.settle(g)
				if model[g]--; model[g] == 0 {
					delete(model, g)
				}
			}
		case 2:
			if rng.IntN(200) == 0 {
				r.reset()
				clear(model)
			}
		}
		for h := range 6 {
			if got := r.size(h); got != model[h] {
				t.Fatalf("step %d: group %d has %d, want %d", step, h, got, model[h])
			}
		}
		if r.len() != len(model) {
			t.Fatalf("step %d: %d groups, want %d", step, r.len(), len(model))
		}
	}
}
