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
	nodes []msNode[T] // nodes[0] is the nil sentinel; live and free nodes
	root  int32
	free  int32 // head of the free list, linked through left; 0 if empty
	n     int   // number of distinct values
	seed  uint32
}

type msNode[T cmp.Ordered] struct {
	val         T
	cnt         int64
	pri         uint32 // heap order: a parent's priority is not below its children's
	left, right int32
}

// Add adds n to the multiplicity of v.
func (s *Multiset[T]) Add(v T, n int64) {
	if n == 0 {
		return
	}
	for t := s.root; t != 0; {
		nd := &s.nodes[t]
		switch c := cmp.Compare(v, nd.val); {
		case c < 0:
			t = nd.left
		case c > 0:
			t = nd.right
		default:
			if nd.cnt += n; nd.cnt == 0 {
				s.root = s.remove(s.root, v)
				s.n--
			}
			return
		}
	}
	x := s.alloc()
	nd := &s.nodes[x]
	nd.val, nd.cnt, nd.pri, nd.left, nd.right = v, n, s.rand(), 0, 0
	s.root = s.insert(s.root, x)
	s.n++
}

// Count returns the multiplicity of v (0 if absent).
func (s *Multiset[T]) Count(v T) int64 {
	if s == nil {
		return 0
	}
	for t := s.root; t != 0; {
		nd := &s.nodes[t]
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

// Len returns the number of distinct values with a non-zero multiplicity.
func (s *Multiset[T]) Len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// Min returns the least value, and false if the multiset is empty.
func (s *Multiset[T]) Min() (T, bool) {
	if s == nil || s.root == 0 {
		var zero T
		return zero, false
	}
	t := s.root
	for s.nodes[t].left != 0 {
		t = s.nodes[t].left
	}
	return s.nodes[t].val, true
}

// Max returns the greatest value, and false if the multiset is empty.
func (s *Multiset[T]) Max() (T, bool) {
	if s == nil || s.root == 0 {
		var zero T
		return zero, false
	}
	t := s.root
	for s.nodes[t].right != 0 {
		t = s.nodes[t].right
	}
	return s.nodes[t].val, true
}

// All iterates over the distinct values in ascending order with their
// multiplicities. The multiset must not change during the iteration.
func (s *Multiset[T]) All() iter.Seq2[T, int64] {
	return func(yield func(T, int64) bool) {
		if s != nil {
			s.walk(s.root, yield)
		}
	}
}

func (s *Multiset[T]) walk(t int32, yield func(T, int64) bool) bool {
	if t == 0 {
		return true
	}
	nd := &s.nodes[t]
	return s.walk(nd.left, yield) && yield(nd.val, nd.cnt) && s.walk(nd.right, yield)
}

// Reset empties the multiset, keeping its storage for reuse.
func (s *Multiset[T]) Reset() {
	if len(s.nodes) > 0 {
		s.nodes = s.nodes[:1]
	}
	s.root, s.free, s.n = 0, 0, 0
}

func (s *Multiset[T]) alloc() int32 {
	if x := s.free; x != 0 {
		s.free = s.nodes[x].left
		return x
	}
	if len(s.nodes) == 0 {
		s.nodes = append(s.nodes, msNode[T]{}) // the nil sentinel
	}
	s.nodes = append(s.nodes, msNode[T]{})
	return int32(len(s.nodes) - 1)
}

// rand returns a node priority (xorshift32; the seed is fixed so that runs
// are reproducible).
func (s *Multiset[T]) rand() uint32 {
	x := s.seed
	if x == 0 {
		x = 2463534242
	}
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	s.seed = x
	return x
}

// insert adds node x (whose value is absent) to the subtree t and returns
// the subtree's new root. No node is allocated on the way: the slice does
// not move under the recursion.
func (s *Multiset[T]) insert(t, x int32) int32 {
	if t == 0 {
		return x
	}
	if s.nodes[x].pri > s.nodes[t].pri {
		l, r := s.split(t, s.nodes[x].val)
		s.nodes[x].left, s.nodes[x].right = l, r
		return x
	}
	if cmp.Less(s.nodes[x].val, s.nodes[t].val) {
		s.nodes[t].left = s.insert(s.nodes[t].left, x)
	} else {
		s.nodes[t].right = s.insert(s.nodes[t].right, x)
	}
	return t
}

// split splits subtree t (not holding v) into the values below and above v.
func (s *Multiset[T]) split(t int32, v T) (int32, int32) {
	if t == 0 {
		return 0, 0
	}
	if cmp.Less(s.nodes[t].val, v) {
		l, r := s.split(s.nodes[t].right, v)
		s.nodes[t].right = l
		return t, r
	}
	l, r := s.split(s.nodes[t].left, v)
	s.nodes[t].left = r
	return l, t
}

// remove unlinks the node holding v from subtree t, frees it, and returns
// the subtree's new root.
func (s *Multiset[T]) remove(t int32, v T) int32 {
	nd := &s.nodes[t]
	switch c := cmp.Compare(v, nd.val); {
	case c < 0:
		nd.left = s.remove(nd.left, v)
		return t
	case c > 0:
		nd.right = s.remove(nd.right, v)
		return t
	}
	r := s.merge(nd.left, nd.right)
	nd.left, nd.right = s.free, 0
	s.free = t
	return r
}

// merge joins subtrees a and b, every value of a being below every value of b.
func (s *Multiset[T]) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if s.nodes[a].pri > s.nodes[b].pri {
		s.nodes[a].right = s.merge(s.nodes[a].right, b)
		return a
	}
	s.nodes[b].left = s.merge(a, s.nodes[b].left)
	return b
}

// OrderedIndex is one Multiset per group key: generated code keeps one over
// the entries of a map read by MIN or MAX, the group being the map's bound
// keys and the values its MIN/MAX column. A group whose multiset empties is
// dropped, its multiset kept for reuse by the next new group. The zero value
// is an empty index.
type OrderedIndex[K comparable, T cmp.Ordered] struct {
	groups map[K]*Multiset[T]
	free   []*Multiset[T]
}

// Add adds n to the multiplicity of v in group k.
func (x *OrderedIndex[K, T]) Add(k K, v T, n int64) {
	s := x.groups[k]
	if s == nil {
		if n == 0 {
			return
		}
		if x.groups == nil {
			x.groups = make(map[K]*Multiset[T])
		}
		if i := len(x.free); i > 0 {
			s, x.free = x.free[i-1], x.free[:i-1]
		} else {
			s = new(Multiset[T])
		}
		x.groups[k] = s
	}
	s.Add(v, n)
	if s.Len() == 0 {
		delete(x.groups, k)
		x.free = append(x.free, s)
	}
}

// Group returns the multiset of group k; nil (which reads as empty) if the
// group has no values.
func (x *OrderedIndex[K, T]) Group(k K) *Multiset[T] { return x.groups[k] }

// Min returns the least value of group k, and false if it has none.
func (x *OrderedIndex[K, T]) Min(k K) (T, bool) { return x.groups[k].Min() }

// Max returns the greatest value of group k, and false if it has none.
func (x *OrderedIndex[K, T]) Max(k K) (T, bool) { return x.groups[k].Max() }

// Len returns the number of groups with values.
func (x *OrderedIndex[K, T]) Len() int { return len(x.groups) }

// Reset empties the index, keeping the multisets for reuse.
func (x *OrderedIndex[K, T]) Reset() {
	for _, s := range x.groups {
		s.Reset()
		x.free = append(x.free, s)
	}
	clear(x.groups)
}
