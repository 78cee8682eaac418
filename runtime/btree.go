package runtime

import "cmp"

// sumBTree is the storage of a RangeSum: a B+-tree whose inner nodes hold,
// beside each child, the least key under it and the sum of its values.
// An inner node and a leaf have one layout (btNode): a leaf's vals are its
// keys' values, an inner node's vals its children's sums, so a node's sum
// is the sum of its vals at every height. With up to btreeWidth entries
// per node a tree of a thousand keys is two levels deep, and a descent
// scans short arrays instead of chasing a pointer per level: the updates
// and range reads of the ordered indexes that nested aggregates over
// inequalities read (VWAP's threshold, AXFinder's |a − b| > c) cost a few
// cache lines. Sums are recomputed from a node's entries (never adjusted by
// deltas), so float sums do not drift and a range without keys sums to
// exactly 0. Every node but the root holds at least btreeWidth/4 entries
// (merged with or refilled from a sibling below that), so the height is
// O(log n) in the number n of keys.
type sumBTree[T cmp.Ordered, V Number] struct {
	nodes    []btNode[T, V] // live and free nodes
	free     []int32        // positions of free nodes
	root     int32          // 0: empty (node 0 is never used)
	height   int32          // 0: the root is a leaf
	n        int32          // number of keys
	total    V              // the sum of every value
	unsigned int32          // keys whose value is not ≥ 0 (see RangeSum.Negative)
}

// btreeWidth is the most entries a node holds: 16 float64 keys and values
// are four cache lines, scanned linearly.
const btreeWidth = 16

// btreeMaxHeight bounds the height: every inner node but the root has at
// least btreeWidth/4 children.
const btreeMaxHeight = 32

type btNode[T cmp.Ordered, V Number] struct {
	keys  [btreeWidth]T     // ascending; at an inner node the least key of each child
	vals  [btreeWidth]V     // a leaf's values; an inner node's children's sums
	child [btreeWidth]int32 // an inner node's children
	n     int32             // entries in use
}

func (nd *btNode[T, V]) sum() V {
	var s V
	for _, v := range nd.vals[:nd.n] {
		s += v
	}
	return s
}

// route returns the child of an inner node whose keys would hold k: the
// last whose least key is not above k (the first if k is below them all).
func (nd *btNode[T, V]) route(k T) int {
	i := 1
	for i < int(nd.n) && !(k < nd.keys[i]) {
		i++
	}
	return i - 1
}

// find returns the position of the first key of a leaf not below k.
func (nd *btNode[T, V]) find(k T) int {
	i := 0
	for i < int(nd.n) && nd.keys[i] < k {
		i++
	}
	return i
}

func (nd *btNode[T, V]) insertAt(i int, k T, v V, c int32) {
	n := int(nd.n)
	copy(nd.keys[i+1:n+1], nd.keys[i:n])
	copy(nd.vals[i+1:n+1], nd.vals[i:n])
	copy(nd.child[i+1:n+1], nd.child[i:n])
	nd.keys[i], nd.vals[i], nd.child[i] = k, v, c
	nd.n++
}

func (nd *btNode[T, V]) removeAt(i int) {
	n := int(nd.n)
	copy(nd.keys[i:n-1], nd.keys[i+1:n])
	copy(nd.vals[i:n-1], nd.vals[i+1:n])
	copy(nd.child[i:n-1], nd.child[i+1:n])
	nd.n--
}

// moveTail moves the entries of src from position i on to the end of dst.
func (dst *btNode[T, V]) moveTail(src *btNode[T, V], i int) {
	n, m := int(dst.n), int(src.n)-i
	copy(dst.keys[n:n+m], src.keys[i:src.n])
	copy(dst.vals[n:n+m], src.vals[i:src.n])
	copy(dst.child[n:n+m], src.child[i:src.n])
	dst.n += int32(m)
	src.n = int32(i)
}

func (b *sumBTree[T, V]) alloc() int32 {
	if n := len(b.free); n > 0 {
		x := b.free[n-1]
		b.free = b.free[:n-1]
		b.nodes[x].n = 0
		return x
	}
	if len(b.nodes) == 0 {
		b.nodes = append(b.nodes, btNode[T, V]{}) // node 0: the empty tree's root
	}
	b.nodes = append(b.nodes, btNode[T, V]{})
	return int32(len(b.nodes) - 1)
}

func (b *sumBTree[T, V]) release(x int32) { b.free = append(b.free, x) }

func (b *sumBTree[T, V]) reset() {
	b.nodes, b.free = b.nodes[:0], b.free[:0]
	b.root, b.height, b.n, b.total, b.unsigned = 0, 0, 0, 0, 0
}

// count keeps unsigned: the key's value goes from old to v (0: absent).
func (b *sumBTree[T, V]) count(old, v V) {
	if old != 0 && !(old >= 0) {
		b.unsigned--
	}
	if v != 0 && !(v >= 0) {
		b.unsigned++
	}
}

// update adds v to the value of k (add) or sets it to v, removing k when
// its value becomes 0. NaN keys are not stored.
func (b *sumBTree[T, V]) update(k T, v V, add bool) {
	if k != k {
		return
	}
	if b.root == 0 {
		if v == 0 {
			return
		}
		b.root, b.height = b.alloc(), 0
		b.nodes[b.root].insertAt(0, k, v, 0)
		b.n, b.total = 1, v
		b.count(0, v)
		return
	}
	// Descend, keeping each inner node and the child taken.
	var path, at [btreeMaxHeight]int32
	id := b.root
	for h := b.height; h > 0; h-- {
		nd := &b.nodes[id]
		i := nd.route(k)
		path[h], at[h] = id, int32(i)
		id = nd.child[i]
	}
	leaf := &b.nodes[id]
	i := leaf.find(k)
	split := int32(-1) // a new right sibling of id, to enter in its parent
	if i < int(leaf.n) && leaf.keys[i] == k {
		old := leaf.vals[i]
		if add {
			v += old
		}
		if v == old {
			return
		}
		b.count(old, v)
		if v != 0 {
			leaf.vals[i] = v
		} else {
			leaf.removeAt(i)
			b.n--
		}
	} else {
		if v == 0 {
			return
		}
		b.count(0, v)
		b.n++
		split = b.insert(id, i, k, v, 0)
	}
	for h := int32(1); h <= b.height; h++ {
		split = b.fix(path[h], int(at[h]), split)
	}
	if split >= 0 { // the root split: a new root above the two halves
		r := b.alloc()
		old, half := &b.nodes[b.root], &b.nodes[split]
		ok, ov, hk, hv := old.keys[0], old.sum(), half.keys[0], half.sum()
		nr := &b.nodes[r]
		nr.insertAt(0, ok, ov, b.root)
		nr.insertAt(1, hk, hv, split)
		b.root = r
		b.height++
	}
	for b.height > 0 && b.nodes[b.root].n <= 1 {
		r := b.root
		if b.nodes[r].n == 0 {
			b.root, b.height = 0, 0
		} else {
			b.root = b.nodes[r].child[0]
			b.height--
		}
		b.release(r)
	}
	if b.root != 0 && b.nodes[b.root].n == 0 {
		b.release(b.root)
		b.root = 0
	}
	b.total = 0
	if b.root != 0 {
		b.total = b.nodes[b.root].sum()
	}
}

// insert puts entry (k, v, c) at position i of node id, splitting the node
// when it is full; it returns the new right half, or -1.
func (b *sumBTree[T, V]) insert(id int32, i int, k T, v V, c int32) int32 {
	if b.nodes[id].n < btreeWidth {
		b.nodes[id].insertAt(i, k, v, c)
		return -1
	}
	r := b.alloc()
	left, right := &b.nodes[id], &b.nodes[r]
	right.moveTail(left, btreeWidth/2)
	if i <= btreeWidth/2 {
		left.insertAt(i, k, v, c)
	} else {
		right.insertAt(i-btreeWidth/2, k, v, c)
	}
	return r
}

// fix brings inner node p up to date after its child at position i
// changed: the child's least key and sum, the child's new right sibling
// split (if ≥ 0), and an empty or underfull child merged with or refilled
// from a neighbour. It returns p's own new right sibling, or -1.
func (b *sumBTree[T, V]) fix(p int32, i int, split int32) int32 {
	pn := &b.nodes[p]
	c := pn.child[i]
	cn := &b.nodes[c]
	if cn.n == 0 {
		pn.removeAt(i)
		b.release(c)
		return -1
	}
	pn.keys[i], pn.vals[i] = cn.keys[0], cn.sum()
	if split >= 0 {
		s := &b.nodes[split]
		return b.insert(p, i+1, s.keys[0], s.sum(), split)
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
	if ln.n+rn.n <= btreeWidth {
		ln.moveTail(rn, 0)
		pn.removeAt(hi)
		b.release(r)
	} else if ln.n < rn.n { // move the right node's first entries over
		m := int(rn.n-ln.n) / 2
		n := int(ln.n)
		copy(ln.keys[n:n+m], rn.keys[:m])
		copy(ln.vals[n:n+m], rn.vals[:m])
		copy(ln.child[n:n+m], rn.child[:m])
		ln.n += int32(m)
		copy(rn.keys[:], rn.keys[m:rn.n])
		copy(rn.vals[:], rn.vals[m:rn.n])
		copy(rn.child[:], rn.child[m:rn.n])
		rn.n -= int32(m)
	} else { // move the left node's last entries over
		m := int(ln.n-rn.n) / 2
		n := int(rn.n)
		copy(rn.keys[m:m+n], rn.keys[:n])
		copy(rn.vals[m:m+n], rn.vals[:n])
		copy(rn.child[m:m+n], rn.child[:n])
		from := int(ln.n) - m
		copy(rn.keys[:m], ln.keys[from:ln.n])
		copy(rn.vals[:m], ln.vals[from:ln.n])
		copy(rn.child[:m], ln.child[from:ln.n])
		rn.n += int32(m)
		ln.n -= int32(m)
	}
	pn.keys[lo], pn.vals[lo] = ln.keys[0], ln.sum()
	if hi < int(pn.n) && pn.child[hi] == r {
		pn.keys[hi], pn.vals[hi] = rn.keys[0], rn.sum()
	}
	return -1
}

func (b *sumBTree[T, V]) get(k T) V {
	if b.root == 0 || k != k {
		return 0
	}
	id := b.root
	for h := b.height; h > 0; h-- {
		nd := &b.nodes[id]
		id = nd.child[nd.route(k)]
	}
	leaf := &b.nodes[id]
	if i := leaf.find(k); i < int(leaf.n) && leaf.keys[i] == k {
		return leaf.vals[i]
	}
	return 0
}

func (b *sumBTree[T, V]) empty() bool { return b.root == 0 }

// below reports whether key k is below x (at or below it, with incl).
func below[T cmp.Ordered](k, x T, incl bool) bool { return k < x || incl && k == x }

// sumBelow sums the values of the keys below x (at or below, with incl).
func (b *sumBTree[T, V]) sumBelow(x T, incl bool) V {
	if b.empty() {
		return 0
	}
	return b.sumBelowFrom(b.root, b.height, x, incl)
}

func (b *sumBTree[T, V]) sumBelowFrom(id, h int32, x T, incl bool) V {
	var s V
	for ; h > 0; h-- {
		nd := &b.nodes[id]
		// Children before the last whose least key is below x hold only
		// keys below x.
		i := 0
		for i+1 < int(nd.n) && below(nd.keys[i+1], x, incl) {
			s += nd.vals[i]
			i++
		}
		id = nd.child[i]
	}
	nd := &b.nodes[id]
	for i := 0; i < int(nd.n) && below(nd.keys[i], x, incl); i++ {
		s += nd.vals[i]
	}
	return s
}

// sumAbove sums the values of the keys above x (at or above, with incl).
func (b *sumBTree[T, V]) sumAbove(x T, incl bool) V {
	if b.empty() || x != x {
		return 0
	}
	return b.sumAboveFrom(b.root, b.height, x, incl)
}

func (b *sumBTree[T, V]) sumAboveFrom(id, h int32, x T, incl bool) V {
	var s V
	for ; h > 0; h-- {
		nd := &b.nodes[id]
		// Children after the first whose successor's least key is above x
		// hold only keys above x; that first one holds some.
		i := int(nd.n) - 1
		for i > 0 && !below(nd.keys[i], x, !incl) {
			s += nd.vals[i]
			i--
		}
		id = nd.child[i]
	}
	nd := &b.nodes[id]
	for i := int(nd.n) - 1; i >= 0 && !below(nd.keys[i], x, !incl); i-- {
		s += nd.vals[i]
	}
	return s
}

// sumBetween sums the values of the keys from lo to hi.
func (b *sumBTree[T, V]) sumBetween(lo T, loIncl bool, hi T, hiIncl bool) V {
	if b.empty() || lo != lo || hi != hi || hi < lo || hi == lo && !(loIncl && hiIncl) {
		return 0
	}
	id := b.root
	for h := b.height; h > 0; h-- {
		nd := &b.nodes[id]
		// The children of lo's and hi's ends: a child j holds keys in
		// [keys[j], keys[j+1]).
		i := 0
		for i+1 < int(nd.n) && below(nd.keys[i+1], lo, !loIncl) {
			i++
		}
		j := i
		for j+1 < int(nd.n) && below(nd.keys[j+1], hi, hiIncl) {
			j++
		}
		if i == j {
			id = nd.child[i]
			continue
		}
		s := b.sumAboveFrom(nd.child[i], h-1, lo, loIncl)
		for m := i + 1; m < j; m++ {
			s += nd.vals[m]
		}
		return s + b.sumBelowFrom(nd.child[j], h-1, hi, hiIncl)
	}
	var s V
	nd := &b.nodes[id]
	for i := 0; i < int(nd.n); i++ {
		if k := nd.keys[i]; !below(k, lo, !loIncl) && below(k, hi, hiIncl) {
			s += nd.vals[i]
		}
	}
	return s
}

func (b *sumBTree[T, V]) walk(yield func(T, V) bool) {
	if !b.empty() {
		b.walkFrom(b.root, b.height, yield)
	}
}

func (b *sumBTree[T, V]) walkFrom(id, h int32, yield func(T, V) bool) bool {
	nd := &b.nodes[id]
	for i := 0; i < int(nd.n); i++ {
		if h == 0 {
			if !yield(nd.keys[i], nd.vals[i]) {
				return false
			}
		} else if !b.walkFrom(nd.child[i], h-1, yield) {
			return false
		}
	}
	return true
}
