package runtime

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkPairVWAP is VWAP's index work per event over n distinct prices:
// set a price's volume and price × volume, then read the sum of price ×
// volume over the prices whose higher-priced volume is below a quarter of
// the total (ThresholdSum2 by a pred function, ThresholdBoundSum2 by a
// SumBound).
//
// Prices are drawn from 4n (keys keep arriving new: the flat form's
// rebuilds exceed their budget early and the index moves to its B+-tree)
// or, stable, from the n prices set first, whose keys stay as tombstones
// when their volume returns to 0: the flat form while n is small enough
// for the n new keys of the setup to fit the budget.
func BenchmarkPairVWAP(b *testing.B) {
	for _, n := range []int{250, 4000, 64000} {
		for _, stable := range []bool{false, true} {
			for _, bound := range []bool{false, true} {
				name := strconv.Itoa(n) + "/pred"
				if bound {
					name = strconv.Itoa(n) + "/bound"
				}
				if stable {
					name += "/stable"
				}
				b.Run(name, func(b *testing.B) { benchPairVWAP(b, n, bound, stable) })
			}
		}
	}
}

func benchPairVWAP(b *testing.B, n int, bound, stable bool) {
	var x RangeSumPairIndex[struct{}, float64, float64, float64]
	rng := rand.New(rand.NewPCG(1, 2))
	space := 4 * n
	if stable {
		space = n
	}
	vol := make([]float64, space)
	var total float64
	for j := range n {
		p := rng.IntN(space)
		if stable {
			p = j
		}
		vol[p] += 10
		total += 10
		x.Set(struct{}{}, float64(p), vol[p], float64(p)*vol[p])
	}
	ps := make([]int32, 1<<16)
	for i := range ps {
		ps[i] = int32(rng.IntN(space))
	}
	if stable && n <= 250 && !x.isFlat() {
		b.Fatal("250 stable prices: not flat")
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink float64
	for i := range b.N {
		p := ps[i&(1<<16-1)]
		d := 10.0
		if i&1 == 1 && vol[p] >= 10 {
			d = -10
		}
		vol[p] += d
		total += d
		x.Set(struct{}{}, float64(p), vol[p], float64(p)*vol[p])
		c := 0.25 * total
		if bound {
			sink += x.ThresholdBoundSum2(struct{}{}, true, false, SumBound[float64]{C: c, Below: true})
		} else {
			sink += x.ThresholdSum2(struct{}{}, true, false, func(s float64) bool { return c > s })
		}
	}
	_ = sink
}
