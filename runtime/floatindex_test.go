package runtime

import (
	"math"
	"testing"
)

// TestFloatIndex checks that a FloatIndex finds keys as a map[float64]
// does: −0 is 0, and that All yields the keys (−0 as 0) with their
// positions.
func TestFloatIndex(t *testing.T) {
	x := FloatIndex{}
	negZero := math.Copysign(0, -1)
	x.Set(negZero, 1)
	x.Set(2.5, 2)
	x.Set(-1e300, 3)
	for _, c := range []struct {
		k    float64
		i    int32
		have bool
	}{{0, 1, true}, {negZero, 1, true}, {2.5, 2, true}, {-1e300, 3, true}, {1e300, 0, false}, {2.5000000000000004, 0, false}} {
		if i, ok := x.Get(c.k); ok != c.have || i != c.i {
			t.Errorf("Get(%v) = %d, %v; want %d, %v", c.k, i, ok, c.i, c.have)
		}
	}
	got := map[float64]int32{}
	for k, i := range x.All() {
		if k == 0 && math.Signbit(k) {
			t.Errorf("All yields −0")
		}
		got[k] = i
	}
	if len(got) != 3 || got[0] != 1 || got[2.5] != 2 || got[-1e300] != 3 {
		t.Errorf("All yields %v", got)
	}
	x.Delete(0)
	if _, ok := x.Get(negZero); ok || len(x) != 2 {
		t.Errorf("Delete(0) left −0 (%d keys)", len(x))
	}
	for range x.All() {
		break // an early stop ends the loop
	}
}
