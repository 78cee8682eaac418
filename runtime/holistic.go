package runtime

import (
	"cmp"
	"math"
)

// Holistic aggregates: PERCENTILE_CONT, PERCENTILE_DISC (MEDIAN is
// PERCENTILE_CONT(0.5)) and MODE. Generated code keeps, per group, the
// multiplicity of each value of the aggregate's argument: in a range-sum
// index for the percentiles (its subtree sums count values, so that the
// value at a rank is one O(log n) descent, Select), in a ModeIndex for
// MODE. The functions here turn a group's count n into the ranks to read.

// ContRanks gives the ranks (0-based, in ascending order of n values) that
// PERCENTILE_CONT(p) reads: its value is x[a] + f·(x[b] − x[a]) (see
// Interpolate). In ascending order the fractional rank is p·(n−1); desc
// (WITHIN GROUP (ORDER BY x DESC)) counts it from the greatest value.
func ContRanks(n int64, p float64, desc bool) (a, b int64, f float64) {
	rn := p * float64(n-1)
	lo := int64(rn)
	hi := lo
	if float64(lo) < rn {
		hi = lo + 1
	}
	f = rn - float64(lo)
	if desc {
		return n - 1 - lo, n - 1 - hi, f
	}
	return lo, hi, f
}

// Interpolate is PERCENTILE_CONT's value between the values xa and xb at
// its two ranks (ContRanks).
func Interpolate(xa, xb, f float64) float64 {
	if f == 0 {
		return xa
	}
	return xa + f*(xb-xa)
}

// DiscRank gives the rank (0-based, ascending) of PERCENTILE_DISC(p) among
// n values: the first value, in the aggregate's order, whose cumulative
// share of the values reaches p.
func DiscRank(n int64, p float64, desc bool) int64 {
	i := max(0, min(int64(math.Ceil(p*float64(n)))-1, n-1))
	if desc {
		return n - 1 - i
	}
	return i
}

// Select returns the key at rank i (0-based) of the multiset whose
// multiplicities are the values: the least key whose values, with those of
// the keys below it, sum to more than i. It returns the zero key when i is
// out of range. The values must not be negative.
func (s *RangeSum[T, V]) Select(i V) T {
	if s == nil {
		var zero T
		return zero
	}
	return s.t.sel(i)
}

// Select returns the key at rank i (0-based) of group g (see RangeSum.Select).
func (x *RangeSumIndex[K, T, V]) Select(g K, i V) T { return x.a.sel(x.groups.root(g), i) }

func (a *sumTreap[T, V]) sel(t int32, i V) T {
	for t != 0 {
		nd := &a.nodes[t]
		if l := a.nodes[nd.left].sum; i < l {
			t = nd.left
		} else if i -= l; i < nd.val {
			return nd.key
		} else {
			i -= nd.val
			t = nd.right
		}
	}
	var zero T
	return zero
}

// ModeIndex keeps, per group key, the multiplicity of each value and the
// group's most frequent value: the storage behind MODE in generated code.
// Add and Mode take a hash lookup and O(log n) expected time in the number
// n of distinct values of the group; values whose multiplicity is 0 are
// dropped, a group with no value too.
//
// Beside the counts it keeps two ordered indexes built from Multiset's
// treaps: per group, the multiset of the counts of its values (the mode's
// count is the greatest), and per (group, count), the values with that
// count (the mode is the least of them, or the greatest for a MODE in
// descending order). The zero value is empty.
type ModeIndex[K comparable, T cmp.Ordered] struct {
	counts map[modeKey[K, T]]int64
	byCnt  OrderedIndex[K, int64]
	vals   OrderedIndex[modeCount[K], T]
}

type modeKey[K comparable, T cmp.Ordered] struct {
	g K
	v T
}

type modeCount[K comparable] struct {
	g K
	n int64
}

// Add adds d to the multiplicity of v in group g.
func (x *ModeIndex[K, T]) Add(g K, v T, d int64) {
	if d == 0 {
		return
	}
	if x.counts == nil {
		x.counts = make(map[modeKey[K, T]]int64)
	}
	k := modeKey[K, T]{g, v}
	x.Set(g, v, x.counts[k]+d)
}

// Set sets the multiplicity of v in group g to n (0 removes v).
func (x *ModeIndex[K, T]) Set(g K, v T, n int64) {
	k := modeKey[K, T]{g, v}
	old := x.counts[k]
	if old == n {
		return
	}
	if old != 0 {
		x.byCnt.Add(g, old, -1)
		x.vals.Add(modeCount[K]{g, old}, v, -1)
	}
	if n == 0 {
		delete(x.counts, k)
		return
	}
	if x.counts == nil {
		x.counts = make(map[modeKey[K, T]]int64)
	}
	x.counts[k] = n
	x.byCnt.Add(g, n, 1)
	x.vals.Add(modeCount[K]{g, n}, v, 1)
}

// Mode returns the most frequent value of group g — among equally frequent
// values the least, or with desc the greatest — and false if g has no value
// of positive multiplicity.
func (x *ModeIndex[K, T]) Mode(g K, desc bool) (T, bool) {
	n, ok := x.byCnt.Max(g)
	if !ok || n <= 0 {
		// No value of positive multiplicity (a negative one is a delete
		// of an absent tuple, no occurrence).
		var zero T
		return zero, false
	}
	if desc {
		return x.vals.Max(modeCount[K]{g, n})
	}
	return x.vals.Min(modeCount[K]{g, n})
}

// Reset empties the index, keeping its storage for reuse.
func (x *ModeIndex[K, T]) Reset() {
	clear(x.counts)
	x.byCnt.Reset()
	x.vals.Reset()
}
