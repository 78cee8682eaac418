package runtime

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRangeSumPairRandom checks RangeSumPairIndex against a model of two
// maps (an INT lane and a FLOAT lane with integral values, so that sums are
// exact) on random writes of either lane or both, with exact cancellations,
// and every read, in several groups: a key stays while either lane holds a
// value. Without groups the index starts flat (flatPair); some rounds move
// it to the B+-tree with a fraction (exact in binary, but not exactLane),
// others with keys that keep arriving new.
func TestRangeSumPairRandom(t *testing.T) {
	t.Run("groups", func(t *testing.T) { testPairRandom(t, []int{0, 1, 2}) })
	t.Run("flat", func(t *testing.T) { testPairRandom(t, []struct{}{{}}) })
}

func testPairRandom[K comparable](t *testing.T, groups []K) {
	rng := rand.New(rand.NewPCG(3, 4))
	_, flat := any(groups[0]).(struct{})
	flatRounds, treeRounds := 0, 0
	defer func() {
		// Without groups, some rounds must stay flat and some move to the
		// tree.
		if flat && (flatRounds == 0 || treeRounds == 0) {
			t.Errorf("%d rounds ended flat, %d in the tree: want some of each", flatRounds, treeRounds)
		}
	}()
	type vals struct {
		a int64
		b float64
	}
	for round := range 20 {
		// Rounds of a few keys, and big rounds: waves that fill group 0's
		// tree to three levels and empty it again (splits, merges and
		// refills from siblings at every height).
		keys, steps, big := 1+rng.IntN(60), 3000, round%4 == 3
		if big {
			keys, steps = 1000, 6000
		}
		var x RangeSumPairIndex[K, float64, int64, float64]
		wentTree := false
		hints := map[float64]*int32{}
		model := map[K]map[float64]vals{}
		sum := func(g K, in func(float64) bool) (int64, float64) {
			var s1 int64
			var s2 float64
			for k, v := range model[g] {
				if in(k) {
					s1 += v.a
					s2 += v.b
				}
			}
			return s1, s2
		}
		for i := range steps {
			if i%50 == 0 {
				checkBTree2(t, &x)
			}
			g := groups[rng.IntN(len(groups))]
			emptying := false
			if big {
				if rng.IntN(10) != 0 {
					g = groups[0]
				}
				emptying = i/1500%2 == 1
			}
			k := float64(rng.IntN(keys))
			if model[g] == nil {
				model[g] = map[float64]vals{}
			}
			v := model[g][k]
			d1, d2 := int64(rng.IntN(7)-3), float64(rng.IntN(7)-3)

			op := rng.IntN(5)
			if rng.IntN(4) == 0 || emptying {
				d1, d2 = -v.a, -v.b // cancel exactly
				if emptying {
					op = 0
				}
			}
			if round%5 == 2 && i == steps/2 {
				op, d2 = 4, 0.5 // not exactLane: a flat index moves to the tree
			}
			switch op {
			case 0:
				if rng.IntN(2) == 0 {
					x.Set(g, k, v.a+d1, v.b+d2)
				} else {
					// SetAt with the key's hint, now and then stale.
					h := hints[k]
					if h == nil {
						h = new(int32)
						hints[k] = h
					}
					if rng.IntN(8) == 0 {
						*h = int32(rng.IntN(keys+5) - 2) // out of range too, either side
					}
					x.SetAt(h, g, k, v.a+d1, v.b+d2)
				}
				v.a, v.b = v.a+d1, v.b+d2
			case 1:
				x.Set1(g, k, v.a+d1)
				v.a += d1
			case 2:
				x.Set2(g, k, v.b+d2)
				v.b += d2
			case 3:
				x.Add1(g, k, d1)
				v.a += d1
			default:
				x.Add2(g, k, d2)
				v.b += d2
			}
			if v == (vals{}) {
				delete(model[g], k)
			} else {
				model[g][k] = v
			}
			wentTree = wentTree || !x.isFlat()
			if rng.IntN(500) == 0 {
				x.Reset()
				clear(model)
			}
			q := float64(rng.IntN(keys+2) - 1)
			q2 := q + float64(rng.IntN(10)-2)
			li, hi := rng.IntN(2) == 0, rng.IntN(2) == 0
			away := func(k float64) bool { return k-q > 3 || q-k > 3 }
			up := func(k float64) bool { return k-q > 3 }
			down := func(k float64) bool { return q-k > 3 }
			between := func(k float64) bool { return k >= q && k <= q2 }
			type read struct {
				name string
				a    int64
				b    float64
				in   func(float64) bool
			}
			var reads []read
			add := func(name string, in func(float64) bool, a int64, b float64) {
				reads = append(reads, read{name, a, b, in})
			}
			a, b := x.SumLess(g, q)
			add("SumLess", func(k float64) bool { return k < q }, a, b)
			a, b = x.SumLessEq(g, q)
			add("SumLessEq", func(k float64) bool { return k <= q }, a, b)
			a, b = x.SumGreater(g, q)
			add("SumGreater", func(k float64) bool { return k > q }, a, b)
			a, b = x.SumGreaterEq(g, q)
			add("SumGreaterEq", func(k float64) bool { return k >= q }, a, b)
			a, b = x.SumBetween(g, q, li, q2, hi)
			add("SumBetween", func(k float64) bool { return (k > q || li && k == q) && (k < q2 || hi && k == q2) }, a, b)
			b1, a1, b2, a2 := x.SumSplit(g, q, li, hi)
			add("SumSplit below", func(k float64) bool { return k < q || li && k == q }, b1, b2)
			add("SumSplit above", func(k float64) bool { return k > q || hi && k == q }, a1, a2)
			b1, a1 = x.SumSplit1(g, q, li, hi)
			b2, a2 = x.SumSplit2(g, q, li, hi)
			add("SumSplit lanes below", func(k float64) bool { return k < q || li && k == q }, b1, b2)
			add("SumSplit lanes above", func(k float64) bool { return k > q || hi && k == q }, a1, a2)
			a, b = x.SumWhereEither(g, up, nil, nil, down)
			add("SumWhereEither rays", away, a, b)
			a, b = x.SumWhereEither(g, func(k float64) bool { return k >= q }, func(k float64) bool { return k <= q2 }, up, nil)
			add("SumWhereEither ranges", func(k float64) bool { return between(k) || up(k) }, a, b)
			a, b = x.SumWhere(g, func(k float64) bool { return k >= q }, func(k float64) bool { return k <= q2 })
			add("SumWhere", between, a, b)
			a, b = x.SumWhere(g, nil, down)
			add("SumWhere down", down, a, b)
			add("SumLess lanes", func(k float64) bool { return k < q }, x.SumLess1(g, q), x.SumLess2(g, q))
			add("SumGreaterEq lanes", func(k float64) bool { return k >= q }, x.SumGreaterEq1(g, q), x.SumGreaterEq2(g, q))
			add("SumWhereEither lanes", away, x.SumWhereEither1(g, up, nil, nil, down), x.SumWhereEither2(g, up, nil, nil, down))
			a, b = x.Get(g, k)
			add("Get", func(j float64) bool { return j == k }, a, b)
			for _, r := range reads {
				wa, wb := sum(g, r.in)
				if r.a != wa || r.b != wb {
					t.Fatalf("round %d step %d group %v q %v..%v: %s = %d, %v; want %d, %v", round, i, g, q, q2, r.name, r.a, r.b, wa, wb)
				}
			}
			if x.GroupLen(g) != len(model[g]) {
				t.Fatalf("round %d step %d: GroupLen = %d, want %d", round, i, x.GroupLen(g), len(model[g]))
			}
			neg1, neg2 := false, false
			for _, m := range model {
				for _, v := range m {
					neg1, neg2 = neg1 || v.a < 0, neg2 || v.b < 0
				}
			}
			if x.Negative1() != neg1 || x.Negative2() != neg2 {
				t.Fatalf("round %d step %d: Negative = %v, %v; want %v, %v", round, i, x.Negative1(), x.Negative2(), neg1, neg2)
			}
		}
		checkBTree2(t, &x)
		if wentTree {
			treeRounds++
		} else {
			flatRounds++
		}
	}
}

// TestRangeSumPairNaN checks that a NaN key is not stored and a NaN bound
// selects nothing.
func TestRangeSumPairNaN(t *testing.T) {
	var x RangeSumPairIndex[int, float64, int64, float64]
	nan := 0.0
	nan /= nan
	x.Set(1, nan, 3, 4)
	x.Add1(1, 2, 5)
	if x.GroupLen(1) != 1 {
		t.Fatalf("GroupLen = %d, want 1", x.GroupLen(1))
	}
	if a, b := x.SumLess(1, nan); a != 0 || b != 0 {
		t.Errorf("SumLess(NaN) = %d, %v", a, b)
	}
	if a, b := x.SumGreaterEq(1, 0); a != 5 || b != 0 {
		t.Errorf("SumGreaterEq(0) = %d, %v, want 5, 0", a, b)
	}
}

// TestRangeSumPairNoAllocs checks that a warm index allocates nothing, its
// group sums ranged over as generated code does included, grouped and flat.
func TestRangeSumPairNoAllocs(t *testing.T) {
	var x RangeSumPairIndex[int64, float64, int64, float64]
	var flat RangeSumPairIndex[struct{}, float64, int64, float64]
	step := func() {
		for k := range 100 {
			x.Set(int64(k%7), float64(k), 1, 2.5)
			flat.Set(struct{}{}, float64(k), 1, 2.5)
		}
		x.SumWhereEither(3, func(k float64) bool { return k > 50 }, nil, nil, func(k float64) bool { return k < 20 })
		var sum float64
		for _, s := range x.GroupSumRay2(KeyRay[float64]{Bound: 40, Up: true}) {
			sum += s
		}
		for _, s := range flat.GroupSumRays1(KeyRay[float64]{Bound: 40, Up: true}, KeyRay[float64]{Bound: 60}) {
			sum += float64(s)
		}
		if sum != 59*2.5+19 { // keys 41..99 of lane 2, 41..59 of lane 1
			t.Fatalf("group sums over the rays: %v, want %v", sum, 59*2.5+19)
		}
		for k := range 100 {
			x.Set(int64(k%7), float64(k), 0, 0)
			flat.Set(struct{}{}, float64(k), 0, 0)
		}
	}
	step()
	if n := testing.AllocsPerRun(50, step); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

// TestRangeSumPairThreshold checks Threshold1 and Threshold2,
// ThresholdSum2, SumRay and SumRays against brute force: with the searched
// lane non-negative, the ray holds exactly the keys k (of the index, the
// searched lane's value 0 or not) where the condition on F(k) holds, and
// ThresholdSum2 is lane 2's sum over lane 1's ray.
func TestRangeSumPairThreshold(t *testing.T) {
	for _, lane := range []int{1, 2} {
		t.Run(fmt.Sprintf("lane%d", lane), func(t *testing.T) { testPairThreshold(t, lane) })
	}
}

// testPairThreshold checks the threshold search of one lane (1 or 2; the
// other lane's values may be negative) and the sums over its rays.
func testPairThreshold(t *testing.T, lane int) {
	rng := rand.New(rand.NewPCG(5, uint64(6+lane)))
	// s is the searched lane's value, o the other's.
	type vals struct{ s, o float64 }
	inRay := func(r KeyRay[float64], k float64) bool {
		switch {
		case r.All:
			return true
		case r.None:
			return false
		case r.Up:
			return k > r.Bound || r.Incl && k == r.Bound
		}
		return k < r.Bound || r.Incl && k == r.Bound
	}
	for round := range 40 {
		var x RangeSumPairIndex[struct{}, float64, float64, float64]
		set := func(k float64, v vals) {
			if lane == 1 {
				x.Set(struct{}{}, k, v.s, v.o)
			} else {
				x.Set(struct{}{}, k, v.o, v.s)
			}
		}
		threshold, thresholdBound := x.Threshold1, x.ThresholdBound1
		sumRaysSearched, sumRayOther := x.SumRays1, x.SumRay2
		if lane == 2 {
			threshold, thresholdBound = x.Threshold2, x.ThresholdBound2
			sumRaysSearched, sumRayOther = x.SumRays2, x.SumRay1
		}
		model := map[float64]vals{}
		keys := 1 + rng.IntN(50)
		if round%8 == 7 {
			keys = 400
		}
		for i := range 800 {
			k := float64(rng.IntN(keys))
			v := model[k]
			switch rng.IntN(3) {
			case 0:
				v.s = float64(rng.IntN(4)) // 0 now and then: a key held by the other lane alone
			case 1:
				v.o = float64(rng.IntN(9) - 4)
			default:
				v = vals{}
			}
			set(k, v)
			if v == (vals{}) {
				delete(model, k)
			} else {
				model[k] = v
			}
			above, incl := rng.IntN(2) == 0, rng.IntN(2) == 0
			var total float64
			for _, v := range model {
				total += v.s
			}
			c := float64(rng.IntN(int(total)+3)) - 1
			strict := rng.IntN(2) == 0
			pred := func(f float64) bool { return c > f || !strict && c == f }
			bound := SumBound[float64]{C: c, Below: true, Incl: !strict}
			if rng.IntN(2) == 0 {
				pred = func(f float64) bool { return f > c || !strict && c == f }
				bound.Below = false
			}
			f := func(k float64) float64 {
				var s float64
				for j, v := range model {
					if above && (j > k || incl && j == k) || !above && (j < k || incl && j == k) {
						s += v.s
					}
				}
				return s
			}
			r := threshold(struct{}{}, above, incl, pred)
			if rb := thresholdBound(struct{}{}, above, incl, bound); rb != r {
				t.Fatalf("round %d step %d: ThresholdBound = %+v, Threshold %+v", round, i, rb, r)
			}
			var wantOther float64
			for k, v := range model {
				g := pred(f(k))
				if inRay(r, k) != g {
					t.Fatalf("round %d step %d: key %v in ray %+v is %v, want %v (above %v incl %v c %v)", round, i, k, r, !g, g, above, incl, c)
				}
				if g {
					wantOther += v.o
				}
			}
			if lane == 1 {
				if got := x.ThresholdSum2(struct{}{}, above, incl, pred); got != wantOther {
					t.Fatalf("round %d step %d: ThresholdSum2 = %v, want %v", round, i, got, wantOther)
				}
				if got := x.ThresholdBoundSum2(struct{}{}, above, incl, bound); got != wantOther {
					t.Fatalf("round %d step %d: ThresholdBoundSum2 = %v, want %v", round, i, got, wantOther)
				}
			}
			if got := sumRayOther(struct{}{}, r); got != wantOther {
				t.Fatalf("round %d step %d: the other lane's SumRay = %v, want %v", round, i, got, wantOther)
			}
			q := threshold(struct{}{}, !above, incl, pred)
			var wantS, wantO float64
			for k, v := range model {
				if inRay(r, k) && inRay(q, k) {
					wantS += v.s
					wantO += v.o
				}
			}
			if got := sumRaysSearched(struct{}{}, r, q); got != wantS {
				t.Fatalf("round %d step %d: the searched lane's SumRays = %v, want %v", round, i, got, wantS)
			}
			g1, g2 := x.SumRays(struct{}{}, r, q)
			if lane == 2 {
				g1, g2 = g2, g1
			}
			if g1 != wantS || g2 != wantO {
				t.Fatalf("round %d step %d: SumRays = %v, %v, want %v, %v", round, i, g1, g2, wantS, wantO)
			}
		}
	}
}

// TestFlatPairForms drives an index without groups through the flat form's
// transitions: tombstones revived without a rebuild, tombstones dropped
// once they outnumber the live keys, and the move to the B+-tree when new
// keys keep arriving; the sums stay right throughout.
func TestFlatPairForms(t *testing.T) {
	var x RangeSumPairIndex[struct{}, float64, int64, float64]
	g := struct{}{}
	check := func(what string, live int, want1 int64, want2 float64) {
		t.Helper()
		checkBTree2(t, &x)
		if a, b := x.SumGreaterEq(g, -1e18); a != want1 || b != want2 || x.GroupLen(g) != live {
			t.Fatalf("%s: sums %d, %v over %d keys; want %d, %v over %d", what, a, b, x.GroupLen(g), want1, want2, live)
		}
	}
	x.flat.writes = 1 << 20 // budget for 3,000 new keys
	for k := range 3000 {
		x.Set(g, float64(k), 1, 2)
	}
	check("filled", 3000, 3000, 6000)
	if !x.isFlat() {
		t.Fatal("3,000 keys within budget: not flat")
	}
	for k := range 2990 {
		x.Set(g, float64(k), 0, 0)
	}
	check("emptied", 10, 10, 20)
	if !x.isFlat() || len(x.flat.keys) >= 3000 {
		t.Fatalf("flat %v, %d keys kept for 10 live: want the tombstones dropped", x.isFlat(), len(x.flat.keys))
	}
	kept := len(x.flat.keys)
	x.Set(g, float64(2989), 3, 4) // a tombstone: revived in place
	work := x.flat.work
	x.Set(g, float64(2989), 0, 0)
	x.Set(g, float64(2989), 5, 6)
	if x.flat.work != work || len(x.flat.keys) != kept {
		t.Fatalf("a tombstone revived: work %d → %d, keys %d → %d; want no rebuild", work, x.flat.work, kept, len(x.flat.keys))
	}
	check("revived", 11, 15, 26)

	// Keys arriving above all others (timestamps) are added without a
	// rebuild, and deleted ones dropped now and then: flat throughout.
	x.Reset()
	for k := range 5000 {
		x.Set(g, float64(k), 1, float64(k%3-1))
		if k >= 100 {
			x.Set(g, float64(k-100), 0, 0)
		}
		if k%1000 == 999 {
			checkBTree2(t, &x)
		}
	}
	check("appended", 100, 100, 0)
	if !x.isFlat() || x.flat.work > 1000 {
		t.Fatalf("keys appended: flat %v, work %d (compactions only)", x.isFlat(), x.flat.work)
	}

	// Keys arriving new below the others: moved to the tree.
	x.Reset()
	moved := -1
	for k := range 3000 {
		x.Set(g, float64(-k), 1, 1)
		if moved < 0 && !x.isFlat() {
			moved = k
		}
	}
	check("new keys", 3000, 3000, 3000)
	if moved < 1000 || moved > 2000 {
		t.Fatalf("keys arriving new: moved to the tree at key %d, want between 1,000 and 2,000", moved)
	}
}
