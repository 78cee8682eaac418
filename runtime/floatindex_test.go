package runtime

import (
	"iter"
	"math"
	"math/rand/v2"
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
	if _, ok := x.Get(negZero); ok || x.Len() != 2 {
		t.Errorf("Delete(0) left −0 (%d keys)", x.Len())
	}
	for range x.All() {
		break // an early stop ends the loop
	}
}

// TestFloatIndexRandom checks FloatIndex against a Go map through random
// sets and deletes over few keys and many (tombstones reused, rebuilds),
// and iterations whose bodies set and delete keys, as a loop over a
// fused table may: every key present throughout is produced once with its
// position, none deleted before it is reached, none twice.
func TestFloatIndexRandom(t *testing.T) {
	testIndexRandom(t, func() positionIndex[float64] { return new(FloatIndex) }, func(i int) float64 { return float64(i) * 0.5 })
}

// TestIntIndexRandom is TestFloatIndexRandom for IntIndex, over keys of
// either sign and the extremes of int64.
func TestIntIndexRandom(t *testing.T) {
	testIndexRandom(t, func() positionIndex[int64] { return new(IntIndex) }, func(i int) int64 {
		switch i {
		case 0:
			return math.MinInt64
		case 1:
			return math.MaxInt64
		}
		return int64(i-10) * 0x9e3779b1
	})
}

// positionIndex is what FloatIndex and IntIndex have in common.
type positionIndex[K comparable] interface {
	Get(K) (int32, bool)
	Set(K, int32)
	Delete(K)
	Len() int
	All() iter.Seq2[K, int32]
}

// testIndexRandom drives indexes made by newIndex against a Go map, with
// keys keyOf(0 … n−1).
func testIndexRandom[K comparable](t *testing.T, newIndex func() positionIndex[K], keyOf func(int) K) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 30 {
		x := newIndex()
		model := map[K]int32{}
		keys := 1 + rng.IntN(20)
		if round%3 == 2 {
			keys = 3000
		}
		key := func() K { return keyOf(rng.IntN(keys)) }
		for step := range 4000 {
			k := key()
			if rng.IntN(3) == 0 {
				x.Delete(k)
				delete(model, k)
			} else {
				i := int32(rng.IntN(1 << 20))
				x.Set(k, i)
				model[k] = i
			}
			want, have := model[k]
			if i, ok := x.Get(k); ok != have || ok && i != want || x.Len() != len(model) {
				t.Fatalf("round %d step %d: Get(%v) = %d, %v; model %v; Len %d, want %d", round, step, k, i, ok, model, x.Len(), len(model))
			}
			if step%200 != 199 {
				continue
			}
			// Iterate, setting and deleting keys in the body.
			before := map[K]int32{}
			for k, i := range model {
				before[k] = i
			}
			deleted, added := map[K]bool{}, map[K]bool{}
			seen := map[K]bool{}
			for k, i := range x.All() {
				if seen[k] {
					t.Fatalf("round %d: All yields %v twice", round, k)
				}
				seen[k] = true
				if deleted[k] {
					t.Fatalf("round %d: All yields %v, deleted before it was reached", round, k)
				}
				if want, ok := model[k]; !ok || want != i {
					t.Fatalf("round %d: All yields %v at %d; the index has it at %d (%v)", round, k, i, want, ok)
				}
				for range rng.IntN(4) {
					m := key()
					if rng.IntN(2) == 0 {
						x.Delete(m)
						delete(model, m)
						if !seen[m] {
							deleted[m] = true
						}
					} else {
						x.Set(m, 7)
						model[m] = 7
						if _, was := before[m]; !was || deleted[m] {
							added[m] = true
						}
						delete(deleted, m)
					}
				}
			}
			for k := range before {
				if _, still := model[k]; still && !seen[k] && !added[k] && !deleted[k] {
					t.Fatalf("round %d: All skipped %v, present throughout", round, k)
				}
			}
		}
	}
}

// TestFloatIndexRebuiltUnderAll fills an index while iterating over it, so
// that its slots are rebuilt under the iteration, deleting keys not yet
// reached: the iteration still produces each key present throughout once
// and no deleted key. The same for IntIndex, whose All is a copy.
func TestFloatIndexRebuiltUnderAll(t *testing.T) {
	var x FloatIndex
	testRebuiltUnderAll(t, &x, &x.t, func(i int) float64 { return float64(i) })
	var y IntIndex
	testRebuiltUnderAll(t, &y, &y.t, func(i int) int64 { return int64(i) })
}

func testRebuiltUnderAll[K comparable](t *testing.T, x positionIndex[K], bt *bitsIndex, key func(int) K) {
	for k := range 12 {
		x.Set(key(k), int32(k))
	}
	gen := bt.gen
	seen := map[K]bool{}
	deleted := false
	for k, i := range x.All() {
		added := i == 0 && k != key(0) // set in the loop: may be produced
		known := false
		for m := range 12 {
			known = known || k == key(m) && i == int32(m)
		}
		if seen[k] || !added && !known || k == key(11) && deleted {
			t.Fatalf("All yields %v at %d (seen before: %v, deleted: %v)", k, i, seen[k], deleted)
		}
		if len(seen) == 0 {
			for m := range 100 {
				x.Set(key(100+m), 0) // fills the slots: rebuilt
			}
			if k != key(11) {
				x.Delete(key(11))
				deleted = true
			}
		}
		seen[k] = true
	}
	if bt.gen == gen {
		t.Fatal("the slots were not rebuilt under the iteration")
	}
	for k := range 11 {
		if !seen[key(k)] {
			t.Fatalf("All skipped %v", key(k))
		}
	}
}
