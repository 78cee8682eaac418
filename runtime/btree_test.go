package runtime

import (
	"math/rand/v2"
	"testing"
)

// checkBTree checks the shape of a sumBTree: keys ascending, every leaf at
// one height, each inner entry holding its child's least key and sum,
// every node but the root at least a quarter full, the key count, total
// and count of negative values as kept.
func checkBTree[T int64 | float64, V int64](t *testing.T, b *sumBTree[T, V]) {
	t.Helper()
	if b.empty() {
		if b.n != 0 || b.total != 0 || b.unsigned != 0 {
			t.Fatalf("empty tree with n=%d total=%v unsigned=%d", b.n, b.total, b.unsigned)
		}
		return
	}
	var keys int32
	var neg int32
	var prev T
	first := true
	var visit func(id, h int32, root bool) (least T, sum V)
	visit = func(id, h int32, root bool) (least T, sum V) {
		nd := &b.nodes[id]
		if nd.n == 0 || !root && nd.n < btreeWidth/4 || root && h > 0 && nd.n < 2 {
			t.Fatalf("node %d at height %d holds %d entries", id, h, nd.n)
		}
		for i := range int(nd.n) {
			if h == 0 {
				k := nd.keys[i]
				if !first && !(prev < k) {
					t.Fatalf("keys out of order: %v then %v", prev, k)
				}
				prev, first = k, false
				if nd.vals[i] == 0 {
					t.Fatalf("key %v stored with value 0", k)
				}
				if nd.vals[i] < 0 {
					neg++
				}
				keys++
			} else {
				l, s := visit(nd.child[i], h-1, false)
				if l != nd.keys[i] || s != nd.vals[i] {
					t.Fatalf("node %d entry %d: key %v sum %v, child has %v and %v", id, i, nd.keys[i], nd.vals[i], l, s)
				}
			}
			sum += nd.vals[i]
		}
		return nd.keys[0], sum
	}
	_, sum := visit(b.root, b.height, true)
	if keys != b.n || sum != b.total || neg != b.unsigned {
		t.Fatalf("n=%d total=%v unsigned=%d, counted %d, %v, %d", b.n, b.total, b.unsigned, keys, sum, neg)
	}
}

// TestBTreeRandom checks RangeSum's B+-tree against a map under random
// adds, sets and exact cancellations over key universes from a few keys
// to thousands (trees up to four levels), with waves that fill the tree
// and empty it again (splits, merges, refills from siblings), and every
// read after each step: point and range sums, rays, thresholds, ranks and
// the ordered walk.
func TestBTreeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 16 {
		universe := []int{3, 20, 300, 3000}[round%4]
		var s RangeSum[int64, int64]
		model := map[int64]int64{}
		sum := func(in func(int64) bool) int64 {
			var n int64
			for k, v := range model {
				if in(k) {
					n += v
				}
			}
			return n
		}
		steps := 4 * universe
		if steps < 400 {
			steps = 400
		}
		negatives := round%3 == 0
		for step := range steps {
			k := int64(rng.IntN(universe))
			var d int64
			switch phase := step * 3 / steps; {
			case phase == 0 || rng.IntN(3) == 0: // fill
				d = int64(1 + rng.IntN(5))
			default: // empty
				d = -model[k]
			}
			if negatives && rng.IntN(5) == 0 {
				d = -int64(rng.IntN(4))
			}
			if rng.IntN(2) == 0 {
				s.Set(k, model[k]+d)
			} else {
				s.Add(k, d)
			}
			if model[k] += d; model[k] == 0 {
				delete(model, k)
			}
			checkBTree(t, &s.t)
			if universe >= 300 && step%(universe/30) != 0 {
				continue
			}
			q := int64(rng.IntN(universe+2) - 1)
			q2 := q + int64(rng.IntN(universe/2+3)-2)
			li, hi := rng.IntN(2) == 0, rng.IntN(2) == 0
			up := func(k int64) bool { return k > q }
			down := func(k int64) bool { return k <= q2 }
			checks := []struct {
				name      string
				got, want int64
			}{
				{"SumLess", s.SumLess(q), sum(func(k int64) bool { return k < q })},
				{"SumLessEq", s.SumLessEq(q), sum(func(k int64) bool { return k <= q })},
				{"SumGreater", s.SumGreater(q), sum(func(k int64) bool { return k > q })},
				{"SumGreaterEq", s.SumGreaterEq(q), sum(func(k int64) bool { return k >= q })},
				{"SumBetween", s.SumBetween(q, li, q2, hi), sum(func(k int64) bool {
					return (k > q || li && k == q) && (k < q2 || hi && k == q2)
				})},
				{"Total", s.Total(), sum(func(int64) bool { return true })},
				{"Get", s.Get(k), model[k]},
				{"Len", int64(s.Len()), int64(len(model))},
				{"SumWhere up", s.SumWhere(up, nil), sum(up)},
				{"SumWhere down", s.SumWhere(nil, down), sum(down)},
				{"SumWhere both", s.SumWhere(up, down), sum(func(k int64) bool { return up(k) && down(k) })},
				{"SumWhereEither", s.SumWhereEither(nil, down, up, nil), sum(func(k int64) bool { return up(k) || down(k) })},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Fatalf("round %d step %d q %d..%d: %s = %d, want %d", round, step, q, q2, c.name, c.got, c.want)
				}
			}
			prev, n := int64(-1<<62), 0
			for k, v := range s.All() {
				if k <= prev || model[k] != v {
					t.Fatalf("round %d step %d: All yields %d:%d after %d", round, step, k, v, prev)
				}
				prev, n = k, n+1
			}
			if n != len(model) {
				t.Fatalf("round %d step %d: All yields %d keys, want %d", round, step, n, len(model))
			}
			if s.Negative() {
				continue // thresholds and ranks need values ≥ 0
			}
			total := s.Total()
			if total > 0 {
				i := int64(rng.IntN(int(total)))
				var want int64
				acc := int64(0)
				for k := range s.All() { // ascending: the first whose running sum passes i
					if acc += model[k]; acc > i {
						want = k
						break
					}
				}
				if got := s.Select(i); got != want {
					t.Fatalf("round %d step %d: Select(%d) = %d, want %d", round, step, i, got, want)
				}
			}
			c := int64(rng.IntN(int(total) + 2))
			for _, above := range []bool{true, false} {
				for _, incl := range []bool{true, false} {
					for _, less := range []bool{true, false} {
						pred := func(f int64) bool { return f > c }
						if less {
							pred = func(f int64) bool { return f <= c }
						}
						ray := s.Threshold(above, incl, pred)
						// Every key, present or not, between and beyond.
						for x := int64(-1); x <= int64(universe); x++ {
							f := sum(func(k int64) bool {
								if above {
									return k > x || incl && k == x
								}
								return k < x || incl && k == x
							})
							in := ray.All || !ray.None && (ray.Up && (x > ray.Bound || ray.Incl && x == ray.Bound) ||
								!ray.Up && (x < ray.Bound || ray.Incl && x == ray.Bound))
							if in != pred(f) {
								t.Fatalf("round %d step %d: above=%v incl=%v less=%v c=%d: key %d in ray %+v = %v, condition %v", round, step, above, incl, less, c, x, ray, in, pred(f))
							}
							if universe > 300 && x%37 != 0 {
								x += 36 // sample the large universes
							}
						}
					}
				}
			}
		}
	}
}

// TestBTreeReset checks that a reset tree is empty and grows again.
func TestBTreeReset(t *testing.T) {
	var s RangeSum[int64, int64]
	for i := range int64(500) {
		s.Add(i, 1)
	}
	s.Reset()
	checkBTree(t, &s.t)
	if s.Len() != 0 || s.Total() != 0 || s.SumGreater(-1) != 0 {
		t.Fatalf("after Reset: Len %d Total %d", s.Len(), s.Total())
	}
	for i := range int64(500) {
		s.Add(i, 2)
	}
	checkBTree(t, &s.t)
	if s.Total() != 1000 || s.SumLess(250) != 500 {
		t.Fatalf("after refilling: Total %d SumLess(250) %d", s.Total(), s.SumLess(250))
	}
}
