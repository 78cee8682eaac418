package runtime

import (
	"cmp"
	"iter"
)

// Threshold searches. With no negative value in a range-sum map (Negative
// false), the sum F(k) of the values above a key k (or below it) moves one
// way as k grows, so a condition on F(k) that is monotone in F holds on a
// ray of keys; Threshold finds the ray in one descent, keeping the sums
// above and below the current subtree as it goes. Generated code reads
// VWAP's "0.25 × total > the volume priced above this price" this way, then
// sums another map over the ray (SumRay): O(log n) per event.

// KeyRay is a set of keys: none, all, or those from Bound up (Up) or down,
// Bound included with Incl.
type KeyRay[T any] struct {
	None, All bool
	Bound     T
	Up, Incl  bool
}

// InRay reports whether key k is in ray r. Generated code tests each
// entry of a map it loops over against a ray searched once, where the
// map's loop binds keys beside the ray's (MissedTrades' bids by broker and
// price, kept where the volume priced above is below a quarter of all).
func InRay[T cmp.Ordered](r KeyRay[T], k T) bool {
	switch {
	case r.None:
		return false
	case r.All:
		return true
	case r.Up:
		return k > r.Bound || r.Incl && k == r.Bound
	}
	return k < r.Bound || r.Incl && k == r.Bound
}

// SumBound is the condition of a threshold read that compares the sum F
// with a bound C: F < C (Below), F ≤ C (Below, Incl), F > C, F ≥ C. The
// ThresholdBound methods search by it as the Threshold methods by a pred
// function, comparing inline where a pred is a call per entry scanned. A
// NaN bound holds for no sum.
type SumBound[V Number] struct {
	C           V
	Below, Incl bool
}

func (b SumBound[V]) holds(f V) bool {
	if b.Below {
		return f < b.C || b.Incl && f == b.C
	}
	return f > b.C || b.Incl && f == b.C
}

// Threshold returns the keys k, over all values of the key type, where
// pred(F(k)) holds, F(k) being the sum of the values of the keys above k
// (above) or below it (!above), k itself included with incl. The map must
// have no negative value (Negative), and pred must be monotone along F:
// then the keys where it holds are a ray.
func (s *RangeSum[T, V]) Threshold(above, incl bool, pred func(V) bool) KeyRay[T] {
	if s == nil {
		s = &RangeSum[T, V]{}
	}
	return s.t.threshold(above, incl, pred)
}

// ThresholdBound is Threshold by condition c.
func (s *RangeSum[T, V]) ThresholdBound(above, incl bool, c SumBound[V]) KeyRay[T] {
	return s.Threshold(above, incl, c.holds)
}

// SumRay returns the sum of the values of the keys in r.
func (s *RangeSum[T, V]) SumRay(r KeyRay[T]) V {
	if s == nil {
		return 0
	}
	return s.t.sumRay(r)
}

// Threshold is RangeSum.Threshold over group g's keys.
func (x *RangeSumIndex[K, T, V]) Threshold(g K, above, incl bool, pred func(V) bool) KeyRay[T] {
	return x.a.threshold(x.groups.root(g), above, incl, pred)
}

// ThresholdBound is Threshold by condition c.
func (x *RangeSumIndex[K, T, V]) ThresholdBound(g K, above, incl bool, c SumBound[V]) KeyRay[T] {
	return x.Threshold(g, above, incl, c.holds)
}

// SumRay returns the sum of the values of group g's keys in r.
func (x *RangeSumIndex[K, T, V]) SumRay(g K, r KeyRay[T]) V {
	return x.a.sumRay(x.groups.root(g), r)
}

func (a *sumTreap[T, V]) sumRay(t int32, r KeyRay[T]) V {
	switch {
	case r.None:
		return 0
	case r.All:
		return a.nodes0sum(t)
	case r.Up:
		return a.sumAbove(t, r.Bound, r.Incl)
	}
	return a.sumBelow(t, r.Bound, r.Incl)
}

func (a *sumTreap[T, V]) threshold(t int32, above, incl bool, pred func(V) bool) KeyRay[T] {
	total := a.nodes0sum(t)
	// g(k) = pred(F(k)) at the ends of the key order.
	var lowF, highF V = total, 0
	if !above {
		lowF, highF = 0, total
	}
	gLow, gHigh := pred(lowF), pred(highF)
	if gLow == gHigh {
		return KeyRay[T]{All: gLow, None: !gLow}
	}
	up := !gLow // g goes false → true along the keys
	// The least key m where g(m) == up, and the greatest where it is not
	// (its predecessor), in one descent.
	var accAbove, accBelow V
	var cand, prev T
	for n := t; n != 0; {
		nd := &a.nodes[n]
		var f V
		if above {
			f = accAbove + a.nodes[nd.right].sum
		} else {
			f = accBelow + a.nodes[nd.left].sum
		}
		if incl {
			f += nd.val
		}
		if pred(f) == up {
			cand = nd.key
			accAbove += a.nodes[nd.right].sum + nd.val
			n = nd.left
		} else {
			prev = nd.key
			accBelow += a.nodes[nd.left].sum + nd.val
			n = nd.right
		}
	}
	// F is constant between keys; at a key m it takes the value of the
	// interval right of m (SumGreater, SumLessEq) or left of it (SumGreaterEq,
	// SumLess), and so does g.
	if above != incl { // right-valued: g changes at cand
		return KeyRay[T]{Bound: cand, Up: up, Incl: up}
	}
	// Left-valued: g changes just after prev, the greatest key where g is
	// not up (there is one: g at the first key is g's value below it).
	return KeyRay[T]{Bound: prev, Up: up, Incl: !up}
}

// SumRays returns the sum of the values of the keys in both r and q.
func (s *RangeSum[T, V]) SumRays(r, q KeyRay[T]) V {
	if s == nil {
		return 0
	}
	one, lo, hi, between := meetRays(r, q)
	if between {
		return s.SumBetween(lo.Bound, lo.Incl, hi.Bound, hi.Incl)
	}
	return s.t.sumRay(one)
}

// SumRays returns the sum of the values of group g's keys in both r and q.
func (x *RangeSumIndex[K, T, V]) SumRays(g K, r, q KeyRay[T]) V {
	one, lo, hi, between := meetRays(r, q)
	if between {
		return x.SumBetween(g, lo.Bound, lo.Incl, hi.Bound, hi.Incl)
	}
	return x.a.sumRay(x.groups.root(g), one)
}

// meetRays returns the keys in both r and q: one ray, or (between) the
// keys from lo's bound up to hi's.
func meetRays[T cmp.Ordered](r, q KeyRay[T]) (one, lo, hi KeyRay[T], between bool) {
	switch {
	case r.None || q.All:
		return r, lo, hi, false
	case q.None || r.All:
		return q, lo, hi, false
	case r.Up == q.Up:
		// The narrower of two rays the same way.
		if r.Bound == q.Bound {
			if r.Incl {
				return q, lo, hi, false
			}
			return r, lo, hi, false
		}
		if (r.Bound > q.Bound) == r.Up {
			return r, lo, hi, false
		}
		return q, lo, hi, false
	case r.Up:
		return one, r, q, true
	}
	return one, q, r, true
}

// GroupSumRay yields each group with the sum of the values of its keys in
// r (SumRay), the groups in no particular order: generated code assigns a
// := target keyed by the groups from one ray searched once (MissedTrades'
// volume of each broker's bids priced where the volume above is below a
// quarter of all). The index must not change during the iteration.
func (x *RangeSumIndex[K, T, V]) GroupSumRay(r KeyRay[T]) iter.Seq2[K, V] {
	return groupSums(&x.groups, func(t treeRoot) V { return x.a.sumRay(t.root, r) })
}

// GroupSumRays is GroupSumRay over the keys in both r and q (SumRays).
func (x *RangeSumIndex[K, T, V]) GroupSumRays(r, q KeyRay[T]) iter.Seq2[K, V] {
	one, lo, hi, between := meetRays(r, q)
	return groupSums(&x.groups, func(t treeRoot) V {
		if between {
			return x.a.sumBetween(t.root, lo.Bound, lo.Incl, hi.Bound, hi.Incl)
		}
		return x.a.sumRay(t.root, one)
	})
}

// The group sums of a pair index: each method's closure loops over the
// groups itself, the flat form's one group aside (flatGroupSum). A shared
// helper taking both sums as callbacks is not inlined: MissedTrades ran
// 5% slower through it.

// GroupSumRay1 is RangeSumIndex.GroupSumRay over lane 1.
func (x *RangeSumPairIndex[K, T, V1, V2]) GroupSumRay1(r KeyRay[T]) iter.Seq2[K, V1] {
	return func(yield func(K, V1) bool) {
		if x.isFlat() {
			s, _ := x.flat.sumRay(r)
			flatGroupSum(x.flat.live, yield, s)
			return
		}
		for g, i := range x.groups.pos {
			if s, _ := x.a.sumRay(x.groups.roots[i], r); !yield(g, s) {
				return
			}
		}
	}
}

// GroupSumRay2 is RangeSumIndex.GroupSumRay over lane 2.
func (x *RangeSumPairIndex[K, T, V1, V2]) GroupSumRay2(r KeyRay[T]) iter.Seq2[K, V2] {
	return func(yield func(K, V2) bool) {
		if x.isFlat() {
			_, s := x.flat.sumRay(r)
			flatGroupSum(x.flat.live, yield, s)
			return
		}
		for g, i := range x.groups.pos {
			if _, s := x.a.sumRay(x.groups.roots[i], r); !yield(g, s) {
				return
			}
		}
	}
}

// GroupSumRays1 is RangeSumIndex.GroupSumRays over lane 1.
func (x *RangeSumPairIndex[K, T, V1, V2]) GroupSumRays1(r, q KeyRay[T]) iter.Seq2[K, V1] {
	return func(yield func(K, V1) bool) {
		if x.isFlat() {
			s, _ := x.flat.sumRays(r, q)
			flatGroupSum(x.flat.live, yield, s)
			return
		}
		for g, i := range x.groups.pos {
			if s, _ := x.a.sumRays(x.groups.roots[i], r, q); !yield(g, s) {
				return
			}
		}
	}
}

// GroupSumRays2 is RangeSumIndex.GroupSumRays over lane 2.
func (x *RangeSumPairIndex[K, T, V1, V2]) GroupSumRays2(r, q KeyRay[T]) iter.Seq2[K, V2] {
	return func(yield func(K, V2) bool) {
		if x.isFlat() {
			_, s := x.flat.sumRays(r, q)
			flatGroupSum(x.flat.live, yield, s)
			return
		}
		for g, i := range x.groups.pos {
			if _, s := x.a.sumRays(x.groups.roots[i], r, q); !yield(g, s) {
				return
			}
		}
	}
}

// flatGroupSum yields the one group of a flat pair index (K's zero value)
// with sum s, if the index has keys.
func flatGroupSum[K comparable, V Number](keys int, yield func(K, V) bool, s V) {
	if keys > 0 {
		var g K
		yield(g, s)
	}
}

// groupSums yields each group of gs with sum of its tree.
func groupSums[K comparable, V Number](gs *groupRoots[K], sum func(treeRoot) V) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for g, i := range gs.pos {
			if !yield(g, sum(gs.roots[i])) {
				return
			}
		}
	}
}
