package runtime

import "iter"

// SortedSet is a set of values in the order of a comparison function, each
// with a weight (a multiplicity), that finds the values at a range of
// positions — a window, counting each value as its weight — in O(log n +
// k) for k values: the storage behind a view with a LIMIT in generated
// code, whose rows it keeps in the view's order. Insert and Delete take
// O(log n) expected time; no two values of the set may compare equal.
//
// It is a treap whose nodes hold the total weight of their subtree and live
// in one slice, recycled through a free list, so that once it has grown to
// its working size nothing allocates.
type SortedSet[T any] struct {
	cmp   func(a, b T) int
	nodes []ssNode[T] // live and free nodes; node 0 is the nil sentinel
	free  int32       // head of the free list, linked through left
	root  int32
	n     int
	seed  uint32
}

type ssNode[T any] struct {
	val         T
	w, sum      int64  // the value's weight; the subtree's total weight
	pri         uint32 // heap order: a parent's priority is not below its children's
	left, right int32
}

// NewSortedSet returns an empty set ordered by cmp.
func NewSortedSet[T any](cmp func(a, b T) int) *SortedSet[T] {
	return &SortedSet[T]{cmp: cmp, nodes: make([]ssNode[T], 1)}
}

// Len returns the number of values.
func (s *SortedSet[T]) Len() int { return s.n }

// Total returns the sum of the weights.
func (s *SortedSet[T]) Total() int64 { return s.nodes[s.root].sum }

// Insert adds v, which must not be in the set, with weight w.
func (s *SortedSet[T]) Insert(v T, w int64) {
	x := s.alloc()
	nd := &s.nodes[x]
	nd.val, nd.w, nd.sum, nd.pri, nd.left, nd.right = v, w, w, s.rand(), 0, 0
	s.root = s.insert(s.root, x)
	s.n++
}

// Delete removes v and reports whether it was in the set.
func (s *SortedSet[T]) Delete(v T) bool {
	var found bool
	s.root = s.delete(s.root, v, &found)
	if found {
		s.n--
	}
	return found
}

// Shown returns how much of v's weight falls in the window of positions
// offset to offset+count−1 (0 when v is not in the set or not in the
// window), in O(log n).
func (s *SortedSet[T]) Shown(v T, offset, count int64) int64 {
	pos := int64(0)
	for t := s.root; t != 0; {
		nd := &s.nodes[t]
		c := s.cmp(v, nd.val)
		switch {
		case c < 0:
			t = nd.left
		case c > 0:
			pos += s.nodes[nd.left].sum + nd.w
			t = nd.right
		default:
			return shownPart(pos+s.nodes[nd.left].sum, nd.w, offset, count)
		}
	}
	return 0
}

// Window iterates in order over the values that fall in the window of
// positions offset to offset+count−1, each with the part of its weight
// that does, in O(log n + k). The set must not change during the
// iteration.
func (s *SortedSet[T]) Window(offset, count int64) iter.Seq2[T, int64] {
	return func(yield func(T, int64) bool) {
		s.walk(s.root, 0, offset, offset+count, yield)
	}
}

// All iterates over the values in order with their weights.
func (s *SortedSet[T]) All() iter.Seq2[T, int64] {
	return s.Window(0, s.Total())
}

// Reset empties the set, keeping its storage for reuse.
func (s *SortedSet[T]) Reset() {
	s.nodes = s.nodes[:1]
	s.free, s.root, s.n = 0, 0, 0
}

// walk yields the values of subtree t, whose first position is base, that
// overlap positions lo to hi−1.
func (s *SortedSet[T]) walk(t int32, base, lo, hi int64, yield func(T, int64) bool) bool {
	if t == 0 || base >= hi || base+s.nodes[t].sum <= lo {
		return true
	}
	nd := &s.nodes[t]
	if !s.walk(nd.left, base, lo, hi, yield) {
		return false
	}
	nd = &s.nodes[t]
	mid := base + s.nodes[nd.left].sum
	if part := shownPart(mid, nd.w, lo, hi-lo); part > 0 && !yield(nd.val, part) {
		return false
	}
	return s.walk(nd.right, mid+nd.w, lo, hi, yield)
}

func (s *SortedSet[T]) pull(t int32) {
	nd := &s.nodes[t]
	nd.sum = s.nodes[nd.left].sum + nd.w + s.nodes[nd.right].sum
}

func (s *SortedSet[T]) insert(t, x int32) int32 {
	if t == 0 {
		return x
	}
	if s.nodes[x].pri > s.nodes[t].pri {
		l, r := s.split(t, s.nodes[x].val)
		s.nodes[x].left, s.nodes[x].right = l, r
		s.pull(x)
		return x
	}
	if s.cmp(s.nodes[x].val, s.nodes[t].val) < 0 {
		s.nodes[t].left = s.insert(s.nodes[t].left, x)
	} else {
		s.nodes[t].right = s.insert(s.nodes[t].right, x)
	}
	s.pull(t)
	return t
}

// split splits subtree t (not holding v) into the values below and above v.
func (s *SortedSet[T]) split(t int32, v T) (int32, int32) {
	if t == 0 {
		return 0, 0
	}
	if s.cmp(s.nodes[t].val, v) < 0 {
		l, r := s.split(s.nodes[t].right, v)
		s.nodes[t].right = l
		s.pull(t)
		return t, r
	}
	l, r := s.split(s.nodes[t].left, v)
	s.nodes[t].left = r
	s.pull(t)
	return l, t
}

func (s *SortedSet[T]) delete(t int32, v T, found *bool) int32 {
	if t == 0 {
		return 0
	}
	switch c := s.cmp(v, s.nodes[t].val); {
	case c < 0:
		l := s.delete(s.nodes[t].left, v, found)
		s.nodes[t].left = l
	case c > 0:
		r := s.delete(s.nodes[t].right, v, found)
		s.nodes[t].right = r
	default:
		*found = true
		nd := &s.nodes[t]
		r := s.merge(nd.left, nd.right)
		nd = &s.nodes[t]
		var zero T
		nd.val, nd.left, nd.right = zero, s.free, 0
		s.free = t
		return r
	}
	s.pull(t)
	return t
}

func (s *SortedSet[T]) merge(l, r int32) int32 {
	if l == 0 {
		return r
	}
	if r == 0 {
		return l
	}
	if s.nodes[l].pri > s.nodes[r].pri {
		s.nodes[l].right = s.merge(s.nodes[l].right, r)
		s.pull(l)
		return l
	}
	s.nodes[r].left = s.merge(l, s.nodes[r].left)
	s.pull(r)
	return r
}

func (s *SortedSet[T]) alloc() int32 {
	if x := s.free; x != 0 {
		s.free = s.nodes[x].left
		return x
	}
	s.nodes = append(s.nodes, ssNode[T]{})
	return int32(len(s.nodes) - 1)
}

// rand returns a node priority (xorshift32 with a fixed seed, so that runs
// are reproducible).
func (s *SortedSet[T]) rand() uint32 {
	return xorshift(&s.seed)
}
