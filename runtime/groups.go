package runtime

// groupRoots maps the group keys of an index (RangeSumIndex, OrderedIndex)
// to the roots of their trees. The roots live in a slice, recycled through
// a free list, and the last group updated is remembered: the statements of
// one event read and update the same group several times (BrokerSpread's
// broker: two range reads and an update per map), and those after its
// first update find it without hashing. Reads never write the cache, so
// that readers sharing an engine (Guard) do not race. The zero value is
// empty.
type groupRoots[K comparable] struct {
	pos   map[K]int32 // group → position in roots
	roots []treeRoot  // live and free
	free  []int32
	last  K     // the group found last …
	at    int32 // … at position at-1 (0: none)
}

// treeRoot is a group's tree: its root node (0: empty), its height (a
// B+-tree's: 0 when the root is a leaf; a treap has none) and its number
// of keys.
type treeRoot struct{ root, height, n int32 }

// find returns the position of group g's root, if g has one.
func (r *groupRoots[K]) find(g K) (int32, bool) {
	if r.at != 0 && r.last == g {
		return r.at - 1, true
	}
	i, ok := r.pos[g]
	return i, ok
}

// root returns the root of group g's tree (0: empty).
func (r *groupRoots[K]) root(g K) int32 {
	if i, ok := r.find(g); ok {
		return r.roots[i].root
	}
	return 0
}

// tree returns group g's tree (empty if g has none).
func (r *groupRoots[K]) tree(g K) treeRoot {
	if i, ok := r.find(g); ok {
		return r.roots[i]
	}
	return treeRoot{}
}

// size returns the number of keys of group g's tree.
func (r *groupRoots[K]) size(g K) int32 {
	if i, ok := r.find(g); ok {
		return r.roots[i].n
	}
	return 0
}

// slot returns the root of group g, creating an empty one if g has none;
// call settle after changing the tree.
func (r *groupRoots[K]) slot(g K) *treeRoot {
	i, ok := r.find(g)
	if ok {
		r.last, r.at = g, i+1
	} else {
		if r.pos == nil {
			r.pos = make(map[K]int32)
		}
		if n := len(r.free); n > 0 {
			i = r.free[n-1]
			r.free = r.free[:n-1]
			r.roots[i] = treeRoot{}
		} else {
			i = int32(len(r.roots))
			r.roots = append(r.roots, treeRoot{})
		}
		r.pos[g] = i
		r.last, r.at = g, i+1
	}
	return &r.roots[i]
}

// settle drops group g when its tree has become empty.
func (r *groupRoots[K]) settle(g K) {
	i, ok := r.find(g)
	if !ok || r.roots[i].n != 0 {
		return
	}
	delete(r.pos, g)
	r.free = append(r.free, i)
	r.at = 0
}

// len returns the number of groups.
func (r *groupRoots[K]) len() int { return len(r.pos) }

// reset drops every group, keeping the storage.
func (r *groupRoots[K]) reset() {
	clear(r.pos)
	r.roots, r.free, r.at = r.roots[:0], r.free[:0], 0
}
