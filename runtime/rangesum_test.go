package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

type rsOp struct {
	k float64
	d int64
}

type rsPair struct {
	K float64
	V int64
}

func rsContents(s *RangeSum[float64, int64]) []rsPair {
	var out []rsPair
	for k, v := range s.All() {
		out = append(out, rsPair{k, v})
	}
	return out
}

func TestRangeSum(t *testing.T) {
	base := []rsOp{{1, 10}, {2, 20}, {3, 30}, {5, 50}}
	type sums struct{ lt, le, gt, ge int64 }
	tests := []struct {
		name string
		ops  []rsOp
		want []rsPair
		x    float64
		sums sums
	}{
		{name: "empty", x: 1},
		{name: "zero add is a no-op", ops: []rsOp{{3, 0}}, x: 3},
		{name: "below all", ops: base, want: []rsPair{{1, 10}, {2, 20}, {3, 30}, {5, 50}}, x: 0,
			sums: sums{0, 0, 110, 110}},
		{name: "above all", ops: base, want: []rsPair{{1, 10}, {2, 20}, {3, 30}, {5, 50}}, x: 9,
			sums: sums{110, 110, 0, 0}},
		{name: "on a key", ops: base, want: []rsPair{{1, 10}, {2, 20}, {3, 30}, {5, 50}}, x: 3,
			sums: sums{30, 60, 50, 80}},
		{name: "between keys", ops: base, want: []rsPair{{1, 10}, {2, 20}, {3, 30}, {5, 50}}, x: 4,
			sums: sums{60, 60, 50, 50}},
		{name: "back to zero removes", ops: append(slices.Clone(base), rsOp{3, -30}),
			want: []rsPair{{1, 10}, {2, 20}, {5, 50}}, x: 3, sums: sums{30, 30, 50, 50}},
		{name: "negative values", ops: []rsOp{{1, -4}, {2, 7}}, want: []rsPair{{1, -4}, {2, 7}}, x: 2,
			sums: sums{-4, 3, 0, 7}},
		{name: "remove all", ops: []rsOp{{1, 1}, {2, 1}, {2, -1}, {1, -1}}, x: 1},
		{name: "NaN keys are in no range", ops: []rsOp{{math.NaN(), 5}, {1, 1}}, want: []rsPair{{1, 1}}, x: 1,
			sums: sums{0, 1, 0, 1}},
		{name: "NaN bound selects nothing", ops: base, want: []rsPair{{1, 10}, {2, 20}, {3, 30}, {5, 50}}, x: math.NaN()},
		{name: "infinities", ops: []rsOp{{math.Inf(1), 1}, {math.Inf(-1), 2}, {0, 4}},
			want: []rsPair{{math.Inf(-1), 2}, {0, 4}, {math.Inf(1), 1}}, x: math.Inf(1), sums: sums{6, 7, 0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s RangeSum[float64, int64]
			var x RangeSumIndex[string, float64, int64]
			for _, op := range tt.ops {
				s.Add(op.k, op.d)
				x.Add("g", op.k, op.d)
				x.Add("other", op.k, 1000)
			}
			if got := rsContents(&s); !slices.Equal(got, tt.want) {
				t.Errorf("contents = %v, want %v", got, tt.want)
			}
			if s.Len() != len(tt.want) || x.GroupLen("g") != len(tt.want) {
				t.Errorf("Len = %d, GroupLen = %d, want %d", s.Len(), x.GroupLen("g"), len(tt.want))
			}
			var total int64
			for _, p := range tt.want {
				total += p.V
				if v := s.Get(p.K); v != p.V {
					t.Errorf("Get(%v) = %d, want %d", p.K, v, p.V)
				}
			}
			if s.Total() != total || x.Total("g") != total {
				t.Errorf("Total = %d, %d, want %d", s.Total(), x.Total("g"), total)
			}
			got := sums{s.SumLess(tt.x), s.SumLessEq(tt.x), s.SumGreater(tt.x), s.SumGreaterEq(tt.x)}
			if got != tt.sums {
				t.Errorf("sums at %v = %+v, want %+v", tt.x, got, tt.sums)
			}
			got = sums{x.SumLess("g", tt.x), x.SumLessEq("g", tt.x), x.SumGreater("g", tt.x), x.SumGreaterEq("g", tt.x)}
			if got != tt.sums {
				t.Errorf("grouped sums at %v = %+v, want %+v", tt.x, got, tt.sums)
			}
			if b := s.SumBetween(math.Inf(-1), true, tt.x, false); b != tt.sums.lt && !math.IsNaN(tt.x) {
				t.Errorf("SumBetween(-inf, x) = %d, want %d", b, tt.sums.lt)
			}
		})
	}
}

func TestRangeSumNil(t *testing.T) {
	var s *RangeSum[int64, float64]
	if s.Len() != 0 || s.Get(1) != 0 || s.Total() != 0 || s.SumLess(1) != 0 || s.SumGreaterEq(1) != 0 || s.SumBetween(0, true, 9, true) != 0 {
		t.Error("nil RangeSum is not empty")
	}
	for range s.All() {
		t.Error("nil RangeSum yields")
	}
	var x RangeSumIndex[int64, int64, float64]
	if x.Len() != 0 || x.SumGreater(1, 2) != 0 || x.Total(3) != 0 {
		t.Error("zero RangeSumIndex is not empty")
	}
}

// TestRangeSumRandom checks every operation against a brute-force model on
// random adds (with exact cancellations) and queries, in several groups.
func TestRangeSumRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		keys := 1 + rng.IntN(60)
		var x RangeSumIndex[int, int64, int64]
		model := map[int]map[int64]int64{}
		sum := func(g int, in func(int64) bool) int64 {
			var s int64
			for k, v := range model[g] {
				if in(k) {
					s += v
				}
			}
			return s
		}
		for i := range 3000 {
			g := rng.IntN(3)
			k := int64(rng.IntN(keys))
			d := int64(rng.IntN(7) - 3)
			if rng.IntN(4) == 0 {
				d = -model[g][k] // cancel exactly
			}
			if rng.IntN(3) == 0 {
				x.Set(g, k, model[g][k]+d) // Set to the new value is Add of the delta
			} else {
				x.Add(g, k, d)
			}
			if model[g] == nil {
				model[g] = map[int64]int64{}
			}
			if model[g][k] += d; model[g][k] == 0 {
				delete(model[g], k)
			}
			if rng.IntN(500) == 0 {
				x.Reset()
				clear(model)
			}
			q := int64(rng.IntN(keys+2) - 1)
			q2 := q + int64(rng.IntN(10)-2)
			li, hi := rng.IntN(2) == 0, rng.IntN(2) == 0
			below, above := x.SumSplit(g, q, li, hi)
			checks := []struct {
				name      string
				got, want int64
			}{
				{"SumLess", x.SumLess(g, q), sum(g, func(k int64) bool { return k < q })},
				{"SumLessEq", x.SumLessEq(g, q), sum(g, func(k int64) bool { return k <= q })},
				{"SumGreater", x.SumGreater(g, q), sum(g, func(k int64) bool { return k > q })},
				{"SumGreaterEq", x.SumGreaterEq(g, q), sum(g, func(k int64) bool { return k >= q })},
				{"SumBetween", x.SumBetween(g, q, li, q2, hi), sum(g, func(k int64) bool {
					return (k > q || li && k == q) && (k < q2 || hi && k == q2)
				})},
				{"SumSplit below", below, sum(g, func(k int64) bool { return k < q || li && k == q })},
				{"SumSplit above", above, sum(g, func(k int64) bool { return k > q || hi && k == q })},
				{"Total", x.Total(g), sum(g, func(int64) bool { return true })},
				{"Get", x.Get(g, k), model[g][k]},
				{"GroupLen", int64(x.GroupLen(g)), int64(len(model[g]))},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Fatalf("round %d step %d group %d q %d..%d: %s = %d, want %d", round, i, g, q, q2, c.name, c.got, c.want)
				}
			}
			prev := int64(math.MinInt64)
			for k, v := range x.Group(g) {
				if k <= prev || v == 0 || model[g][k] != v {
					t.Fatalf("round %d step %d: Group yields %d:%d after %d", round, i, k, v, prev)
				}
				prev = k
			}
		}
		nonEmpty := 0
		for _, m := range model {
			if len(m) > 0 {
				nonEmpty++
			}
		}
		if x.Len() != nonEmpty {
			t.Fatalf("round %d: Len = %d, want %d", round, x.Len(), nonEmpty)
		}
	}
}

// TestRangeSumFloatExactZero checks that a float range without keys sums to
// exactly 0 after values with rounding came and went.
func TestRangeSumFloatExactZero(t *testing.T) {
	var s RangeSum[float64, float64]
	s.Add(1, 0.1)
	s.Add(2, 0.2)
	s.Add(3, 0.3)
	s.Add(2, -0.2)
	if got := s.SumGreater(1); got != 0.3 {
		t.Errorf("SumGreater(1) = %v, want 0.3", got)
	}
	if got := s.SumBetween(1, false, 3, false); got != 0 {
		t.Errorf("SumBetween(1, 3) = %v, want exactly 0", got)
	}
}

func TestRangeSumNoAllocs(t *testing.T) {
	var x RangeSumIndex[int64, float64, float64]
	for i := range 1000 {
		x.Add(int64(i%4), float64(i), 1)
	}
	for i := range 1000 {
		x.Add(int64(i%4), float64(i), -1)
	}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		k := float64(i % 997)
		x.Add(int64(i%4), k, 1.5)
		_ = x.SumGreater(int64(i%4), k/2)
		x.Add(int64(i%4), k, -1.5)
		i++
	})
	if allocs != 0 {
		t.Errorf("%v allocations per add/sum/remove in steady state", allocs)
	}
}

func BenchmarkRangeSum(b *testing.B) {
	for _, n := range []int{100, 10000, 1000000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			var s RangeSum[float64, float64]
			rng := rand.New(rand.NewPCG(3, 4))
			for range n {
				s.Add(float64(rng.IntN(4*n)), 1)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var sink float64
			for i := range b.N {
				k := float64(rng.IntN(4 * n))
				s.Add(k, 2)
				sink += s.SumGreater(float64(i % (4 * n)))
				s.Add(k, -2)
			}
			_ = sink
		})
	}
}

// TestSumWhere checks SumWhere and SumWhereEither against a loop over the
// keys, for monotone conditions on float keys with arithmetic (k − p > c,
// p − k > c, rounding included) over random maps with deletes.
func TestSumWhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s RangeSum[float64, int64]
	keys := map[float64]int64{}
	for step := range 4000 {
		k := float64(rng.IntN(200)) * 0.37
		if step%50 == 0 {
			k = 1e17 + float64(rng.IntN(50))*16 // where k − p rounds
		}
		d := int64(rng.IntN(5) - 1)
		s.Add(k, d)
		keys[k] += d
		if keys[k] == 0 {
			delete(keys, k)
		}
		p, c := float64(rng.IntN(200))*0.37, float64(rng.IntN(30))
		if step%7 == 0 {
			p = 1e17 + float64(rng.IntN(50))*16
		}
		up := func(k float64) bool { return k-p > c }
		down := func(k float64) bool { return p-k > c }
		up2 := func(k float64) bool { return k*2 >= p }
		down2 := func(k float64) bool { return -k+p >= -c }
		loop := func(f func(float64) bool) int64 {
			var n int64
			for k, v := range keys {
				if f(k) {
					n += v
				}
			}
			return n
		}
		cases := []struct {
			name string
			got  int64
			want func(float64) bool
		}{
			{"up", s.SumWhere(up, nil), up},
			{"down", s.SumWhere(nil, down), down},
			{"both", s.SumWhere(up2, down2), func(k float64) bool { return up2(k) && down2(k) }},
			{"either", s.SumWhereEither(up, nil, nil, down), func(k float64) bool { return up(k) || down(k) }},
			{"either overlapping", s.SumWhereEither(up2, nil, nil, down2), func(k float64) bool { return up2(k) || down2(k) }},
			{"either ranges", s.SumWhereEither(up, down2, up2, down), func(k float64) bool { return up(k) && down2(k) || up2(k) && down(k) }},
			{"none", s.SumWhere(nil, nil), func(float64) bool { return true }},
		}
		for _, tc := range cases {
			if w := loop(tc.want); tc.got != w {
				t.Fatalf("step %d, p=%v c=%v: %s = %d, want %d", step, p, c, tc.name, tc.got, w)
			}
		}
	}
}

// TestNegative checks the count of negative values through adds, sets and
// removals, in one tree and across the groups of an index.
func TestNegative(t *testing.T) {
	var s RangeSum[int64, float64]
	s.Add(1, 2)
	s.Add(2, -1)
	if !s.Negative() {
		t.Fatal("a negative value unseen")
	}
	s.Add(2, 3) // 2: back to ≥ 0
	if s.Negative() {
		t.Fatal("no negative value left")
	}
	s.Set(3, -4)
	s.Add(3, 4) // removed
	s.Add(1, -5)
	s.Add(1, 3) // 1: 0, removed
	if s.Negative() {
		t.Fatal("removed values still counted")
	}
	var x RangeSumIndex[int, int64, int64]
	x.Add(1, 5, -1)
	x.Add(2, 5, 1)
	if !x.Negative() {
		t.Fatal("index: a negative value unseen")
	}
	x.Add(1, 5, 1)
	if x.Negative() {
		t.Fatal("index: no negative value left")
	}
}

// TestSumSplitNaN: a NaN bound is in no range, on either side.
func TestSumSplitNaN(t *testing.T) {
	var x RangeSumIndex[int, float64, float64]
	x.Add(1, 1, 2)
	x.Add(1, 3, 4)
	if b, a := x.SumSplit(1, math.NaN(), true, true); b != 0 || a != 0 {
		t.Errorf("SumSplit(NaN) = %v, %v", b, a)
	}
	if b, a := x.SumSplit(1, 3, false, true); b != 2 || a != 4 {
		t.Errorf("SumSplit(3) = %v, %v", b, a)
	}
}
