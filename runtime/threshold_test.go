package runtime

import (
	"math/rand/v2"
	"testing"
)

// TestThreshold checks Threshold and SumRay against brute force: for
// random maps of non-negative values over keys 0…40 and random monotone
// conditions on F(k), every kind of F, the sum over a second map of the
// keys k (in a finer grid, between and beyond the first map's keys) where
// the condition holds.
func TestThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	for iter := range 3000 {
		var m2, m3 RangeSum[float64, int64]
		vals := map[float64]int64{}
		for range rng.IntN(8) {
			k := float64(rng.IntN(40))
			v := int64(rng.IntN(5))
			m2.Add(k, v)
			vals[k] += v
		}
		keys3 := map[float64]int64{}
		for range 1 + rng.IntN(30) {
			k := float64(rng.IntN(85))/2 - 1 // halves, beyond both ends
			v := int64(1 + rng.IntN(9))
			m3.Add(k, v)
			keys3[k] += v
		}
		F := func(k float64, above, incl bool) int64 {
			var s int64
			for p, v := range vals {
				if above && (p > k || incl && p == k) || !above && (p < k || incl && p == k) {
					s += v
				}
			}
			return s
		}
		c := int64(rng.IntN(15))
		for _, above := range []bool{true, false} {
			for _, incl := range []bool{true, false} {
				for _, less := range []bool{true, false} {
					pred := func(f int64) bool { return f > c }
					if less {
						pred = func(f int64) bool { return f <= c }
					}
					ray := m2.Threshold(above, incl, pred)
					if rb := m2.ThresholdBound(above, incl, SumBound[int64]{C: c, Below: less, Incl: less}); rb != ray {
						t.Fatalf("iter %d: ThresholdBound = %+v, Threshold %+v", iter, rb, ray)
					}
					got := m3.SumRay(ray)
					var want int64
					for k, v := range keys3 {
						if pred(F(k, above, incl)) {
							want += v
						}
					}
					if got != want {
						t.Fatalf("iter %d: above=%v incl=%v less=%v c=%d m2=%v: %+v sums %d, want %d", iter, above, incl, less, c, vals, ray, got, want)
					}
				}
			}
		}
	}
}
