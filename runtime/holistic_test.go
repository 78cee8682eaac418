package runtime

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortedOf expands a multiset of (value, count) into its sorted values.
func sortedOf(counts map[int64]int64) []int64 {
	var xs []int64
	for v, n := range counts {
		for range n {
			xs = append(xs, v)
		}
	}
	slices.Sort(xs)
	return xs
}

// The percentiles and the mode of a randomly changing multiset, read from
// RangeSumIndex.Select and ModeIndex, equal those computed from its sorted
// values by the definitions.
func TestHolistic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var rs RangeSumIndex[int, int64, int64]
	var one RangeSum[int64, int64]
	var mi ModeIndex[int, int64]
	counts := map[int]map[int64]int64{0: {}, 1: {}}
	for step := range 20000 {
		g := r.IntN(2)
		v := int64(r.IntN(30))
		d := int64(1)
		if counts[g][v] > 0 && r.IntN(2) == 0 {
			d = -1
		}
		counts[g][v] += d
		if counts[g][v] == 0 {
			delete(counts[g], v)
		}
		rs.Add(g, v, d)
		mi.Add(g, v, d)
		if g == 0 {
			one.Add(v, d)
		}
		if step%7 != 0 {
			continue
		}
		xs := sortedOf(counts[g])
		n := int64(len(xs))
		if got := rs.Total(g); got != n {
			t.Fatalf("step %d: Total = %d, want %d", step, got, n)
		}
		for i := range n {
			if got := rs.Select(g, i); got != xs[i] {
				t.Fatalf("step %d: Select(%d) = %d, want %d", step, i, got, xs[i])
			}
			if g == 0 && one.Select(i) != xs[i] {
				t.Fatalf("step %d: RangeSum.Select(%d) = %d, want %d", step, i, one.Select(i), xs[i])
			}
		}
		if n == 0 {
			if _, ok := mi.Mode(g, false); ok {
				t.Fatalf("step %d: Mode of an empty group", step)
			}
			continue
		}
		for _, p := range []float64{0, 0.1, 0.25, 1.0 / 3, 0.5, 0.9, 1} {
			for _, desc := range []bool{false, true} {
				ys := xs
				if desc {
					ys = slices.Clone(xs)
					slices.Reverse(ys)
				}
				// PERCENTILE_CONT: interpolate at p·(n−1) in the aggregate's order.
				rn := p * float64(n-1)
				lo := int(rn)
				want := float64(ys[lo])
				if float64(lo) < rn {
					want += (rn - float64(lo)) * float64(ys[lo+1]-ys[lo])
				}
				a, b, f := ContRanks(n, p, desc)
				if got := Interpolate(float64(rs.Select(g, a)), float64(rs.Select(g, b)), f); got != want {
					t.Fatalf("step %d: PERCENTILE_CONT(%v) desc=%v = %v, want %v", step, p, desc, got, want)
				}
				// PERCENTILE_DISC: the first value whose cumulative share reaches p.
				var wantD int64
				for i, y := range ys {
					if float64(i+1)/float64(n) >= p {
						wantD = y
						break
					}
				}
				if got := rs.Select(g, DiscRank(n, p, desc)); got != wantD {
					t.Fatalf("step %d: PERCENTILE_DISC(%v) desc=%v = %v, want %v (%v)", step, p, desc, got, wantD, ys)
				}
			}
		}
		for _, desc := range []bool{false, true} {
			var best, bestN int64
			for v, c := range counts[g] {
				if c > bestN || c == bestN && (v < best) != desc {
					best, bestN = v, c
				}
			}
			if got, ok := mi.Mode(g, desc); !ok || got != best {
				t.Fatalf("step %d: Mode(desc=%v) = %v, %v, want %v", step, desc, got, ok, best)
			}
		}
	}
	mi.Reset()
	if _, ok := mi.Mode(0, false); ok {
		t.Fatal("Mode after Reset")
	}
}

// BenchmarkHolistic measures one insert and one delete of a value in a
// group of n values, then a median read: O(log n).
func BenchmarkHolistic(b *testing.B) {
	for _, n := range []int{100, 10000, 1000000} {
		b.Run(fmt.Sprintf("median/n=%d", n), func(b *testing.B) {
			var rs RangeSumIndex[int, int64, int64]
			for i := range n {
				rs.Add(1, int64(i*7919%n), 1)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var sink int64
			for i := range b.N {
				v := int64(i * 31 % n)
				rs.Add(1, v, -1)
				rs.Add(1, v, 1)
				a, _, _ := ContRanks(rs.Total(1), 0.5, false)
				sink += rs.Select(1, a)
			}
			_ = sink
		})
		b.Run(fmt.Sprintf("mode/n=%d", n), func(b *testing.B) {
			var mi ModeIndex[int, int64]
			for i := range n {
				mi.Add(1, int64(i%(n/2+1)), 1)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var sink int64
			for i := range b.N {
				v := int64(i * 31 % (n/2 + 1))
				mi.Add(1, v, -1)
				mi.Add(1, v, 1)
				m, _ := mi.Mode(1, false)
				sink += m
			}
			_ = sink
		})
	}
}
