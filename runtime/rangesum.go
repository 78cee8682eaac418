package runtime

import (
	"cmp"
	"iter"
)

// Number is the value type of a map in generated code.
type Number interface{ ~int64 | ~float64 }

// RangeSum is an ordered map from keys to non-zero values that sums the
// values of a key range in O(log n): the storage behind nested aggregates
// such as SUM(v) WHERE k > x in generated code. Add and the Sum methods take
// O(log n) time in the number n of keys; a key whose value returns to
// exactly 0 is removed.
//
// It is a B+-tree whose inner nodes hold the sums of their children (see
// sumBTree); its nodes live in one slice, recycled through a free list, so
// that once it has grown to its working size nothing allocates. Sums are
// recomputed from the entries (never adjusted by deltas), so float sums do
// not drift, and a range without keys sums to exactly 0. Keys are ordered
// by < (cmp.Compare on them); a NaN key is not stored (it is in no range:
// NaN compares false with every value in Go), and a NaN bound selects
// nothing. The zero value is empty; a nil *RangeSum reads as empty.
type RangeSum[T cmp.Ordered, V Number] struct {
	t sumBTree[T, V]
}

// Add adds d to the value of k.
func (s *RangeSum[T, V]) Add(k T, d V) {
	if d != 0 {
		s.t.update(k, d, true)
	}
}

// Set sets the value of k to v (0 removes k).
func (s *RangeSum[T, V]) Set(k T, v V) { s.t.update(k, v, false) }

// Get returns the value of k (0 if absent).
func (s *RangeSum[T, V]) Get(k T) V {
	if s == nil {
		return 0
	}
	return s.t.get(k)
}

// Len returns the number of keys.
func (s *RangeSum[T, V]) Len() int {
	if s == nil {
		return 0
	}
	return int(s.t.n)
}

// Total returns the sum of all values.
func (s *RangeSum[T, V]) Total() V {
	if s == nil {
		return 0
	}
	return s.t.total
}

// SumLess returns the sum of the values of the keys below x.
func (s *RangeSum[T, V]) SumLess(x T) V {
	if s == nil {
		return 0
	}
	return s.t.sumBelow(x, false)
}

// SumLessEq returns the sum of the values of the keys at or below x.
func (s *RangeSum[T, V]) SumLessEq(x T) V {
	if s == nil {
		return 0
	}
	return s.t.sumBelow(x, true)
}

// SumGreater returns the sum of the values of the keys above x.
func (s *RangeSum[T, V]) SumGreater(x T) V {
	if s == nil {
		return 0
	}
	return s.t.sumAbove(x, false)
}

// SumGreaterEq returns the sum of the values of the keys at or above x.
func (s *RangeSum[T, V]) SumGreaterEq(x T) V {
	if s == nil {
		return 0
	}
	return s.t.sumAbove(x, true)
}

// SumBetween returns the sum of the values of the keys between lo and hi,
// each bound included or not.
func (s *RangeSum[T, V]) SumBetween(lo T, loIncl bool, hi T, hiIncl bool) V {
	if s == nil {
		return 0
	}
	return s.t.sumBetween(lo, loIncl, hi, hiIncl)
}

// Negative reports whether a value is negative (or NaN): while none is, a
// sum over a range of keys does not grow as the range shrinks, so that a
// condition on it is monotone in the range's bound (generated code's
// threshold reads rely on it and loop while Negative holds).
func (s *RangeSum[T, V]) Negative() bool { return s != nil && s.t.unsigned != 0 }

// SumWhere returns the sum of the values of the keys k for which up(k)
// and down(k) hold, a nil predicate holding everywhere. up must be
// monotone in the key order, false then true (a condition k − p > c, say),
// and down true then false: the keys where both hold are a range, whose
// ends two descents find, evaluating the predicates O(log n) times.
func (s *RangeSum[T, V]) SumWhere(up, down func(T) bool) V {
	if s == nil {
		return 0
	}
	return s.t.sumWhere(up, down)
}

// SumWhereEither returns the sum of the values of the keys for which up1
// and down1 hold or up2 and down2 hold (see SumWhere): the sums of the two
// ranges, or of their union where they overlap, each key counted once.
func (s *RangeSum[T, V]) SumWhereEither(up1, down1, up2, down2 func(T) bool) V {
	if s == nil {
		return 0
	}
	return s.t.sumWhereEither(up1, down1, up2, down2)
}

// All iterates over the keys in ascending order with their values. The map
// must not change during the iteration.
func (s *RangeSum[T, V]) All() iter.Seq2[T, V] {
	return func(yield func(T, V) bool) {
		if s != nil {
			s.t.walk(yield)
		}
	}
}

// Reset empties the map, keeping its storage for reuse.
func (s *RangeSum[T, V]) Reset() { s.t.reset() }

// RangeSumIndex is one RangeSum per group key: generated code keeps one
// over the entries of a map whose values a nested aggregate sums over a
// range of one key, the group being the map's other (bound) keys. The trees
// of all groups share one node slice and free list, so that a new group
// allocates nothing but its hash-map slot; a group whose last key goes is
// dropped. The zero value is an empty index.
type RangeSumIndex[K comparable, T cmp.Ordered, V Number] struct {
	a      sumTreap[T, V]
	groups groupRoots[K]
}

// Add adds d to the value of key k in group g.
func (x *RangeSumIndex[K, T, V]) Add(g K, k T, d V) {
	if d == 0 {
		return
	}
	r := x.groups.slot(g)
	r.root = x.a.update(r.root, &r.n, k, d, true)
	x.groups.settle(g)
}

// Set sets the value of key k in group g to v (0 removes k).
func (x *RangeSumIndex[K, T, V]) Set(g K, k T, v V) {
	if v == 0 {
		if _, ok := x.groups.find(g); !ok {
			return
		}
	}
	r := x.groups.slot(g)
	r.root = x.a.update(r.root, &r.n, k, v, false)
	x.groups.settle(g)
}

// Get returns the value of key k in group g (0 if absent).
func (x *RangeSumIndex[K, T, V]) Get(g K, k T) V { return x.a.get(x.groups.root(g), k) }

// Len returns the number of groups with keys.
func (x *RangeSumIndex[K, T, V]) Len() int { return x.groups.len() }

// GroupLen returns the number of keys of group g.
func (x *RangeSumIndex[K, T, V]) GroupLen(g K) int { return int(x.groups.size(g)) }

// Total returns the sum of the values of group g.
func (x *RangeSumIndex[K, T, V]) Total(g K) V { return x.a.nodes0sum(x.groups.root(g)) }

// SumLess returns the sum of the values of group g's keys below k.
func (x *RangeSumIndex[K, T, V]) SumLess(g K, k T) V {
	return x.a.sumBelow(x.groups.root(g), k, false)
}

// SumLessEq returns the sum of the values of group g's keys at or below k.
func (x *RangeSumIndex[K, T, V]) SumLessEq(g K, k T) V {
	return x.a.sumBelow(x.groups.root(g), k, true)
}

// SumGreater returns the sum of the values of group g's keys above k.
func (x *RangeSumIndex[K, T, V]) SumGreater(g K, k T) V {
	return x.a.sumAbove(x.groups.root(g), k, false)
}

// SumGreaterEq returns the sum of the values of group g's keys at or above k.
func (x *RangeSumIndex[K, T, V]) SumGreaterEq(g K, k T) V {
	return x.a.sumAbove(x.groups.root(g), k, true)
}

// SumSplit returns the sums of the values of group g's keys below k and
// above k (each with k itself where belowIncl, aboveIncl say) in one
// descent: what SumLess and SumGreater (or their Eq forms) return, but
// for the order the values are added in (a float sum may differ in its
// last bits); both are 0 when k is NaN.
func (x *RangeSumIndex[K, T, V]) SumSplit(g K, k T, belowIncl, aboveIncl bool) (below, above V) {
	return x.a.sumSplit(x.groups.root(g), k, belowIncl, aboveIncl)
}

// SumBetween returns the sum of the values of group g's keys between lo
// and hi, each bound included or not.
func (x *RangeSumIndex[K, T, V]) SumBetween(g K, lo T, loIncl bool, hi T, hiIncl bool) V {
	return x.a.sumBetween(x.groups.root(g), lo, loIncl, hi, hiIncl)
}

// Negative reports whether a value of any group is negative or NaN (see
// RangeSum.Unsigned).
func (x *RangeSumIndex[K, T, V]) Negative() bool { return x.a.unsigned != 0 }

// SumWhere returns the sum of the values of group g's keys for which up
// and down hold (see RangeSum.SumWhere).
func (x *RangeSumIndex[K, T, V]) SumWhere(g K, up, down func(T) bool) V {
	return x.a.sumWhere(x.groups.root(g), up, down)
}

// SumWhereEither returns the sum of the values of group g's keys for which
// up1 and down1 hold or up2 and down2 hold (see RangeSum.SumWhereEither).
func (x *RangeSumIndex[K, T, V]) SumWhereEither(g K, up1, down1, up2, down2 func(T) bool) V {
	return x.a.sumWhereEither(x.groups.root(g), up1, down1, up2, down2)
}

// Group iterates over the keys of group g in ascending order with their
// values. The index must not change during the iteration.
func (x *RangeSumIndex[K, T, V]) Group(g K) iter.Seq2[T, V] {
	return func(yield func(T, V) bool) { x.a.walk(x.groups.root(g), yield) }
}

// Reset empties the index, keeping its storage for reuse.
func (x *RangeSumIndex[K, T, V]) Reset() {
	x.a.reset()
	x.groups.reset()
}

// sumTreap is the node storage of one or more treaps with subtree sums,
// each identified by its root (0: empty). Node 0 is the nil sentinel: its
// sum stays 0.
type sumTreap[T cmp.Ordered, V Number] struct {
	nodes []rsNode[T, V] // live and free nodes
	free  int32          // head of the free list, linked through left; 0 if empty
	seed  uint32
	// unsigned counts the keys whose value is not ≥ 0 (negative or NaN), in
	// all trees: while it is 0, a sum over a range shrinks as the range does
	// (Negative).
	unsigned int32
	path     []int32 // change's descent, kept for reuse
}

type rsNode[T cmp.Ordered, V Number] struct {
	key         T
	val, sum    V      // the key's value; the sum of the subtree's values
	pri         uint32 // heap order: a parent's priority is not below its children's
	left, right int32
}

func (a *sumTreap[T, V]) nodes0sum(t int32) V {
	if t == 0 {
		return 0
	}
	return a.nodes[t].sum
}

// pull recomputes the sum of node t from its children.
func (a *sumTreap[T, V]) pull(t int32) {
	nd := &a.nodes[t]
	nd.sum = a.nodes[nd.left].sum + nd.val + a.nodes[nd.right].sum
}

// update adds v to the value of k (add) or sets it to v in the subtree t
// holding *size keys, removing k when its value becomes 0, and returns the
// subtree's new root. A node is allocated before the descent, so the slice
// does not move under the recursion.
func (a *sumTreap[T, V]) update(t int32, size *int32, k T, v V, add bool) int32 {
	if k != k {
		return t // NaN: in no range
	}
	if r, found := a.change(t, size, k, v, add); found {
		return r
	}
	if v == 0 {
		return t
	}
	x := a.alloc()
	nd := &a.nodes[x]
	nd.key, nd.val, nd.sum, nd.pri, nd.left, nd.right = k, v, v, a.rand(), 0, 0
	if !(v >= 0) {
		a.unsigned++
	}
	*size++
	return a.insert(t, x)
}

// Keys are compared with < and >, not cmp.Compare: no stored key is NaN
// (update drops them), and get and change are called with keys that
// are not NaN, so the two orders agree and the descents skip the NaN tests.

func (a *sumTreap[T, V]) get(t int32, k T) V {
	if k != k {
		return 0 // NaN: never stored
	}
	for t != 0 {
		nd := &a.nodes[t]
		switch {
		case k < nd.key:
			t = nd.left
		case k > nd.key:
			t = nd.right
		default:
			return nd.val
		}
	}
	return 0
}

// change updates the value of k in subtree t and returns the subtree's new
// root, if k is in it (found); else it changes nothing. It descends
// without recursion, keeping the path in a.path, and recomputes the sums
// of the path's nodes bottom-up once the value has changed.
func (a *sumTreap[T, V]) change(t int32, size *int32, k T, v V, add bool) (root int32, found bool) {
	path := a.path[:0]
	n := t
	for n != 0 {
		nd := &a.nodes[n]
		if k < nd.key {
			path = append(path, n)
			n = nd.left
		} else if k > nd.key {
			path = append(path, n)
			n = nd.right
		} else {
			break
		}
	}
	a.path = path
	if n == 0 {
		return t, false
	}
	nd := &a.nodes[n]
	if add {
		v += nd.val
	}
	if !(nd.val >= 0) {
		a.unsigned--
	}
	if v != 0 && !(v >= 0) {
		a.unsigned++
	}
	if v == 0 {
		// Remove n: its children's merge takes its place under its parent.
		r := a.merge(nd.left, nd.right)
		nd = &a.nodes[n]
		nd.left, nd.right = a.free, 0
		a.free = n
		*size--
		if len(path) == 0 {
			return r, true
		}
		p := &a.nodes[path[len(path)-1]]
		if p.left == n {
			p.left = r
		} else {
			p.right = r
		}
	} else {
		nd.val = v
		a.pull(n)
	}
	for i := len(path) - 1; i >= 0; i-- {
		a.pull(path[i])
	}
	return t, true
}

// insert adds node x (whose key is absent) to the subtree t and returns
// the subtree's new root.
func (a *sumTreap[T, V]) insert(t, x int32) int32 {
	if t == 0 {
		return x
	}
	if a.nodes[x].pri > a.nodes[t].pri {
		l, r := a.split(t, a.nodes[x].key)
		a.nodes[x].left, a.nodes[x].right = l, r
		a.pull(x)
		return x
	}
	if a.nodes[x].key < a.nodes[t].key {
		a.nodes[t].left = a.insert(a.nodes[t].left, x)
	} else {
		a.nodes[t].right = a.insert(a.nodes[t].right, x)
	}
	a.pull(t)
	return t
}

// split splits subtree t (not holding k) into the keys below and above k.
func (a *sumTreap[T, V]) split(t int32, k T) (int32, int32) {
	if t == 0 {
		return 0, 0
	}
	if a.nodes[t].key < k {
		l, r := a.split(a.nodes[t].right, k)
		a.nodes[t].right = l
		a.pull(t)
		return t, r
	}
	l, r := a.split(a.nodes[t].left, k)
	a.nodes[t].left = r
	a.pull(t)
	return l, t
}

// merge joins subtrees l and r, every key of l being below every key of r.
func (a *sumTreap[T, V]) merge(l, r int32) int32 {
	if l == 0 {
		return r
	}
	if r == 0 {
		return l
	}
	if a.nodes[l].pri > a.nodes[r].pri {
		a.nodes[l].right = a.merge(a.nodes[l].right, r)
		a.pull(l)
		return l
	}
	a.nodes[r].left = a.merge(l, a.nodes[r].left)
	a.pull(r)
	return r
}

// sumBelow sums the values of the keys below x (at or below, with incl).
func (a *sumTreap[T, V]) sumBelow(t int32, x T, incl bool) V {
	var s V
	for t != 0 {
		nd := &a.nodes[t]
		if nd.key < x || incl && nd.key == x {
			s += a.nodes[nd.left].sum + nd.val
			t = nd.right
		} else {
			t = nd.left
		}
	}
	return s
}

// sumAbove sums the values of the keys above x (at or above, with incl).
func (a *sumTreap[T, V]) sumAbove(t int32, x T, incl bool) V {
	var s V
	for t != 0 {
		nd := &a.nodes[t]
		if nd.key > x || incl && nd.key == x {
			s += a.nodes[nd.right].sum + nd.val
			t = nd.left
		} else {
			t = nd.right
		}
	}
	return s
}

// sumSplit is sumBelow and sumAbove at x in one descent: they take one
// path down to x's node, where the one goes left and the other right, and
// the subtrees they would walk below it lie wholly on their side.
func (a *sumTreap[T, V]) sumSplit(t int32, x T, belowIncl, aboveIncl bool) (below, above V) {
	if x != x {
		return 0, 0
	}
	for t != 0 {
		nd := &a.nodes[t]
		switch {
		case nd.key < x:
			below += a.nodes[nd.left].sum + nd.val
			t = nd.right
		case nd.key > x:
			above += a.nodes[nd.right].sum + nd.val
			t = nd.left
		default:
			below += a.nodes[nd.left].sum
			above += a.nodes[nd.right].sum
			if belowIncl {
				below += nd.val
			}
			if aboveIncl {
				above += nd.val
			}
			return below, above
		}
	}
	return below, above
}

// sumBetween sums the values of the keys in the range from lo to hi.
func (a *sumTreap[T, V]) sumBetween(t int32, lo T, loIncl bool, hi T, hiIncl bool) V {
	// Find the highest node in the range; the rest of the range is in its
	// left subtree (above lo) and its right subtree (below hi).
	for t != 0 {
		nd := &a.nodes[t]
		switch {
		case !(nd.key > lo || loIncl && nd.key == lo):
			t = nd.right
		case !(nd.key < hi || hiIncl && nd.key == hi):
			t = nd.left
		default:
			return a.sumAbove(nd.left, lo, loIncl) + nd.val + a.sumBelow(nd.right, hi, hiIncl)
		}
	}
	return 0
}

// keyRange is a range of keys, both ends included; empty when !ok.
type keyRange[T cmp.Ordered] struct {
	lo, hi       T
	hasLo, hasHi bool // a bound; without one the range is open at that end
	ok           bool
}

// where returns the range of the keys of tree t for which up and down hold
// (monotone predicates, see RangeSum.SumWhere): the least key where up
// holds, the greatest where down holds.
func (a *sumTreap[T, V]) where(t int32, up, down func(T) bool) keyRange[T] {
	r := keyRange[T]{ok: true}
	if up != nil {
		r.hasLo, r.ok = false, false
		for n := t; n != 0; {
			nd := &a.nodes[n]
			if up(nd.key) {
				r.lo, r.hasLo, r.ok = nd.key, true, true
				n = nd.left
			} else {
				n = nd.right
			}
		}
		if !r.ok {
			return r
		}
	}
	if down != nil {
		found := false
		for n := t; n != 0; {
			nd := &a.nodes[n]
			if down(nd.key) {
				r.hi, r.hasHi, found = nd.key, true, true
				n = nd.right
			} else {
				n = nd.left
			}
		}
		r.ok = found && !(r.hasLo && r.hi < r.lo)
	}
	return r
}

// sumRange sums the values of the keys of tree t in range r.
func (a *sumTreap[T, V]) sumRange(t int32, r keyRange[T]) V {
	switch {
	case !r.ok:
		return 0
	case r.hasLo && r.hasHi:
		return a.sumBetween(t, r.lo, true, r.hi, true)
	case r.hasLo:
		return a.sumAbove(t, r.lo, true)
	case r.hasHi:
		return a.sumBelow(t, r.hi, true)
	}
	return a.nodes0sum(t)
}

// ray sums the values of the keys of tree t where pred holds, pred being
// false then true along the keys (up) or true then false (!up), in one
// descent, and returns the least (up) or greatest (!up) such key.
func (a *sumTreap[T, V]) ray(t int32, pred func(T) bool, up bool) (sum V, bound T, ok bool) {
	for t != 0 {
		nd := &a.nodes[t]
		switch {
		case !pred(nd.key):
			if up {
				t = nd.right
			} else {
				t = nd.left
			}
		case up:
			sum += a.nodes[nd.right].sum + nd.val
			bound, ok = nd.key, true
			t = nd.left
		default:
			sum += a.nodes[nd.left].sum + nd.val
			bound, ok = nd.key, true
			t = nd.right
		}
	}
	return sum, bound, ok
}

func (a *sumTreap[T, V]) sumWhere(t int32, up, down func(T) bool) V {
	switch {
	case up == nil && down == nil:
		return a.nodes0sum(t)
	case down == nil:
		s, _, _ := a.ray(t, up, true)
		return s
	case up == nil:
		s, _, _ := a.ray(t, down, false)
		return s
	}
	return a.sumRange(t, a.where(t, up, down))
}

func (a *sumTreap[T, V]) sumWhereEither(t int32, up1, down1, up2, down2 func(T) bool) V {
	// Two rays, one up, one down (AXFinder's |k − p| > c): each one
	// descent; where they overlap they cover every key.
	if down1 == nil && up2 == nil && up1 != nil && down2 != nil || up1 == nil && down2 == nil && down1 != nil && up2 != nil {
		u, d := up1, down2
		if u == nil {
			u, d = up2, down1
		}
		su, lo, okU := a.ray(t, u, true)
		sd, hi, okD := a.ray(t, d, false)
		if okU && okD && !(hi < lo) {
			return a.nodes0sum(t)
		}
		return su + sd
	}
	r1, r2 := a.where(t, up1, down1), a.where(t, up2, down2)
	if u, overlap := r1.union(r2); overlap {
		return a.sumRange(t, u)
	}
	return a.sumRange(t, r1) + a.sumRange(t, r2)
}

func (a *sumTreap[T, V]) walk(t int32, yield func(T, V) bool) bool {
	if t == 0 {
		return true
	}
	nd := &a.nodes[t]
	return a.walk(nd.left, yield) && yield(nd.key, nd.val) && a.walk(nd.right, yield)
}

// reset frees every node, keeping the slice's capacity.
func (a *sumTreap[T, V]) reset() {
	if len(a.nodes) > 0 {
		a.nodes = a.nodes[:1]
	}
	a.free, a.unsigned = 0, 0
}

func (a *sumTreap[T, V]) alloc() int32 {
	if x := a.free; x != 0 {
		a.free = a.nodes[x].left
		return x
	}
	if len(a.nodes) == 0 {
		a.nodes = append(a.nodes, rsNode[T, V]{}) // the nil sentinel
	}
	a.nodes = append(a.nodes, rsNode[T, V]{})
	return int32(len(a.nodes) - 1)
}

// rand returns a node priority (xorshift32 with a fixed seed, so that runs
// are reproducible).
func (a *sumTreap[T, V]) rand() uint32 {
	return xorshift(&a.seed)
}
