package runtime

import (
	"cmp"
	"iter"
)

// Multiset is an ordered multiset of values with int64 multiplicities: the
// storage behind MIN and MAX in generated code. Add, Count, Min and Max take
// O(log n) expected time in the number n of distinct values; a value whose
// multiplicity returns to 0 is removed (multiplicities may be negative, as
// in a Z-set, and such values count as present).
//
// It is a treap whose nodes live in one slice and are recycled through a
// free list, so that once it has grown to its working size Add does not
// allocate. Values are ordered by cmp.Compare (NaN first). The zero value
// is an empty multiset; a nil *Multiset reads as empty.
type Multiset[T cmp.Ordered] struct {
	a    treap[T]
	root int32
	n    int32 // number of distinct values
}

// Add adds n to the multiplicity of v.
func (s *Multiset[T]) Add(v T, n int64) { s.a.add(&s.root, &s.n, v, n) }

// Count returns the multiplicity of v (0 if absent).
func (s *Multiset[T]) Count(v T) int64 {
	if s == nil {
		return 0
	}
	return s.a.count(s.root, v)
}

// Len returns the number of distinct values with a non-zero multiplicity.
func (s *Multiset[T]) Len() int {
	if s == nil {
		return 0
	}
	return int(s.n)
}

// Min returns the least value, and false if the multiset is empty.
func (s *Multiset[T]) Min() (T, bool) {
	if s == nil {
		var zero T
		return zero, false
	}
	return s.a.min(s.root)
}

// Max returns the greatest value, and false if the multiset is empty.
func (s *Multiset[T]) Max() (T, bool) {
	if s == nil {
		var zero T
		return zero, false
	}
	return s.a.max(s.root)
}

// All iterates over the distinct values in ascending order with their
// multiplicities. The multiset must not change during the iteration.
func (s *Multiset[T]) All() iter.Seq2[T, int64] {
	return func(yield func(T, int64) bool) {
		if s != nil {
			s.a.walk(s.root, yield)
		}
	}
}

// Reset empties the multiset, keeping its storage for reuse.
func (s *Multiset[T]) Reset() {
	s.a.reset()
	s.root, s.n = 0, 0
}

// OrderedIndex is one ordered multiset per group key: generated code keeps
// one over the entries of a map read by MIN or MAX, the group being the
// map's bound keys and the values its MIN/MAX column. Operations on a group
// cost a hash lookup and O(log n) in the group's number n of distinct
// values. The trees of all groups share one node slice and free list, so
// that a new group allocates nothing but its hash-map slot; a group whose
// last value goes is dropped. The zero value is an empty index.
type OrderedIndex[K comparable, T cmp.Ordered] struct {
	a      treap[T]
	groups groupRoots[K]
}

// Add adds n to the multiplicity of v in group k.
func (x *OrderedIndex[K, T]) Add(k K, v T, n int64) {
	if n == 0 {
		return
	}
	g := x.groups.slot(k)
	x.a.add(&g.root, &g.n, v, n)
	x.groups.settle(k)
}

// Count returns the multiplicity of v in group k (0 if absent).
func (x *OrderedIndex[K, T]) Count(k K, v T) int64 { return x.a.count(x.groups.root(k), v) }

// Min returns the least value of group k, and false if it has none.
func (x *OrderedIndex[K, T]) Min(k K) (T, bool) { return x.a.min(x.groups.root(k)) }

// Max returns the greatest value of group k, and false if it has none.
func (x *OrderedIndex[K, T]) Max(k K) (T, bool) { return x.a.max(x.groups.root(k)) }

// Len returns the number of groups with values.
func (x *OrderedIndex[K, T]) Len() int { return x.groups.len() }

// GroupLen returns the number of distinct values of group k.
func (x *OrderedIndex[K, T]) GroupLen(k K) int { return int(x.groups.size(k)) }

// Group iterates over the distinct values of group k in ascending order with
// their multiplicities. The index must not change during the iteration.
func (x *OrderedIndex[K, T]) Group(k K) iter.Seq2[T, int64] {
	return func(yield func(T, int64) bool) { x.a.walk(x.groups.root(k), yield) }
}

// Reset empties the index, keeping its storage for reuse.
func (x *OrderedIndex[K, T]) Reset() {
	x.a.reset()
	x.groups.reset()
}

// treap is the node storage of one or more treaps, each identified by the
// slot of its root (0: empty). Node 0 is the nil sentinel.
type treap[T cmp.Ordered] struct {
	nodes []msNode[T] // live and free nodes
	free  int32       // head of the free list, linked through left; 0 if empty
	seed  uint32
}

type msNode[T cmp.Ordered] struct {
	val         T
	cnt         int64
	pri         uint32 // heap order: a parent's priority is not below its children's
	left, right int32
}

// add adds n to the multiplicity of v in the treap at *root holding *size
// distinct values.
func (a *treap[T]) add(root, size *int32, v T, n int64) {
	if n == 0 {
		return
	}
	for t := *root; t != 0; {
		nd := &a.nodes[t]
		switch c := cmp.Compare(v, nd.val); {
		case c < 0:
			t = nd.left
		case c > 0:
			t = nd.right
		default:
			if nd.cnt += n; nd.cnt == 0 {
				*root = a.remove(*root, v)
				*size--
			}
			return
		}
	}
	x := a.alloc()
	nd := &a.nodes[x]
	nd.val, nd.cnt, nd.pri, nd.left, nd.right = v, n, a.rand(), 0, 0
	*root = a.insert(*root, x)
	*size++
}

func (a *treap[T]) count(t int32, v T) int64 {
	for t != 0 {
		nd := &a.nodes[t]
		switch c := cmp.Compare(v, nd.val); {
		case c < 0:
			t = nd.left
		case c > 0:
			t = nd.right
		default:
			return nd.cnt
		}
	}
	return 0
}

func (a *treap[T]) min(t int32) (T, bool) {
	if t == 0 {
		var zero T
		return zero, false
	}
	for a.nodes[t].left != 0 {
		t = a.nodes[t].left
	}
	return a.nodes[t].val, true
}

func (a *treap[T]) max(t int32) (T, bool) {
	if t == 0 {
		var zero T
		return zero, false
	}
	for a.nodes[t].right != 0 {
		t = a.nodes[t].right
	}
	return a.nodes[t].val, true
}

func (a *treap[T]) walk(t int32, yield func(T, int64) bool) bool {
	if t == 0 {
		return true
	}
	nd := &a.nodes[t]
	return a.walk(nd.left, yield) && yield(nd.val, nd.cnt) && a.walk(nd.right, yield)
}

// reset frees every node, keeping the slice's capacity.
func (a *treap[T]) reset() {
	if len(a.nodes) > 0 {
		a.nodes = a.nodes[:1]
	}
	a.free = 0
}

func (a *treap[T]) alloc() int32 {
	if x := a.free; x != 0 {
		a.free = a.nodes[x].left
		return x
	}
	if len(a.nodes) == 0 {
		a.nodes = append(a.nodes, msNode[T]{}) // the nil sentinel
	}
	a.nodes = append(a.nodes, msNode[T]{})
	return int32(len(a.nodes) - 1)
}

// rand returns a node priority (xorshift32; the seed is fixed so that runs
// are reproducible).
func (a *treap[T]) rand() uint32 {
	return xorshift(&a.seed)
}

// insert adds node x (whose value is absent) to the subtree t and returns
// the subtree's new root. No node is allocated on the way: the slice does
// not move under the recursion.
func (a *treap[T]) insert(t, x int32) int32 {
	if t == 0 {
		return x
	}
	if a.nodes[x].pri > a.nodes[t].pri {
		l, r := a.split(t, a.nodes[x].val)
		a.nodes[x].left, a.nodes[x].right = l, r
		return x
	}
	if cmp.Less(a.nodes[x].val, a.nodes[t].val) {
		a.nodes[t].left = a.insert(a.nodes[t].left, x)
	} else {
		a.nodes[t].right = a.insert(a.nodes[t].right, x)
	}
	return t
}

// split splits subtree t (not holding v) into the values below and above v.
func (a *treap[T]) split(t int32, v T) (int32, int32) {
	if t == 0 {
		return 0, 0
	}
	if cmp.Less(a.nodes[t].val, v) {
		l, r := a.split(a.nodes[t].right, v)
		a.nodes[t].right = l
		return t, r
	}
	l, r := a.split(a.nodes[t].left, v)
	a.nodes[t].left = r
	return l, t
}

// remove unlinks the node holding v from subtree t, frees it, and returns
// the subtree's new root.
func (a *treap[T]) remove(t int32, v T) int32 {
	nd := &a.nodes[t]
	switch c := cmp.Compare(v, nd.val); {
	case c < 0:
		nd.left = a.remove(nd.left, v)
		return t
	case c > 0:
		nd.right = a.remove(nd.right, v)
		return t
	}
	r := a.merge(nd.left, nd.right)
	nd.left, nd.right = a.free, 0
	a.free = t
	return r
}

// merge joins subtrees l and r, every value of l being below every value of r.
func (a *treap[T]) merge(l, r int32) int32 {
	if l == 0 {
		return r
	}
	if r == 0 {
		return l
	}
	if a.nodes[l].pri > a.nodes[r].pri {
		a.nodes[l].right = a.merge(a.nodes[l].right, r)
		return l
	}
	a.nodes[r].left = a.merge(l, a.nodes[r].left)
	return r
}

// xorshift advances the xorshift32 generator at *seed (0: a fixed start, so
// that runs are reproducible) and returns its next value: the priorities
// of treap nodes.
func xorshift(seed *uint32) uint32 {
	x := *seed
	if x == 0 {
		x = 2463534242
	}
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	*seed = x
	return x
}
