package runtime

import (
	"cmp"
	"math/bits"
)

// flatPair holds the keys of a RangeSumPairIndex without groups (its group
// type is struct{}: VWAP's prices) while they are few and their values
// exact: the keys ascending in one array, each with its two values, and a
// Fenwick tree per lane over the positions. A write finds its key by
// binary search and adds its deltas to log₂ n cells; a threshold read is
// one Fenwick descent; a range read is two prefix sums. Against the
// B+-tree (three levels of 16-entry nodes at a few hundred keys) that is
// about half the work per event.
//
// The price is a new key below others: the arrays shift and the Fenwick
// trees are rebuilt, O(n) (a key above all is added in O(log n)). So a key whose values return to 0 stays as a tombstone
// (values 0, counted in no sum) for when it comes back, as prices on a
// book's tick grid do, until there are more than three per live key plus
// compactSlack, when they are dropped. The index leaves the flat form for
// the B+-tree for good (until Reset) when one of these holds:
//
//   - a value is not exactLane: the Fenwick cells add deltas, which is
//     exact only for such values (the B+-tree recomputes its sums from the
//     entries instead), so while flat every sum is the exact sum and
//     equals the B+-tree's bit for bit — which form holds the keys never
//     shows in a result;
//   - exactKeys keys would be live (the bound of exact sums);
//   - the rebuilds' work would exceed flatBudget per write (keys that keep
//     arriving new below others: each would cost O(n), the B+-tree's
//     O(log n)).
type flatPair[T cmp.Ordered, V1, V2 Number] struct {
	off    bool // the B+-tree holds the keys (set for good until Reset)
	keys   []T  // ascending, live keys and tombstones
	v1     []V1 // the keys' values
	v2     []V2
	f1     []V1 // Fenwick trees: f[p] sums the values at positions (p - p&-p, p], 1-based
	f2     []V2
	live   int   // keys with a value not 0
	sum1   V1    // the sums over all keys
	sum2   V2    //
	work   int64 // array entries moved by rebuilds and compactions
	writes int64 // updates applied
	// guess1 and guess2 are the positions that the last threshold search
	// over lane 1 (2) found: the next search checks them first.
	guess1, guess2 int
}

const (
	// flatBudget bounds the rebuild work per write, plus flatSlack (a
	// few milliseconds once: a book's first thousand prices arrive at
	// once, and pay for themselves over the events that follow): past it
	// new keys arrive too often for the flat form.
	flatBudget = 64
	flatSlack  = 1 << 20
	// compactSlack: tombstones are dropped once there are more than three
	// per live key plus compactSlack.
	compactSlack = 1024
)

func (f *flatPair[T, V1, V2]) reset() {
	*f = flatPair[T, V1, V2]{keys: f.keys[:0], v1: f.v1[:0], v2: f.v2[:0], f1: f.f1[:0], f2: f.f2[:0]}
}

// search returns the position of the first key not below k (NaN: 0) and
// whether it is k.
func (f *flatPair[T, V1, V2]) search(k T) (int, bool) {
	keys := f.keys
	if len(keys) == 0 {
		return 0, false
	}
	// The answer stays in [lo, lo+n] as n halves: a conditional move per
	// step, not a branch that the keys make unpredictable.
	lo, n := 0, len(keys)
	for n > 1 {
		h := n >> 1
		if keys[lo+h-1] < k {
			lo += h
		}
		n -= h
	}
	if keys[lo] < k {
		lo++
	}
	return lo, lo < len(keys) && keys[lo] == k
}

// rank returns the number of keys below x, or at or below x with incl.
func (f *flatPair[T, V1, V2]) rank(x T, incl bool) int {
	if !incl {
		i, _ := f.search(x)
		return i
	}
	lo, n := 0, len(f.keys)
	for n > 0 {
		h := n >> 1
		if f.keys[lo+h] <= x {
			lo += h + 1
			n -= h + 1
		} else {
			n = h
		}
	}
	return lo
}

// prefix returns both lanes' sums over the first p keys.
func (f *flatPair[T, V1, V2]) prefix(p int) (V1, V2) {
	return fenwickPrefix(f.f1, p), fenwickPrefix(f.f2, p)
}

// update applies op to key k (not NaN) and reports true, or reports false
// and changes nothing when the keys must move to the B+-tree (see
// flatPair). b keeps the unsigned and inexact counts of both forms. at, if
// not nil, is the caller's guess of k's position (RangeSumPairIndex.SetAt):
// checked first, and set to where k is.
func (f *flatPair[T, V1, V2]) update(b *sumBTree2[T, V1, V2], k T, v1 V1, v2 V2, op pairOp, at *int32) bool {
	i, found := -1, false
	if at != nil {
		if h := int(*at); uint(h) < uint(len(f.keys)) && f.keys[h] == k {
			i, found = h, true
		}
	}
	if i < 0 {
		i, found = f.search(k)
	}
	var o1 V1
	var o2 V2
	if found {
		o1, o2 = f.v1[i], f.v2[i]
	}
	n1, n2 := after(op, o1, o2, v1, v2)
	if !exactLane(n1) || !exactLane(n2) {
		return false
	}
	wasLive, isLive := o1 != 0 || o2 != 0, n1 != 0 || n2 != 0
	if !found {
		if !isLive {
			return true
		}
		if f.live+1 >= exactKeys || i < len(f.keys) && f.work+int64(len(f.keys)+1) > flatBudget*f.writes+flatSlack {
			return false // (a key at the end costs no rebuild)
		}
		f.insert(i, k)
	}
	if at != nil {
		*at = int32(i)
	}
	f.writes++
	// b's unsigned counts (its inexact count stays 0: every flat value is
	// exactLane).
	b.countUnsigned(o1, o2, n1, n2)
	d1, d2 := n1-o1, n2-o2
	f.v1[i], f.v2[i] = n1, n2
	f.sum1 += d1
	f.sum2 += d2
	for p, n := i+1, len(f.keys); p <= n; p += p & -p {
		f.f1[p] += d1
		f.f2[p] += d2
	}
	switch {
	case isLive && !wasLive:
		f.live++
	case wasLive && !isLive:
		f.live--
		if len(f.keys)-f.live > 3*f.live+compactSlack {
			f.compact()
		}
	}
	return true
}

// insert puts key k, values 0, at position i and rebuilds the Fenwick
// trees, or, at the end (a key above all: timestamps), adds their last
// cell in O(log n).
func (f *flatPair[T, V1, V2]) insert(i int, k T) {
	if i == len(f.keys) {
		f.keys = append(f.keys, k)
		f.v1 = append(f.v1, 0)
		f.v2 = append(f.v2, 0)
		if len(f.f1) == 0 {
			f.f1, f.f2 = append(f.f1, 0), append(f.f2, 0) // cell 0: unused
		}
		// Cell p sums positions (p - p&-p, p]: all but the new one's 0.
		p := len(f.keys)
		lo := p - p&-p
		f.f1 = append(f.f1, fenwickPrefix(f.f1, p-1)-fenwickPrefix(f.f1, lo))
		f.f2 = append(f.f2, fenwickPrefix(f.f2, p-1)-fenwickPrefix(f.f2, lo))
		return
	}
	f.keys = append(f.keys, k)
	f.v1 = append(f.v1, 0)
	f.v2 = append(f.v2, 0)
	copy(f.keys[i+1:], f.keys[i:])
	copy(f.v1[i+1:], f.v1[i:])
	copy(f.v2[i+1:], f.v2[i:])
	f.keys[i], f.v1[i], f.v2[i] = k, 0, 0
	f.rebuild()
}

// compact drops the tombstones and rebuilds the Fenwick trees.
func (f *flatPair[T, V1, V2]) compact() {
	w := 0
	for i := range f.keys {
		if f.v1[i] != 0 || f.v2[i] != 0 {
			f.keys[w], f.v1[w], f.v2[w] = f.keys[i], f.v1[i], f.v2[i]
			w++
		}
	}
	f.keys, f.v1, f.v2 = f.keys[:w], f.v1[:w], f.v2[:w]
	f.rebuild()
}

// rebuild computes the Fenwick trees from the values in O(n).
func (f *flatPair[T, V1, V2]) rebuild() {
	n := len(f.keys)
	f.work += int64(n)
	f.f1 = append(f.f1[:0], make([]V1, n+1)...)
	f.f2 = append(f.f2[:0], make([]V2, n+1)...)
	for p := 1; p <= n; p++ {
		f.f1[p] += f.v1[p-1]
		f.f2[p] += f.v2[p-1]
		if q := p + p&-p; q <= n {
			f.f1[q] += f.f1[p]
			f.f2[q] += f.f2[p]
		}
	}
}

// each yields the live keys and their values, ascending.
func (f *flatPair[T, V1, V2]) each(yield func(T, V1, V2)) {
	for i, k := range f.keys {
		if f.v1[i] != 0 || f.v2[i] != 0 {
			yield(k, f.v1[i], f.v2[i])
		}
	}
}

func (f *flatPair[T, V1, V2]) get(k T) (V1, V2) {
	if i, ok := f.search(k); ok {
		return f.v1[i], f.v2[i]
	}
	return 0, 0
}

// between returns both lanes' sums over positions [lo, hi).
func (f *flatPair[T, V1, V2]) between(lo, hi int) (V1, V2) {
	if hi <= lo {
		return 0, 0
	}
	a1, a2 := f.prefix(hi)
	b1, b2 := f.prefix(lo)
	return a1 - b1, a2 - b2
}

func (f *flatPair[T, V1, V2]) sumBelow(x T, incl bool) (V1, V2) {
	if x != x {
		return 0, 0
	}
	return f.prefix(f.rank(x, incl))
}

func (f *flatPair[T, V1, V2]) sumAbove(x T, incl bool) (V1, V2) {
	if x != x {
		return 0, 0
	}
	return f.between(f.rank(x, !incl), len(f.keys))
}

// sumSplit is sumBelow and sumAbove: two prefix sums either way.
func (f *flatPair[T, V1, V2]) sumSplit(x T, belowIncl, aboveIncl bool) (b1, a1 V1, b2, a2 V2) {
	b1, b2 = f.sumBelow(x, belowIncl)
	a1, a2 = f.sumAbove(x, aboveIncl)
	return
}

func (f *flatPair[T, V1, V2]) sumBetween(lo T, loIncl bool, hi T, hiIncl bool) (V1, V2) {
	if lo != lo || hi != hi {
		return 0, 0
	}
	return f.between(f.rank(lo, !loIncl), f.rank(hi, hiIncl))
}

// where returns the positions [lo, hi) of the keys where up and down hold
// (either nil: no bound), up being false then true along the keys, down
// true then false.
func (f *flatPair[T, V1, V2]) where(up, down func(T) bool) (lo, hi int) {
	hi = len(f.keys)
	if up != nil {
		lo = firstKey(f.keys, up, true)
	}
	if down != nil {
		hi = firstKey(f.keys, down, false)
	}
	return lo, hi
}

func (f *flatPair[T, V1, V2]) sumWhere(up, down func(T) bool) (V1, V2) {
	return f.between(f.where(up, down))
}

// sumWhereEither sums the union of two position ranges: both sums less
// the overlap's (exact: the sums are).
func (f *flatPair[T, V1, V2]) sumWhereEither(up1, down1, up2, down2 func(T) bool) (V1, V2) {
	lo1, hi1 := f.where(up1, down1)
	lo2, hi2 := f.where(up2, down2)
	a1, a2 := f.between(lo1, hi1)
	b1, b2 := f.between(lo2, hi2)
	c1, c2 := f.between(max(lo1, lo2), min(hi1, hi2))
	return a1 + b1 - c1, a2 + b2 - c2
}

func (f *flatPair[T, V1, V2]) sumRay(kr KeyRay[T]) (V1, V2) {
	switch {
	case kr.None:
		return 0, 0
	case kr.All:
		return f.sum1, f.sum2
	case kr.Up:
		return f.sumAbove(kr.Bound, kr.Incl)
	}
	return f.sumBelow(kr.Bound, kr.Incl)
}

func (f *flatPair[T, V1, V2]) sumRays(kr, kq KeyRay[T]) (V1, V2) {
	one, lo, hi, between := meetRays(kr, kq)
	if between {
		return f.sumBetween(lo.Bound, lo.Incl, hi.Bound, hi.Incl)
	}
	return f.sumRay(one)
}

// flatThreshold is laneThreshold on the flat form: the ray of keys k where
// pred(F(k)) holds (bound.holds when pred is nil), F(k) the sum of lane S
// (Fenwick tree fs, total ts) above k or below it, at k too
// with incl, and the other lane's sum over the ray (fo, vo, to).
//
// F(k_i) is h(P(i+off)), P the prefix sums of S, h(P) = ts - P (above) or
// P, off 1 where F changes at a key (above, not incl; or below, incl) and
// 0 where it changes just after one. Along the positions g(h(P(p))) goes
// from gLow (p = 0) to gHigh (p = n) once; one descent finds the last p
// where it is gLow. The key at that p changes P, so it is live: the ray's
// bound, as the B+-tree's search would give it.
//
// The ray comes back as a flatCut, not a KeyRay: returned through the
// callers, a struct of a T and four bools is written and read back in
// pieces, a store-forwarding stall per return.
func flatThreshold[T cmp.Ordered, S, O Number](keys []T, fs, vs []S, ts S, fo, vo []O, to O, guess *int, above, incl bool, pred func(S) bool, bound *SumBound[S]) (flatCut, O) {
	g := func(f S) bool {
		if pred != nil {
			return pred(f)
		}
		return bound.holds(f)
	}
	lowF, highF := ts, S(0)
	if !above {
		lowF, highF = 0, ts
	}
	gLow, gHigh := g(lowF), g(highF)
	if gLow == gHigh || len(keys) == 0 {
		if gLow {
			return cutAll, to
		}
		return cutNone, 0
	}
	// low reports whether g(h(a)) is gLow, for a = P(p). By a bound:
	// bound.holds(f) == gLow as one comparison, s·f < w or ≤ with orEq,
	// s = ±1 (negating is exact, and so is f).
	neg, orEq, w := false, false, S(0)
	if pred == nil {
		neg, orEq, w = bound.Below != gLow, bound.Incl == gLow, bound.C
		if neg {
			w = -w
		}
	}
	low := func(a S) bool {
		f := a
		if above {
			f = ts - a
		}
		if pred != nil {
			return pred(f) == gLow
		}
		if neg {
			f = -f
		}
		return f < w || orEq && f == w
	}
	// The last position where g is gLow: pos, with the prefix sums of
	// both lanes there. First the last search's answer, checked (the cut
	// moves seldom: VWAP's quarter of the volume stays at one price for
	// many events): two prefix sums, whose loops hold no branch on the
	// data, against a descent's branch per level that the sums decide.
	n := len(keys)
	var pos int
	var acc S
	var accO O
	if p := *guess; p < n {
		a := fenwickPrefix(fs, p)
		if low(a) && !low(a+vs[p]) {
			return flatCutAt(p, gLow, above, incl, vo, to, fenwickPrefix(fo, p))
		}
	}
	for step := 1 << (bits.Len(uint(n)) - 1); step > 0; step >>= 1 {
		if p := pos + step; p <= n {
			if a := acc + fs[p]; low(a) {
				pos, acc, accO = p, a, accO+fo[p]
			}
		}
	}
	*guess = pos
	return flatCutAt(pos, gLow, above, incl, vo, to, accO)
}

// fenwickPrefix returns the sum of the first p values of Fenwick tree f.
func fenwickPrefix[V Number](f []V, p int) (s V) {
	for ; p > 0; p &= p - 1 {
		s += f[p]
	}
	return s
}

// flatCutAt returns flatThreshold's cut at position pos, the last where g
// is gLow, and the other lane's sum over it from accO, that lane's sum
// over the positions before pos.
func flatCutAt[O Number](pos int, gLow, above, incl bool, vo []O, to, accO O) (flatCut, O) {
	// pos < n: g(h(P(n))) is gHigh. The key at pos is the ray's bound.
	up := !gLow
	rayIncl := up
	if above == incl { // F changes just after the key
		rayIncl = !up
	}
	cut := flatCut(pos) << cutShift
	if up {
		cut |= cutUp
	}
	if rayIncl {
		cut |= cutIncl
	}
	switch {
	case up && rayIncl: // positions pos..n-1
		return cut, to - accO
	case up:
		return cut, to - accO - vo[pos]
	case rayIncl: // positions 0..pos
		return cut, accO + vo[pos]
	}
	return cut, accO
}

// flatCut is a ray of flatThreshold: all keys, none, or the keys from or
// to the key at a position, that key included or not.
type flatCut uint64

const (
	cutAll flatCut = 1 << iota
	cutNone
	cutUp
	cutIncl
	cutShift = iota // the position, above the flags
)

// ray returns the KeyRay of cut c.
func (f *flatPair[T, V1, V2]) ray(c flatCut) KeyRay[T] {
	switch {
	case c&cutAll != 0:
		return KeyRay[T]{All: true}
	case c&cutNone != 0:
		return KeyRay[T]{None: true}
	}
	return KeyRay[T]{Bound: f.keys[c>>cutShift], Up: c&cutUp != 0, Incl: c&cutIncl != 0}
}

func (f *flatPair[T, V1, V2]) threshold1(above, incl bool, pred func(V1) bool, bound *SumBound[V1]) (flatCut, V2) {
	return flatThreshold(f.keys, f.f1, f.v1, f.sum1, f.f2, f.v2, f.sum2, &f.guess1, above, incl, pred, bound)
}

func (f *flatPair[T, V1, V2]) threshold2(above, incl bool, pred func(V2) bool, bound *SumBound[V2]) flatCut {
	c, _ := flatThreshold(f.keys, f.f2, f.v2, f.sum2, f.f1, f.v1, f.sum1, &f.guess2, above, incl, pred, bound)
	return c
}
