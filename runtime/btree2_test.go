package runtime

import (
	"math/rand/v2"
	"testing"
)

// checkBTree2 checks the shape of every group's tree of a
// RangeSumPairIndex: keys ascending, every leaf at the tree's height, each
// inner entry holding its child's least key and both lanes' sums as
// laneSum computes them (bit for bit), every node but the root at least a
// quarter full, a key with a value not 0 in some lane, the root's sums,
// the key counts and the counts of negative and of inexact values as kept.
func checkBTree2[K comparable](t *testing.T, x *RangeSumPairIndex[K, float64, int64, float64]) {
	t.Helper()
	b := &x.a
	var neg1, neg2, inexact int32
	if x.isFlat() {
		checkFlat(t, x)
		return
	}
	for g, i := range x.groups.pos {
		r := x.groups.roots[i]
		if r.root == 0 {
			t.Fatalf("group %v: empty tree kept", g)
		}
		var keys int32
		var prev float64
		first := true
		var visit func(id, h int32, root bool) (least float64, s1 int64, s2 float64)
		visit = func(id, h int32, root bool) (least float64, s1 int64, s2 float64) {
			nd := &b.nodes[id]
			if nd.n == 0 || !root && nd.n < btreeWidth/4 || root && h > 0 && nd.n < 2 {
				t.Fatalf("group %v: node %d at height %d holds %d entries", g, id, h, nd.n)
			}
			for i := range int(nd.n) {
				if h == 0 {
					k := nd.keys[i]
					if !first && !(prev < k) {
						t.Fatalf("group %v: keys out of order: %v then %v", g, prev, k)
					}
					prev, first = k, false
					if nd.v1[i] == 0 && nd.v2[i] == 0 {
						t.Fatalf("group %v: key %v stored with values 0", g, k)
					}
					if nd.v1[i] < 0 {
						neg1++
					}
					if nd.v2[i] < 0 {
						neg2++
					}
					if !exactLane(nd.v1[i]) || !exactLane(nd.v2[i]) {
						inexact++
					}
					keys++
				} else {
					l, c1, c2 := visit(nd.child[i], h-1, false)
					if l != nd.keys[i] || c1 != nd.v1[i] || c2 != nd.v2[i] {
						t.Fatalf("group %v: node %d entry %d: key %v sums %v, %v; child has %v and %v, %v", g, id, i, nd.keys[i], nd.v1[i], nd.v2[i], l, c1, c2)
					}
				}
			}
			s1, s2 = nd.sums()
			return nd.keys[0], s1, s2
		}
		visit(r.root, r.height, true)
		rn := &b.nodes[r.root]
		if s1, s2 := rn.sums(); s1 != rn.sum1 || s2 != rn.sum2 {
			t.Fatalf("group %v: the root's sums are kept as %v, %v; its entries sum to %v, %v", g, rn.sum1, rn.sum2, s1, s2)
		}
		if keys != r.n {
			t.Fatalf("group %v: n=%d, counted %d", g, r.n, keys)
		}
	}
	if neg1 != b.unsigned1 || neg2 != b.unsigned2 {
		t.Fatalf("unsigned %d, %d; counted %d, %d", b.unsigned1, b.unsigned2, neg1, neg2)
	}
	if inexact != b.inexact {
		t.Fatalf("inexact %d; counted %d", b.inexact, inexact)
	}
}

// checkFlat checks a pair index whose keys are in the flat form: no tree,
// keys ascending, every Fenwick cell and both totals what the values give,
// the live and unsigned counts, every value exactLane.
func checkFlat[K comparable](t *testing.T, x *RangeSumPairIndex[K, float64, int64, float64]) {
	t.Helper()
	f := &x.flat
	if x.groups.len() != 0 {
		t.Fatalf("flat, and %d groups in the tree", x.groups.len())
	}
	n := len(f.keys)
	cells := n + 1
	if n == 0 {
		cells = len(f.f1) // no key yet: no cells either
	}
	if len(f.v1) != n || len(f.v2) != n || len(f.f1) != cells || len(f.f2) != cells {
		t.Fatalf("flat: %d keys, %d and %d values, %d and %d cells", n, len(f.v1), len(f.v2), len(f.f1), len(f.f2))
	}
	var neg1, neg2, live int
	var s1 int64
	var s2 float64
	for i, k := range f.keys {
		if i > 0 && !(f.keys[i-1] < k) {
			t.Fatalf("flat: keys out of order: %v then %v", f.keys[i-1], k)
		}
		if !exactLane(f.v1[i]) || !exactLane(f.v2[i]) {
			t.Fatalf("flat: key %v holds %v, %v: not exactLane", k, f.v1[i], f.v2[i])
		}
		if f.v1[i] != 0 || f.v2[i] != 0 {
			live++
		}
		if f.v1[i] < 0 {
			neg1++
		}
		if f.v2[i] < 0 {
			neg2++
		}
		s1 += f.v1[i]
		s2 += f.v2[i]
		// Cell i+1 sums the values at positions (i+1 - lowbit, i+1].
		p := i + 1
		var c1 int64
		var c2 float64
		for j := p - p&-p; j < p; j++ {
			c1 += f.v1[j]
			c2 += f.v2[j]
		}
		if f.f1[p] != c1 || f.f2[p] != c2 {
			t.Fatalf("flat: cell %d holds %v, %v; its values sum to %v, %v", p, f.f1[p], f.f2[p], c1, c2)
		}
	}
	if live != f.live || s1 != f.sum1 || s2 != f.sum2 {
		t.Fatalf("flat: live %d, sums %v, %v; counted %d, %v, %v", f.live, f.sum1, f.sum2, live, s1, s2)
	}
	if int32(neg1) != x.a.unsigned1 || int32(neg2) != x.a.unsigned2 || x.a.inexact != 0 {
		t.Fatalf("flat: unsigned %d, %d, inexact %d; counted %d, %d, 0", x.a.unsigned1, x.a.unsigned2, x.a.inexact, neg1, neg2)
	}
}

// TestBTree2ExactDelta checks that the sums an update adds its delta to
// stay the sums recomputed from the entries, bit for bit, while values go
// from integers (updates add deltas) to fractions and beyond 2^36 (updates
// recompute their paths) and back.
func TestBTree2ExactDelta(t *testing.T) {
	var x RangeSumPairIndex[int, float64, int64, float64]
	rng := rand.New(rand.NewPCG(5, 6))
	vals := map[float64]float64{}
	for i := range 20000 {
		k := float64(rng.IntN(600))
		var v float64
		switch phase := i / 2000 % 5; {
		case phase == 0 || phase == 3: // integers
			v = float64(rng.IntN(2001) - 1000)
		case phase == 1: // some fractions
			v = float64(rng.IntN(2001)-1000) * 0.1
		case phase == 2: // some beyond 2^36
			v = float64(rng.IntN(3)-1) * (1<<40 + float64(rng.IntN(1000)))
		default: // back to integers: keys go, then come back
			if rng.IntN(2) == 0 {
				v = 0
			} else {
				v = float64(rng.IntN(2001) - 1000)
			}
		}
		if rng.IntN(8) == 0 {
			v = 0
		}
		x.Set(0, k, int64(v), v)
		vals[k] = v
		if i%20 == 0 {
			checkBTree2(t, &x)
		}
	}
	for k := range 600 { // every key back to an integer
		v := float64(k%7 - 3)
		x.Set(0, float64(k), int64(v), v)
		vals[float64(k)] = v
		checkBTree2(t, &x)
	}
	if x.a.inexact != 0 {
		t.Fatalf("%d inexact values left", x.a.inexact)
	}
	var want float64
	for _, v := range vals {
		want += v
	}
	if _, got := x.a.total(x.groups.tree(0)); got != want {
		t.Errorf("total %v, want %v", got, want)
	}
}
