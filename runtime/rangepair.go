package runtime

import "cmp"

// RangeSumPairIndex is two RangeSumIndexes over the same group and ordered
// keys in one: per group one B+-tree (sumBTree2) whose entries hold a value
// of each of two maps (lanes 1 and 2), its inner entries both sums of
// their subtrees; the groups' trees share one node slice. Generated code
// keeps one
// for two maps fused in a table (an entry per key, a value per map) that
// nested aggregates sum over ranges of the same key: AXFinder's count and
// volume of a broker's asks priced away from a bid. An event then finds the
// group once, writes both values in one descent, and reads both range sums
// in one (the methods without a lane number return both); the numbered
// methods read or write one lane. A key leaves the tree when both its
// values are 0. An index without groups (K struct{}) starts in a flat
// form instead, sorted arrays and Fenwick trees (flatPair), and moves to
// the B+-tree when that form stops paying or stops being exact; reads give
// the same results in either. The zero value is an empty index.
type RangeSumPairIndex[K comparable, T cmp.Ordered, V1, V2 Number] struct {
	a      sumBTree2[T, V1, V2]
	groups groupRoots[K]
	// flat holds the keys instead of a and groups while the index has no
	// groups (K is struct{}) and flatPair's conditions hold.
	flat flatPair[T, V1, V2]
}

// isFlat reports whether flat holds the keys.
func (x *RangeSumPairIndex[K, T, V1, V2]) isFlat() bool { return !x.flat.off }

// toTree moves the keys from flat to the B+-tree, for good (until Reset).
func (x *RangeSumPairIndex[K, T, V1, V2]) toTree(g K) {
	x.flat.off = true
	if x.flat.live == 0 {
		return
	}
	x.a.unsigned1, x.a.unsigned2, x.a.inexact = 0, 0, 0 // recounted as the keys go in
	r := x.groups.slot(g)
	x.flat.each(func(k T, v1 V1, v2 V2) { x.a.update(r, k, v1, v2, setBoth) })
	x.groups.settle(g)
	x.flat = flatPair[T, V1, V2]{off: true}
}

// pairOp says which lanes an update writes, and how.
type pairOp uint8

const (
	setBoth pairOp = iota // both lanes to v1, v2
	set1                  // lane 1 to v1
	set2                  // lane 2 to v2
	add1                  // v1 added to lane 1
	add2                  // v2 added to lane 2
)

func (x *RangeSumPairIndex[K, T, V1, V2]) update(g K, k T, v1 V1, v2 V2, op pairOp, at *int32) {
	if k != k {
		return // NaN: in no range
	}
	if x.isFlat() {
		if _, one := any(g).(struct{}); one && x.flat.update(&x.a, k, v1, v2, op, at) {
			return
		}
		x.toTree(g)
	}
	if _, ok := x.groups.find(g); !ok {
		if v1 == 0 && v2 == 0 {
			return // nothing to remove, nothing to add
		}
	}
	x.a.update(x.groups.slot(g), k, v1, v2, op)
	x.groups.settle(g)
}

// Set sets the values of key k in group g to v1 and v2 (both 0 remove k).
func (x *RangeSumPairIndex[K, T, V1, V2]) Set(g K, k T, v1 V1, v2 V2) {
	x.update(g, k, v1, v2, setBoth, nil)
}

// SetAt is Set with a hint: at is where the caller keeps k's position (a
// field of generated code's table entry for k, 0 at first). An index
// without groups checks it before it searches, and sets it to k's
// position; a stale hint costs a search, never a wrong key.
func (x *RangeSumPairIndex[K, T, V1, V2]) SetAt(at *int32, g K, k T, v1 V1, v2 V2) {
	x.update(g, k, v1, v2, setBoth, at)
}

// Set1 sets lane 1's value of key k in group g to v.
func (x *RangeSumPairIndex[K, T, V1, V2]) Set1(g K, k T, v V1) { x.update(g, k, v, 0, set1, nil) }

// Set2 sets lane 2's value of key k in group g to v.
func (x *RangeSumPairIndex[K, T, V1, V2]) Set2(g K, k T, v V2) { x.update(g, k, 0, v, set2, nil) }

// Add1 adds d to lane 1's value of key k in group g.
func (x *RangeSumPairIndex[K, T, V1, V2]) Add1(g K, k T, d V1) {
	if d != 0 {
		x.update(g, k, d, 0, add1, nil)
	}
}

// Add2 adds d to lane 2's value of key k in group g.
func (x *RangeSumPairIndex[K, T, V1, V2]) Add2(g K, k T, d V2) {
	if d != 0 {
		x.update(g, k, 0, d, add2, nil)
	}
}

// Get returns the values of key k in group g (0 if absent).
func (x *RangeSumPairIndex[K, T, V1, V2]) Get(g K, k T) (V1, V2) {
	if x.isFlat() {
		return x.flat.get(k)
	}
	return x.a.get(x.groups.tree(g), k)
}

// Len returns the number of groups with keys.
func (x *RangeSumPairIndex[K, T, V1, V2]) Len() int {
	if x.isFlat() {
		return min(x.flat.live, 1)
	}
	return x.groups.len()
}

// GroupLen returns the number of keys of group g.
func (x *RangeSumPairIndex[K, T, V1, V2]) GroupLen(g K) int {
	if x.isFlat() {
		return x.flat.live
	}
	return int(x.groups.size(g))
}

// Negative1 reports whether a lane-1 value of any group is negative or NaN
// (see RangeSum.Negative).
func (x *RangeSumPairIndex[K, T, V1, V2]) Negative1() bool { return x.a.unsigned1 != 0 }

// Negative2 is Negative1 for lane 2.
func (x *RangeSumPairIndex[K, T, V1, V2]) Negative2() bool { return x.a.unsigned2 != 0 }

// SumLess returns the sums of each lane's values of group g's keys below k.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumLess(g K, k T) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumBelow(k, false)
	}
	return x.a.sumBelow(x.groups.tree(g), k, false)
}

// SumLessEq returns the sums of each lane's values of group g's keys at or
// below k.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumLessEq(g K, k T) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumBelow(k, true)
	}
	return x.a.sumBelow(x.groups.tree(g), k, true)
}

// SumGreater returns the sums of each lane's values of group g's keys above k.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumGreater(g K, k T) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumAbove(k, false)
	}
	return x.a.sumAbove(x.groups.tree(g), k, false)
}

// SumGreaterEq returns the sums of each lane's values of group g's keys at
// or above k.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumGreaterEq(g K, k T) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumAbove(k, true)
	}
	return x.a.sumAbove(x.groups.tree(g), k, true)
}

// SumSplit returns the sums of each lane's values of group g's keys below
// k and above k (each with k itself where belowIncl, aboveIncl say) in one
// descent: what SumLess and SumGreater (or their Eq forms) return, but for
// the order the values are added in (a float sum may differ in its last
// bits); all 0 when k is NaN. BrokerSpread reads a broker's counts and
// volumes before and after an event's time so.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumSplit(g K, k T, belowIncl, aboveIncl bool) (below1, above1 V1, below2, above2 V2) {
	if x.isFlat() {
		return x.flat.sumSplit(k, belowIncl, aboveIncl)
	}
	return x.a.sumSplit(x.groups.tree(g), k, belowIncl, aboveIncl)
}

// SumBetween returns the sums of each lane's values of group g's keys
// between lo and hi, each bound included or not.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumBetween(g K, lo T, loIncl bool, hi T, hiIncl bool) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumBetween(lo, loIncl, hi, hiIncl)
	}
	return x.a.sumBetween(x.groups.tree(g), lo, loIncl, hi, hiIncl)
}

// SumWhere returns the sums of each lane's values of group g's keys for
// which up and down hold (see RangeSum.SumWhere).
func (x *RangeSumPairIndex[K, T, V1, V2]) SumWhere(g K, up, down func(T) bool) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumWhere(up, down)
	}
	return x.a.sumWhere(x.groups.tree(g), up, down)
}

// SumWhereEither returns the sums of each lane's values of group g's keys
// for which up1 and down1 hold or up2 and down2 hold (see
// RangeSum.SumWhereEither).
func (x *RangeSumPairIndex[K, T, V1, V2]) SumWhereEither(g K, up1, down1, up2, down2 func(T) bool) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumWhereEither(up1, down1, up2, down2)
	}
	return x.a.sumWhereEither(x.groups.tree(g), up1, down1, up2, down2)
}

// The reads of one lane: the two-lane read, the other lane dropped.

// SumLess1 is SumLess of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumLess1(g K, k T) V1 { s, _ := x.SumLess(g, k); return s }

// SumLess2 is SumLess of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumLess2(g K, k T) V2 { _, s := x.SumLess(g, k); return s }

// SumLessEq1 is SumLessEq of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumLessEq1(g K, k T) V1 {
	s, _ := x.SumLessEq(g, k)
	return s
}

// SumLessEq2 is SumLessEq of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumLessEq2(g K, k T) V2 {
	_, s := x.SumLessEq(g, k)
	return s
}

// SumGreater1 is SumGreater of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumGreater1(g K, k T) V1 {
	s, _ := x.SumGreater(g, k)
	return s
}

// SumGreater2 is SumGreater of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumGreater2(g K, k T) V2 {
	_, s := x.SumGreater(g, k)
	return s
}

// SumGreaterEq1 is SumGreaterEq of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumGreaterEq1(g K, k T) V1 {
	s, _ := x.SumGreaterEq(g, k)
	return s
}

// SumGreaterEq2 is SumGreaterEq of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumGreaterEq2(g K, k T) V2 {
	_, s := x.SumGreaterEq(g, k)
	return s
}

// SumSplit1 is SumSplit of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumSplit1(g K, k T, belowIncl, aboveIncl bool) (below, above V1) {
	below, above, _, _ = x.SumSplit(g, k, belowIncl, aboveIncl)
	return
}

// SumSplit2 is SumSplit of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumSplit2(g K, k T, belowIncl, aboveIncl bool) (below, above V2) {
	_, _, below, above = x.SumSplit(g, k, belowIncl, aboveIncl)
	return
}

// SumBetween1 is SumBetween of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumBetween1(g K, lo T, loIncl bool, hi T, hiIncl bool) V1 {
	s, _ := x.SumBetween(g, lo, loIncl, hi, hiIncl)
	return s
}

// SumBetween2 is SumBetween of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumBetween2(g K, lo T, loIncl bool, hi T, hiIncl bool) V2 {
	_, s := x.SumBetween(g, lo, loIncl, hi, hiIncl)
	return s
}

// SumWhere1 is SumWhere of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumWhere1(g K, up, down func(T) bool) V1 {
	s, _ := x.SumWhere(g, up, down)
	return s
}

// SumWhere2 is SumWhere of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumWhere2(g K, up, down func(T) bool) V2 {
	_, s := x.SumWhere(g, up, down)
	return s
}

// SumWhereEither1 is SumWhereEither of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumWhereEither1(g K, up1, down1, up2, down2 func(T) bool) V1 {
	s, _ := x.SumWhereEither(g, up1, down1, up2, down2)
	return s
}

// SumWhereEither2 is SumWhereEither of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumWhereEither2(g K, up1, down1, up2, down2 func(T) bool) V2 {
	_, s := x.SumWhereEither(g, up1, down1, up2, down2)
	return s
}

// Reset empties the index, keeping its storage for reuse.
func (x *RangeSumPairIndex[K, T, V1, V2]) Reset() {
	x.a.reset()
	x.groups.reset()
	x.flat.reset()
}

// Threshold1 is RangeSum.Threshold over group g's lane-1 values: the keys
// k where pred(F(k)) holds, F(k) the sum of lane 1's values above k
// (above) or below it. Lane 1 must have no negative value (Negative1).
func (x *RangeSumPairIndex[K, T, V1, V2]) Threshold1(g K, above, incl bool, pred func(V1) bool) KeyRay[T] {
	r, _ := x.threshold1(g, above, incl, pred, nil)
	return r
}

// Threshold2 is Threshold1 over group g's lane-2 values; lane 2 must have
// no negative value (Negative2).
func (x *RangeSumPairIndex[K, T, V1, V2]) Threshold2(g K, above, incl bool, pred func(V2) bool) KeyRay[T] {
	return x.threshold2(g, above, incl, pred, nil)
}

// ThresholdSum2 returns the sum of group g's lane-2 values over the keys
// that Threshold1 returns, in the same descent.
func (x *RangeSumPairIndex[K, T, V1, V2]) ThresholdSum2(g K, above, incl bool, pred func(V1) bool) V2 {
	return x.thresholdSum1(g, above, incl, pred, nil)
}

// ThresholdBound1 is Threshold1 by condition c.
func (x *RangeSumPairIndex[K, T, V1, V2]) ThresholdBound1(g K, above, incl bool, c SumBound[V1]) KeyRay[T] {
	r, _ := x.threshold1(g, above, incl, nil, &c)
	return r
}

// ThresholdBound2 is Threshold2 by condition c.
func (x *RangeSumPairIndex[K, T, V1, V2]) ThresholdBound2(g K, above, incl bool, c SumBound[V2]) KeyRay[T] {
	return x.threshold2(g, above, incl, nil, &c)
}

// ThresholdBoundSum2 is ThresholdSum2 by condition c.
func (x *RangeSumPairIndex[K, T, V1, V2]) ThresholdBoundSum2(g K, above, incl bool, c SumBound[V1]) V2 {
	return x.thresholdSum1(g, above, incl, nil, &c)
}

// SumRay returns the sums of each lane's values of group g's keys in r.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumRay(g K, r KeyRay[T]) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumRay(r)
	}
	return x.a.sumRay(x.groups.tree(g), r)
}

// SumRays returns the sums of each lane's values of group g's keys in both
// r and q.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumRays(g K, r, q KeyRay[T]) (V1, V2) {
	if x.isFlat() {
		return x.flat.sumRays(r, q)
	}
	return x.a.sumRays(x.groups.tree(g), r, q)
}

// SumRay1 is SumRay of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumRay1(g K, r KeyRay[T]) V1 {
	s, _ := x.SumRay(g, r)
	return s
}

// SumRay2 is SumRay of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumRay2(g K, r KeyRay[T]) V2 {
	_, s := x.SumRay(g, r)
	return s
}

// SumRays1 is SumRays of lane 1 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumRays1(g K, r, q KeyRay[T]) V1 {
	s, _ := x.SumRays(g, r, q)
	return s
}

// SumRays2 is SumRays of lane 2 alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) SumRays2(g K, r, q KeyRay[T]) V2 {
	_, s := x.SumRays(g, r, q)
	return s
}

func (x *RangeSumPairIndex[K, T, V1, V2]) threshold1(g K, above, incl bool, pred func(V1) bool, bound *SumBound[V1]) (KeyRay[T], V2) {
	if x.isFlat() {
		c, s := x.flat.threshold1(above, incl, pred, bound)
		return x.flat.ray(c), s
	}
	return x.a.threshold1(x.groups.tree(g), above, incl, pred, bound)
}

// thresholdSum1 is threshold1's sum alone.
func (x *RangeSumPairIndex[K, T, V1, V2]) thresholdSum1(g K, above, incl bool, pred func(V1) bool, bound *SumBound[V1]) V2 {
	if x.isFlat() {
		_, s := x.flat.threshold1(above, incl, pred, bound)
		return s
	}
	_, s := x.a.threshold1(x.groups.tree(g), above, incl, pred, bound)
	return s
}

func (x *RangeSumPairIndex[K, T, V1, V2]) threshold2(g K, above, incl bool, pred func(V2) bool, bound *SumBound[V2]) KeyRay[T] {
	if x.isFlat() {
		return x.flat.ray(x.flat.threshold2(above, incl, pred, bound))
	}
	return x.a.threshold2(x.groups.tree(g), above, incl, pred, bound)
}
