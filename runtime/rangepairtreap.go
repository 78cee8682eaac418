package runtime

import "cmp"

// sumTreap2 is sumTreap with two value lanes: each node holds a value of
// each lane and both subtree sums, so that one descent updates or reads
// both. Node 0 is the nil sentinel: its sums stay 0. A node stays while
// either of its values is not 0. Its searches take sumTreap's paths (see
// there) and return both lanes' sums.
type sumTreap2[T cmp.Ordered, V1, V2 Number] struct {
	nodes []rsNode2[T, V1, V2] // live and free nodes
	free  int32                // head of the free list, linked through left; 0 if empty
	seed  uint32
	// unsigned1 and unsigned2 count the keys whose lane-1 (lane-2) value
	// is not ≥ 0, in all trees (Negative1, Negative2).
	unsigned1, unsigned2 int32
	path                 []int32 // change's descent, kept for reuse
}

type rsNode2[T cmp.Ordered, V1, V2 Number] struct {
	key         T
	v1, s1      V1 // lane 1: the key's value, the subtree's sum
	v2, s2      V2 // lane 2
	pri         uint32
	left, right int32
}

func (a *sumTreap2[T, V1, V2]) sums(t int32) (V1, V2) {
	if t == 0 {
		return 0, 0
	}
	return a.nodes[t].s1, a.nodes[t].s2
}

func (a *sumTreap2[T, V1, V2]) pull(t int32) {
	nd := &a.nodes[t]
	l, r := &a.nodes[nd.left], &a.nodes[nd.right]
	nd.s1 = l.s1 + nd.v1 + r.s1
	nd.s2 = l.s2 + nd.v2 + r.s2
}

// count keeps the unsigned counts as a key's values go from o1, o2 to n1, n2.
func (a *sumTreap2[T, V1, V2]) count(o1 V1, o2 V2, n1 V1, n2 V2) {
	if o1 != 0 && !(o1 >= 0) {
		a.unsigned1--
	}
	if n1 != 0 && !(n1 >= 0) {
		a.unsigned1++
	}
	if o2 != 0 && !(o2 >= 0) {
		a.unsigned2--
	}
	if n2 != 0 && !(n2 >= 0) {
		a.unsigned2++
	}
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

// update applies op with values v1, v2 to key k (not NaN) in the subtree
// t holding *size keys, removing k when both its values are 0, and returns
// the subtree's new root.
func (a *sumTreap2[T, V1, V2]) update(t int32, size *int32, k T, v1 V1, v2 V2, op pairOp) int32 {
	if r, found := a.change(t, size, k, v1, v2, op); found {
		return r
	}
	n1, n2 := after(op, 0, 0, v1, v2)
	if n1 == 0 && n2 == 0 {
		return t
	}
	x := a.alloc()
	nd := &a.nodes[x]
	nd.key, nd.v1, nd.s1, nd.v2, nd.s2, nd.pri, nd.left, nd.right = k, n1, n1, n2, n2, xorshift(&a.seed), 0, 0
	a.count(0, 0, n1, n2)
	*size++
	return a.insert(t, x)
}

func (a *sumTreap2[T, V1, V2]) get(t int32, k T) (V1, V2) {
	for t != 0 && k == k {
		nd := &a.nodes[t]
		switch {
		case k < nd.key:
			t = nd.left
		case k > nd.key:
			t = nd.right
		default:
			return nd.v1, nd.v2
		}
	}
	return 0, 0
}

// change applies op to k in subtree t and returns the subtree's new root,
// if k is in it (found); else it changes nothing (see sumTreap.change).
func (a *sumTreap2[T, V1, V2]) change(t int32, size *int32, k T, v1 V1, v2 V2, op pairOp) (root int32, found bool) {
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
	n1, n2 := after(op, nd.v1, nd.v2, v1, v2)
	a.count(nd.v1, nd.v2, n1, n2)
	if n1 == 0 && n2 == 0 {
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
		nd.v1, nd.v2 = n1, n2
		a.pull(n)
	}
	for i := len(path) - 1; i >= 0; i-- {
		a.pull(path[i])
	}
	return t, true
}

func (a *sumTreap2[T, V1, V2]) insert(t, x int32) int32 {
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

func (a *sumTreap2[T, V1, V2]) split(t int32, k T) (int32, int32) {
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

func (a *sumTreap2[T, V1, V2]) merge(l, r int32) int32 {
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

func (a *sumTreap2[T, V1, V2]) sumBelow(t int32, x T, incl bool) (s1 V1, s2 V2) {
	for t != 0 {
		nd := &a.nodes[t]
		if nd.key < x || incl && nd.key == x {
			l := &a.nodes[nd.left]
			s1 += l.s1 + nd.v1
			s2 += l.s2 + nd.v2
			t = nd.right
		} else {
			t = nd.left
		}
	}
	return s1, s2
}

func (a *sumTreap2[T, V1, V2]) sumAbove(t int32, x T, incl bool) (s1 V1, s2 V2) {
	for t != 0 {
		nd := &a.nodes[t]
		if nd.key > x || incl && nd.key == x {
			r := &a.nodes[nd.right]
			s1 += r.s1 + nd.v1
			s2 += r.s2 + nd.v2
			t = nd.left
		} else {
			t = nd.right
		}
	}
	return s1, s2
}

func (a *sumTreap2[T, V1, V2]) sumBetween(t int32, lo T, loIncl bool, hi T, hiIncl bool) (V1, V2) {
	for t != 0 {
		nd := &a.nodes[t]
		switch {
		case !(nd.key > lo || loIncl && nd.key == lo):
			t = nd.right
		case !(nd.key < hi || hiIncl && nd.key == hi):
			t = nd.left
		default:
			a1, a2 := a.sumAbove(nd.left, lo, loIncl)
			b1, b2 := a.sumBelow(nd.right, hi, hiIncl)
			return a1 + nd.v1 + b1, a2 + nd.v2 + b2
		}
	}
	return 0, 0
}

// where is sumTreap.where.
func (a *sumTreap2[T, V1, V2]) where(t int32, up, down func(T) bool) keyRange[T] {
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

func (a *sumTreap2[T, V1, V2]) sumRange(t int32, r keyRange[T]) (V1, V2) {
	switch {
	case !r.ok:
		return 0, 0
	case r.hasLo && r.hasHi:
		return a.sumBetween(t, r.lo, true, r.hi, true)
	case r.hasLo:
		return a.sumAbove(t, r.lo, true)
	case r.hasHi:
		return a.sumBelow(t, r.hi, true)
	}
	return a.sums(t)
}

// ray is sumTreap.ray over both lanes.
func (a *sumTreap2[T, V1, V2]) ray(t int32, pred func(T) bool, up bool) (s1 V1, s2 V2, bound T, ok bool) {
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
			r := &a.nodes[nd.right]
			s1 += r.s1 + nd.v1
			s2 += r.s2 + nd.v2
			bound, ok = nd.key, true
			t = nd.left
		default:
			l := &a.nodes[nd.left]
			s1 += l.s1 + nd.v1
			s2 += l.s2 + nd.v2
			bound, ok = nd.key, true
			t = nd.right
		}
	}
	return s1, s2, bound, ok
}

func (a *sumTreap2[T, V1, V2]) sumWhere(t int32, up, down func(T) bool) (V1, V2) {
	switch {
	case up == nil && down == nil:
		return a.sums(t)
	case down == nil:
		s1, s2, _, _ := a.ray(t, up, true)
		return s1, s2
	case up == nil:
		s1, s2, _, _ := a.ray(t, down, false)
		return s1, s2
	}
	return a.sumRange(t, a.where(t, up, down))
}

// sumWhereEither is sumTreap.sumWhereEither over both lanes.
func (a *sumTreap2[T, V1, V2]) sumWhereEither(t int32, up1, down1, up2, down2 func(T) bool) (V1, V2) {
	if down1 == nil && up2 == nil && up1 != nil && down2 != nil || up1 == nil && down2 == nil && down1 != nil && up2 != nil {
		u, d := up1, down2
		if u == nil {
			u, d = up2, down1
		}
		u1, u2, lo, okU := a.ray(t, u, true)
		d1, d2, hi, okD := a.ray(t, d, false)
		if okU && okD && !(hi < lo) {
			return a.sums(t)
		}
		return u1 + d1, u2 + d2
	}
	r1, r2 := a.where(t, up1, down1), a.where(t, up2, down2)
	if u, overlap := r1.union(r2); overlap {
		return a.sumRange(t, u)
	}
	a1, a2 := a.sumRange(t, r1)
	b1, b2 := a.sumRange(t, r2)
	return a1 + b1, a2 + b2
}

func (a *sumTreap2[T, V1, V2]) reset() {
	if len(a.nodes) > 0 {
		a.nodes = a.nodes[:1]
	}
	a.free, a.unsigned1, a.unsigned2 = 0, 0, 0
}

func (a *sumTreap2[T, V1, V2]) alloc() int32 {
	if x := a.free; x != 0 {
		a.free = a.nodes[x].left
		return x
	}
	if len(a.nodes) == 0 {
		a.nodes = append(a.nodes, rsNode2[T, V1, V2]{}) // the nil sentinel
	}
	a.nodes = append(a.nodes, rsNode2[T, V1, V2]{})
	return int32(len(a.nodes) - 1)
}

// threshold1 is sumTreap.threshold over lane 1's sums: the ray of keys k
// where pred(F(k)) holds, F(k) the sum of lane 1's values above k (or
// below it). It also returns the sum of lane 2's values over the ray: the
// descent splits the keys into those at or above the last node where g
// held its upper value (accAbove) and those at or below the last where it
// did not (accBelow), and the ray is one side.
func (a *sumTreap2[T, V1, V2]) threshold1(t int32, above, incl bool, pred func(V1) bool) (KeyRay[T], V2) {
	total, total2 := a.sums(t)
	var lowF, highF V1 = total, 0
	if !above {
		lowF, highF = 0, total
	}
	gLow, gHigh := pred(lowF), pred(highF)
	if gLow == gHigh {
		if gLow {
			return KeyRay[T]{All: true}, total2
		}
		return KeyRay[T]{None: true}, 0
	}
	up := !gLow
	var accAbove, accBelow V1
	var above2, below2 V2
	var cand, prev T
	for n := t; n != 0; {
		nd := &a.nodes[n]
		l, r := &a.nodes[nd.left], &a.nodes[nd.right]
		var f V1
		if above {
			f = accAbove + r.s1
		} else {
			f = accBelow + l.s1
		}
		if incl {
			f += nd.v1
		}
		if pred(f) == up {
			cand = nd.key
			accAbove += r.s1 + nd.v1
			above2 += r.s2 + nd.v2
			n = nd.left
		} else {
			prev = nd.key
			accBelow += l.s1 + nd.v1
			below2 += l.s2 + nd.v2
			n = nd.right
		}
	}
	sum := below2
	if up {
		sum = above2
	}
	if above != incl {
		return KeyRay[T]{Bound: cand, Up: up, Incl: up}, sum
	}
	return KeyRay[T]{Bound: prev, Up: up, Incl: !up}, sum
}

// threshold2 is threshold1's search over lane 2's sums (without a sum of
// lane 1).
func (a *sumTreap2[T, V1, V2]) threshold2(t int32, above, incl bool, pred func(V2) bool) KeyRay[T] {
	_, total := a.sums(t)
	var lowF, highF V2 = total, 0
	if !above {
		lowF, highF = 0, total
	}
	gLow, gHigh := pred(lowF), pred(highF)
	if gLow == gHigh {
		return KeyRay[T]{All: gLow, None: !gLow}
	}
	up := !gLow
	var accAbove, accBelow V2
	var cand, prev T
	for n := t; n != 0; {
		nd := &a.nodes[n]
		l, r := &a.nodes[nd.left], &a.nodes[nd.right]
		var f V2
		if above {
			f = accAbove + r.s2
		} else {
			f = accBelow + l.s2
		}
		if incl {
			f += nd.v2
		}
		if pred(f) == up {
			cand = nd.key
			accAbove += r.s2 + nd.v2
			n = nd.left
		} else {
			prev = nd.key
			accBelow += l.s2 + nd.v2
			n = nd.right
		}
	}
	if above != incl {
		return KeyRay[T]{Bound: cand, Up: up, Incl: up}
	}
	return KeyRay[T]{Bound: prev, Up: up, Incl: !up}
}

// sumRay returns both lanes' sums over the keys of ray r.
func (a *sumTreap2[T, V1, V2]) sumRay(t int32, r KeyRay[T]) (V1, V2) {
	switch {
	case r.None:
		return 0, 0
	case r.All:
		return a.sums(t)
	case r.Up:
		return a.sumAbove(t, r.Bound, r.Incl)
	}
	return a.sumBelow(t, r.Bound, r.Incl)
}

// sumRays returns both lanes' sums over the keys in rays r and q.
func (a *sumTreap2[T, V1, V2]) sumRays(t int32, r, q KeyRay[T]) (V1, V2) {
	one, lo, hi, between := meetRays(r, q)
	if between {
		return a.sumBetween(t, lo.Bound, lo.Incl, hi.Bound, hi.Incl)
	}
	return a.sumRay(t, one)
}
