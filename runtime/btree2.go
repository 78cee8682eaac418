package runtime

import "cmp"

// sumBTree2 is the storage of a RangeSumPairIndex: sumBTree's B+-tree with
// two value lanes. A node holds, beside each key (leaf) or child (inner
// node), a value of each lane: a leaf its keys' values, an inner node its
// children's sums, so one descent writes or reads both lanes. The trees
// of all groups share the node slice and its free list; a group's tree is
// a treeRoot (root, height, keys). A key stays while either of its values
// is not 0. As in sumBTree, every node but the root holds at least
// btreeWidth/4 entries, and an inner entry is always the sum of its
// child's entries as laneSum computes it: recomputed on the path of an
// update, except where adding the update's delta gives that very value
// (see exactLane), which spares the path's recomputation.
type sumBTree2[T cmp.Ordered, V1, V2 Number] struct {
	nodes []btNode2[T, V1, V2] // live and free nodes; node 0 is never used
	free  []int32              // positions of free nodes
	// unsigned1 and unsigned2 count the keys whose lane-1 (lane-2) value
	// is not ≥ 0, in all trees (Negative1, Negative2).
	unsigned1, unsigned2 int32
	// inexact counts the keys with a value of either lane that is not
	// exactLane, in all trees: while it is 0, every sum of a tree of
	// fewer than exactKeys keys is an exact integer, whatever the order of
	// the adds, so an update adds its delta to the path's inner entries.
	inexact int32
}

// exactKeys bounds the keys of a tree whose sums are exact when every value
// is exactLane: 2^16 values of magnitude at most 2^36 sum to less than 2^53.
const exactKeys = 1 << 16

// exactLane reports whether value v is an integer of magnitude at most
// 2^36: float64 adds of such values are exact while their sums stay below
// 2^53. Integer lanes are exact at every value (their adds wrap the same
// in any order).
func exactLane[V Number](v V) bool {
	if V(1)/V(2) == 0 {
		return true // an integer type
	}
	f := float64(v)
	return f == float64(int64(f)) && f <= 1<<36 && f >= -(1<<36)
}

type btNode2[T cmp.Ordered, V1, V2 Number] struct {
	keys  [btreeWidth]T     // ascending; at an inner node the least key of each child
	v1    [btreeWidth]V1    // lane 1: a leaf's values, an inner node's children's sums
	v2    [btreeWidth]V2    // lane 2
	child [btreeWidth]int32 // an inner node's children
	n     int32             // entries in use
	// At a tree's root, both lanes' sums over the tree as sums computes
	// them (kept by update: a threshold read starts from them).
	sum1 V1
	sum2 V2
}

// laneSum sums the first n values in four running sums, so that the adds
// do not wait on each other; the result depends only on the values.
func laneSum[V Number](vs *[btreeWidth]V, n int) V {
	var a, b, c, d V
	i := 0
	for ; i+4 <= n; i += 4 {
		a += vs[i]
		b += vs[i+1]
		c += vs[i+2]
		d += vs[i+3]
	}
	for ; i < n; i++ {
		a += vs[i]
	}
	return (a + b) + (c + d)
}

func (nd *btNode2[T, V1, V2]) sums() (V1, V2) {
	return laneSum(&nd.v1, int(nd.n)), laneSum(&nd.v2, int(nd.n))
}

// route is btNode.route.
func (nd *btNode2[T, V1, V2]) route(k T) int {
	i := 1
	for i < int(nd.n) && !(k < nd.keys[i]) {
		i++
	}
	return i - 1
}

// find is btNode.find.
func (nd *btNode2[T, V1, V2]) find(k T) int {
	i := 0
	for i < int(nd.n) && nd.keys[i] < k {
		i++
	}
	return i
}

// insertAt puts entry (k, v1, v2, c) at position i; c is 0 at a leaf,
// whose children are not kept.
func (nd *btNode2[T, V1, V2]) insertAt(i int, k T, v1 V1, v2 V2, c int32) {
	n := int(nd.n)
	copy(nd.keys[i+1:n+1], nd.keys[i:n])
	copy(nd.v1[i+1:n+1], nd.v1[i:n])
	copy(nd.v2[i+1:n+1], nd.v2[i:n])
	if c != 0 {
		copy(nd.child[i+1:n+1], nd.child[i:n])
	}
	nd.keys[i], nd.v1[i], nd.v2[i], nd.child[i] = k, v1, v2, c
	nd.n++
}

// removeAt removes the entry at position i (of a leaf: its children are
// not kept).
func (nd *btNode2[T, V1, V2]) removeAt(i int, leaf bool) {
	n := int(nd.n)
	copy(nd.keys[i:n-1], nd.keys[i+1:n])
	copy(nd.v1[i:n-1], nd.v1[i+1:n])
	copy(nd.v2[i:n-1], nd.v2[i+1:n])
	if !leaf {
		copy(nd.child[i:n-1], nd.child[i+1:n])
	}
	nd.n--
}

// moveEntries copies m entries of src from position from to dst at
// position to (the ranges may overlap only when src is dst).
func (dst *btNode2[T, V1, V2]) moveEntries(to int, src *btNode2[T, V1, V2], from, m int) {
	copy(dst.keys[to:to+m], src.keys[from:from+m])
	copy(dst.v1[to:to+m], src.v1[from:from+m])
	copy(dst.v2[to:to+m], src.v2[from:from+m])
	copy(dst.child[to:to+m], src.child[from:from+m])
}

func (b *sumBTree2[T, V1, V2]) alloc() int32 {
	if n := len(b.free); n > 0 {
		x := b.free[n-1]
		b.free = b.free[:n-1]
		b.nodes[x].n = 0
		return x
	}
	if len(b.nodes) == 0 {
		b.nodes = append(b.nodes, btNode2[T, V1, V2]{}) // node 0: no tree's
	}
	b.nodes = append(b.nodes, btNode2[T, V1, V2]{})
	return int32(len(b.nodes) - 1)
}

func (b *sumBTree2[T, V1, V2]) release(x int32) { b.free = append(b.free, x) }

func (b *sumBTree2[T, V1, V2]) reset() {
	b.nodes, b.free = b.nodes[:0], b.free[:0]
	b.unsigned1, b.unsigned2, b.inexact = 0, 0, 0
}

// countUnsigned keeps the unsigned counts as a key's values go from o1,
// o2 to n1, n2.
func (b *sumBTree2[T, V1, V2]) countUnsigned(o1 V1, o2 V2, n1 V1, n2 V2) {
	if o1 != 0 && !(o1 >= 0) {
		b.unsigned1--
	}
	if n1 != 0 && !(n1 >= 0) {
		b.unsigned1++
	}
	if o2 != 0 && !(o2 >= 0) {
		b.unsigned2--
	}
	if n2 != 0 && !(n2 >= 0) {
		b.unsigned2++
	}
}

// count keeps the unsigned and inexact counts as a key's values go from
// o1, o2 to n1, n2, and reports whether all four are exactLane.
func (b *sumBTree2[T, V1, V2]) count(o1 V1, o2 V2, n1 V1, n2 V2) (exact bool) {
	b.countUnsigned(o1, o2, n1, n2)
	oldExact, newExact := exactLane(o1) && exactLane(o2), exactLane(n1) && exactLane(n2)
	if !oldExact {
		b.inexact--
	}
	if !newExact {
		b.inexact++
	}
	return oldExact && newExact
}

// after returns a key's values after op, from o1, o2.
func after[V1, V2 Number](op pairOp, o1 V1, o2 V2, v1 V1, v2 V2) (V1, V2) {
	switch op {
	case set1:
		return v1, o2
	case set2:
		return o1, v2
	case add1:
		return o1 + v1, o2
	case add2:
		return o1, o2 + v2
	}
	return v1, v2
}

// update applies op with values v1, v2 to key k (not NaN) of tree r,
// removing k when both its values become 0.
func (b *sumBTree2[T, V1, V2]) update(r *treeRoot, k T, v1 V1, v2 V2, op pairOp) {
	if r.root == 0 {
		n1, n2 := after(op, 0, 0, v1, v2)
		if n1 == 0 && n2 == 0 {
			return
		}
		r.root, r.height, r.n = b.alloc(), 0, 1
		rn := &b.nodes[r.root]
		rn.insertAt(0, k, n1, n2, 0)
		rn.sum1, rn.sum2 = n1, n2
		b.count(0, 0, n1, n2)
		return
	}
	// Descend, keeping each inner node and the child taken.
	var path, at [btreeMaxHeight]int32
	id := r.root
	for h := r.height; h > 0; h-- {
		nd := &b.nodes[id]
		i := nd.route(k)
		path[h], at[h] = id, int32(i)
		id = nd.child[i]
	}
	leaf := &b.nodes[id]
	i := leaf.find(k)
	split := int32(-1) // a new right sibling of id, to enter in its parent
	if i < int(leaf.n) && leaf.keys[i] == k {
		o1, o2 := leaf.v1[i], leaf.v2[i]
		n1, n2 := after(op, o1, o2, v1, v2)
		if n1 == o1 && n2 == o2 {
			return
		}
		exact := b.count(o1, o2, n1, n2)
		if n1 != 0 || n2 != 0 {
			leaf.v1[i], leaf.v2[i] = n1, n2
			if exact && b.inexact == 0 && r.n < exactKeys {
				// Every value exact before and after: the path's sums
				// take the delta, no key or node changes.
				d1, d2 := n1-o1, n2-o2
				for h := int32(1); h <= r.height; h++ {
					pn := &b.nodes[path[h]]
					pn.v1[at[h]] += d1
					pn.v2[at[h]] += d2
				}
				rn := &b.nodes[r.root]
				rn.sum1 += d1
				rn.sum2 += d2
				return
			}
		} else {
			leaf.removeAt(i, true)
			r.n--
		}
	} else {
		n1, n2 := after(op, 0, 0, v1, v2)
		if n1 == 0 && n2 == 0 {
			return
		}
		b.count(0, 0, n1, n2)
		r.n++
		split = b.insert(id, i, k, n1, n2, 0)
	}
	for h := int32(1); h <= r.height; h++ {
		split = b.fix(path[h], int(at[h]), split)
	}
	if split >= 0 { // the root split: a new root above the two halves
		nr := b.alloc()
		old, half := &b.nodes[r.root], &b.nodes[split]
		o1, o2 := old.sums()
		h1, h2 := half.sums()
		ok, hk := old.keys[0], half.keys[0]
		rn := &b.nodes[nr]
		rn.insertAt(0, ok, o1, o2, r.root)
		rn.insertAt(1, hk, h1, h2, split)
		r.root = nr
		r.height++
	}
	for r.height > 0 && b.nodes[r.root].n <= 1 {
		x := r.root
		if b.nodes[x].n == 0 {
			r.root, r.height = 0, 0
		} else {
			r.root = b.nodes[x].child[0]
			r.height--
		}
		b.release(x)
	}
	if r.root != 0 && b.nodes[r.root].n == 0 {
		b.release(r.root)
		r.root = 0
	}
	if r.root != 0 {
		rn := &b.nodes[r.root]
		rn.sum1, rn.sum2 = rn.sums()
	}
}

// insert puts entry (k, v1, v2, c) at position i of node id, splitting the
// node when it is full; it returns the new right half, or -1.
func (b *sumBTree2[T, V1, V2]) insert(id int32, i int, k T, v1 V1, v2 V2, c int32) int32 {
	if b.nodes[id].n < btreeWidth {
		b.nodes[id].insertAt(i, k, v1, v2, c)
		return -1
	}
	r := b.alloc()
	left, right := &b.nodes[id], &b.nodes[r]
	const half = btreeWidth / 2
	right.moveEntries(0, left, half, btreeWidth-half)
	right.n, left.n = btreeWidth-half, half
	if i <= half {
		left.insertAt(i, k, v1, v2, c)
	} else {
		right.insertAt(i-half, k, v1, v2, c)
	}
	return r
}

// fix is sumBTree.fix: it brings inner node p up to date after its child
// at position i changed, and returns p's new right sibling, or -1.
func (b *sumBTree2[T, V1, V2]) fix(p int32, i int, split int32) int32 {
	pn := &b.nodes[p]
	c := pn.child[i]
	cn := &b.nodes[c]
	if cn.n == 0 {
		pn.removeAt(i, false)
		b.release(c)
		return -1
	}
	pn.keys[i] = cn.keys[0]
	pn.v1[i], pn.v2[i] = cn.sums()
	if split >= 0 {
		s := &b.nodes[split]
		s1, s2 := s.sums()
		return b.insert(p, i+1, s.keys[0], s1, s2, split)
	}
	if cn.n >= btreeWidth/4 {
		return -1
	}
	// Underfull: join with the left neighbour, or the right one.
	j := i - 1
	if j < 0 {
		j = i + 1
		if j >= int(pn.n) {
			return -1
		}
	}
	lo, hi := min(i, j), max(i, j)
	l, r := pn.child[lo], pn.child[hi]
	ln, rn := &b.nodes[l], &b.nodes[r]
	switch {
	case ln.n+rn.n <= btreeWidth:
		ln.moveEntries(int(ln.n), rn, 0, int(rn.n))
		ln.n += rn.n
		pn.removeAt(hi, false)
		b.release(r)
	case ln.n < rn.n: // move the right node's first entries over
		m := int(rn.n-ln.n) / 2
		ln.moveEntries(int(ln.n), rn, 0, m)
		ln.n += int32(m)
		rn.moveEntries(0, rn, m, int(rn.n)-m)
		rn.n -= int32(m)
	default: // move the left node's last entries over
		m := int(ln.n-rn.n) / 2
		rn.moveEntries(m, rn, 0, int(rn.n))
		rn.moveEntries(0, ln, int(ln.n)-m, m)
		rn.n += int32(m)
		ln.n -= int32(m)
	}
	pn.keys[lo] = ln.keys[0]
	pn.v1[lo], pn.v2[lo] = ln.sums()
	if hi < int(pn.n) && pn.child[hi] == r {
		pn.keys[hi] = rn.keys[0]
		pn.v1[hi], pn.v2[hi] = rn.sums()
	}
	return -1
}

func (b *sumBTree2[T, V1, V2]) get(r treeRoot, k T) (V1, V2) {
	if r.root == 0 || k != k {
		return 0, 0
	}
	id := r.root
	for h := r.height; h > 0; h-- {
		nd := &b.nodes[id]
		id = nd.child[nd.route(k)]
	}
	leaf := &b.nodes[id]
	if i := leaf.find(k); i < int(leaf.n) && leaf.keys[i] == k {
		return leaf.v1[i], leaf.v2[i]
	}
	return 0, 0
}

// total returns both lanes' sums over tree r.
func (b *sumBTree2[T, V1, V2]) total(r treeRoot) (V1, V2) {
	if r.root == 0 {
		return 0, 0
	}
	return b.nodes[r.root].sum1, b.nodes[r.root].sum2
}
