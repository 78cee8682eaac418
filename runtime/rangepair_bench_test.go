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
func BenchmarkPairVWAP(b *testing.B) {
	for _, n := range []int{250, 4000, 64000} {
		for _, bound := range []bool{false, true} {
			name := strconv.Itoa(n) + "/pred"
			if bound {
				name = strconv.Itoa(n) + "/bound"
			}
			b.Run(name, func(b *testing.B) { benchPairVWAP(b, n, bound) })
		}
	}
}

func benchPairVWAP(b *testing.B, n int, bound bool) {
	var x RangeSumPairIndex[struct{}, float64, float64, float64]
	rng := rand.New(rand.NewPCG(1, 2))
	vol := make([]float64, 4*n)
	var total float64
	for range n {
		p := rng.IntN(4 * n)
		vol[p] += 10
		total += 10
		x.Set(struct{}{}, float64(p), vol[p], float64(p)*vol[p])
	}
	ps := make([]int32, 1<<16)
	for i := range ps {
		ps[i] = int32(rng.IntN(4 * n))
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
