package runtime

import "cmp"

// The reads of a sumBTree2: sumBTree's range sums, rays and thresholds
// (btree.go, btreesearch.go), each returning both lanes' sums from one
// descent. At an inner node a child j holds the keys from keys[j] up to
// (not including) keys[j+1].

func (b *sumBTree2[T, V1, V2]) sumBelow(r treeRoot, x T, incl bool) (V1, V2) {
	if r.root == 0 {
		return 0, 0
	}
	return b.sumBelowFrom(r.root, r.height, x, incl)
}

func (b *sumBTree2[T, V1, V2]) sumBelowFrom(id, h int32, x T, incl bool) (s1 V1, s2 V2) {
	for ; h > 0; h-- {
		nd := &b.nodes[id]
		i := 0
		for i+1 < int(nd.n) && below(nd.keys[i+1], x, incl) {
			s1 += nd.v1[i]
			s2 += nd.v2[i]
			i++
		}
		id = nd.child[i]
	}
	nd := &b.nodes[id]
	for i := 0; i < int(nd.n) && below(nd.keys[i], x, incl); i++ {
		s1 += nd.v1[i]
		s2 += nd.v2[i]
	}
	return s1, s2
}

func (b *sumBTree2[T, V1, V2]) sumAbove(r treeRoot, x T, incl bool) (V1, V2) {
	if r.root == 0 || x != x {
		return 0, 0
	}
	return b.sumAboveFrom(r.root, r.height, x, incl)
}

func (b *sumBTree2[T, V1, V2]) sumAboveFrom(id, h int32, x T, incl bool) (s1 V1, s2 V2) {
	for ; h > 0; h-- {
		nd := &b.nodes[id]
		i := int(nd.n) - 1
		for i > 0 && !below(nd.keys[i], x, !incl) {
			s1 += nd.v1[i]
			s2 += nd.v2[i]
			i--
		}
		id = nd.child[i]
	}
	nd := &b.nodes[id]
	for i := int(nd.n) - 1; i >= 0 && !below(nd.keys[i], x, !incl); i-- {
		s1 += nd.v1[i]
		s2 += nd.v2[i]
	}
	return s1, s2
}

// sumSplit is sumBelow and sumAbove at x in one descent: the path to the
// leaf that would hold x, where the children left of it are below x and
// those right of it above (an inner key equal to x starts the child the
// path takes).
func (b *sumBTree2[T, V1, V2]) sumSplit(r treeRoot, x T, belowIncl, aboveIncl bool) (b1, a1 V1, b2, a2 V2) {
	if r.root == 0 || x != x {
		return
	}
	id := r.root
	for h := r.height; h > 0; h-- {
		nd := &b.nodes[id]
		n := int(nd.n)
		i := 0
		for i+1 < n && nd.keys[i+1] <= x {
			b1 += nd.v1[i]
			b2 += nd.v2[i]
			i++
		}
		for j := i + 1; j < n; j++ {
			a1 += nd.v1[j]
			a2 += nd.v2[j]
		}
		id = nd.child[i]
	}
	nd := &b.nodes[id]
	for i := range int(nd.n) {
		switch k := nd.keys[i]; {
		case k < x:
			b1 += nd.v1[i]
			b2 += nd.v2[i]
		case k > x:
			a1 += nd.v1[i]
			a2 += nd.v2[i]
		default:
			if belowIncl {
				b1 += nd.v1[i]
				b2 += nd.v2[i]
			}
			if aboveIncl {
				a1 += nd.v1[i]
				a2 += nd.v2[i]
			}
		}
	}
	return
}

func (b *sumBTree2[T, V1, V2]) sumBetween(r treeRoot, lo T, loIncl bool, hi T, hiIncl bool) (V1, V2) {
	if r.root == 0 || lo != lo || hi != hi || hi < lo || hi == lo && !(loIncl && hiIncl) {
		return 0, 0
	}
	id := r.root
	for h := r.height; h > 0; h-- {
		nd := &b.nodes[id]
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
		s1, s2 := b.sumAboveFrom(nd.child[i], h-1, lo, loIncl)
		for m := i + 1; m < j; m++ {
			s1 += nd.v1[m]
			s2 += nd.v2[m]
		}
		t1, t2 := b.sumBelowFrom(nd.child[j], h-1, hi, hiIncl)
		return s1 + t1, s2 + t2
	}
	var s1 V1
	var s2 V2
	nd := &b.nodes[id]
	for i := 0; i < int(nd.n); i++ {
		if k := nd.keys[i]; !below(k, lo, !loIncl) && below(k, hi, hiIncl) {
			s1 += nd.v1[i]
			s2 += nd.v2[i]
		}
	}
	return s1, s2
}

// ray is sumBTree.ray over both lanes.
func (b *sumBTree2[T, V1, V2]) ray(r treeRoot, pred func(T) bool, up bool) (s1 V1, s2 V2, bound T, ok bool) {
	if r.root == 0 {
		return 0, 0, bound, false
	}
	id := r.root
	for h := r.height; ; h-- {
		nd := &b.nodes[id]
		n := int(nd.n)
		j := firstKey(nd.keys[:n], pred, up)
		if up {
			for m := j; m < n; m++ {
				s1 += nd.v1[m]
				s2 += nd.v2[m]
			}
			if j < n {
				bound, ok = nd.keys[j], true
			}
			if h == 0 || j == 0 {
				return s1, s2, bound, ok
			}
			id = nd.child[j-1] // may hold the least keys where pred holds
			continue
		}
		if j == 0 {
			return s1, s2, bound, ok
		}
		if h == 0 {
			for m := range j {
				s1 += nd.v1[m]
				s2 += nd.v2[m]
			}
			return s1, s2, nd.keys[j-1], true
		}
		for m := range j - 1 {
			s1 += nd.v1[m]
			s2 += nd.v2[m]
		}
		bound, ok = nd.keys[j-1], true
		id = nd.child[j-1]
	}
}

// where is sumBTree.where.
func (b *sumBTree2[T, V1, V2]) where(r treeRoot, up, down func(T) bool) keyRange[T] {
	kr := keyRange[T]{ok: true}
	if up != nil {
		_, _, kr.lo, kr.ok = b.ray(r, up, true)
		kr.hasLo = kr.ok
		if !kr.ok {
			return kr
		}
	}
	if down != nil {
		var found bool
		_, _, kr.hi, found = b.ray(r, down, false)
		kr.hasHi = found
		kr.ok = found && !(kr.hasLo && kr.hi < kr.lo)
	}
	return kr
}

func (b *sumBTree2[T, V1, V2]) sumRange(r treeRoot, kr keyRange[T]) (V1, V2) {
	switch {
	case !kr.ok:
		return 0, 0
	case kr.hasLo && kr.hasHi:
		return b.sumBetween(r, kr.lo, true, kr.hi, true)
	case kr.hasLo:
		return b.sumAbove(r, kr.lo, true)
	case kr.hasHi:
		return b.sumBelow(r, kr.hi, true)
	}
	return b.total(r)
}

func (b *sumBTree2[T, V1, V2]) sumWhere(r treeRoot, up, down func(T) bool) (V1, V2) {
	switch {
	case up == nil && down == nil:
		return b.total(r)
	case down == nil:
		s1, s2, _, _ := b.ray(r, up, true)
		return s1, s2
	case up == nil:
		s1, s2, _, _ := b.ray(r, down, false)
		return s1, s2
	}
	return b.sumRange(r, b.where(r, up, down))
}

// sumWhereEither is sumBTree.sumWhereEither over both lanes.
func (b *sumBTree2[T, V1, V2]) sumWhereEither(r treeRoot, up1, down1, up2, down2 func(T) bool) (V1, V2) {
	if down1 == nil && up2 == nil && up1 != nil && down2 != nil || up1 == nil && down2 == nil && down1 != nil && up2 != nil {
		u, d := up1, down2
		if u == nil {
			u, d = up2, down1
		}
		u1, u2, lo, okU := b.ray(r, u, true)
		d1, d2, hi, okD := b.ray(r, d, false)
		if okU && okD && !(hi < lo) {
			return b.total(r)
		}
		return u1 + d1, u2 + d2
	}
	r1, r2 := b.where(r, up1, down1), b.where(r, up2, down2)
	if u, overlap := r1.union(r2); overlap {
		return b.sumRange(r, u)
	}
	a1, a2 := b.sumRange(r, r1)
	c1, c2 := b.sumRange(r, r2)
	return a1 + c1, a2 + c2
}

// sumRay returns both lanes' sums over the keys of ray kr.
func (b *sumBTree2[T, V1, V2]) sumRay(r treeRoot, kr KeyRay[T]) (V1, V2) {
	switch {
	case kr.None:
		return 0, 0
	case kr.All:
		return b.total(r)
	case kr.Up:
		return b.sumAbove(r, kr.Bound, kr.Incl)
	}
	return b.sumBelow(r, kr.Bound, kr.Incl)
}

// sumRays returns both lanes' sums over the keys in rays kr and kq.
func (b *sumBTree2[T, V1, V2]) sumRays(r treeRoot, kr, kq KeyRay[T]) (V1, V2) {
	one, lo, hi, between := meetRays(kr, kq)
	if between {
		return b.sumBetween(r, lo.Bound, lo.Incl, hi.Bound, hi.Incl)
	}
	return b.sumRay(r, one)
}

// threshold1 is sumBTree.threshold over lane 1's sums by pred, or by
// bound when pred is nil, and the sum of lane 2's values over the ray it
// returns.
func (b *sumBTree2[T, V1, V2]) threshold1(r treeRoot, above, incl bool, pred func(V1) bool, bound *SumBound[V1]) (KeyRay[T], V2) {
	return laneThreshold(b, r, above, incl, pred, bound, true, func(nd *btNode2[T, V1, V2]) (*[btreeWidth]V1, *[btreeWidth]V2) {
		return &nd.v1, &nd.v2
	}, func(nd *btNode2[T, V1, V2]) (V1, V2) { return nd.sum1, nd.sum2 })
}

// threshold2 is threshold1's search over lane 2's sums.
func (b *sumBTree2[T, V1, V2]) threshold2(r treeRoot, above, incl bool, pred func(V2) bool, bound *SumBound[V2]) KeyRay[T] {
	ray, _ := laneThreshold(b, r, above, incl, pred, bound, false, func(nd *btNode2[T, V1, V2]) (*[btreeWidth]V2, *[btreeWidth]V1) {
		return &nd.v2, &nd.v1
	}, func(nd *btNode2[T, V1, V2]) (V2, V1) { return nd.sum2, nd.sum1 })
	return ray
}

// laneThreshold is sumBTree.threshold over the sums of the lane S that
// lanes picks from a node (O being the other lane; sumLanes picks the
// root's sums of both in the same order): the ray of keys k
// where pred(F(k)) holds (bound.holds when pred is nil: compared inline,
// no call per entry), F(k) the sum of S above k (above) or below it, at k
// too with incl. With other it also returns the sum of the other lane's
// values over the ray, from the same descent: the keys right of the path
// (the ray goes up) or left of it are summed on the way down.
func laneThreshold[T cmp.Ordered, V1, V2, S, O Number](b *sumBTree2[T, V1, V2], r treeRoot, above, incl bool, pred func(S) bool, bound *SumBound[S], other bool,
	lanes func(*btNode2[T, V1, V2]) (*[btreeWidth]S, *[btreeWidth]O), sumLanes func(*btNode2[T, V1, V2]) (S, O)) (KeyRay[T], O) {
	g := func(f S) bool {
		if pred != nil {
			return pred(f)
		}
		return bound.holds(f)
	}
	var total S
	var totalO O
	if r.root != 0 {
		total, totalO = sumLanes(&b.nodes[r.root])
	}
	var lowF, highF S = total, 0
	if !above {
		lowF, highF = 0, total
	}
	gLow, gHigh := g(lowF), g(highF)
	if gLow == gHigh || r.root == 0 {
		if gLow {
			return KeyRay[T]{All: true}, totalO
		}
		return KeyRay[T]{None: true}, 0
	}
	up := !gLow // g goes false → true along the keys
	var acc S   // the sum of the keys after (above) or before the node
	var belowO, aboveO O
	id := r.root
	for h := r.height; ; h-- {
		nd := &b.nodes[id]
		s, o := lanes(nd)
		n := int(nd.n)
		var j int
		// Move j while F at its entry, acc plus the entries from j on
		// (above) or up to j, gives up (see sumBTree.threshold); acc takes
		// in each entry passed, one add per entry, and passedO the other
		// lane's value of each.
		var passedO O
		switch {
		case pred != nil && above:
			j = n - 1
			for ; j > 0; j-- {
				f := acc + s[j]
				if pred(f) != up {
					break
				}
				acc = f
				passedO += o[j]
			}
		case pred != nil:
			for ; j < n-1; j++ {
				f := acc + s[j]
				if pred(f) == up {
					break
				}
				acc = f
				passedO += o[j]
			}
		case above:
			j = n - 1
			for ; j > 0; j-- {
				f := acc + s[j]
				if bound.holds(f) != up {
					break
				}
				acc = f
				passedO += o[j]
			}
		default:
			for ; j < n-1; j++ {
				f := acc + s[j]
				if bound.holds(f) == up {
					break
				}
				acc = f
				passedO += o[j]
			}
		}
		// The entries passed are right of the path (above) or left of it:
		// in the ray when it goes that way (up, or down).
		passedInRay := above == up
		if h == 0 {
			var ray KeyRay[T]
			if above != incl { // right-valued: g changes at this key
				ray = KeyRay[T]{Bound: nd.keys[j], Up: up, Incl: up}
			} else { // left-valued: g changes just after this key
				ray = KeyRay[T]{Bound: nd.keys[j], Up: up, Incl: !up}
			}
			if !other {
				return ray, 0
			}
			// The ray's entries of this leaf: from j (or j+1) up, or down
			// to j (or j-1).
			if up {
				if passedInRay {
					aboveO += passedO
				} else {
					for m := j + 1; m < n; m++ {
						aboveO += o[m]
					}
				}
				if ray.Incl {
					aboveO += o[j]
				}
				return ray, aboveO
			}
			if passedInRay {
				belowO += passedO
			} else {
				for m := range j {
					belowO += o[m]
				}
			}
			if ray.Incl {
				belowO += o[j]
			}
			return ray, belowO
		}
		switch {
		case other && up && passedInRay:
			aboveO += passedO
		case other && up: // the ray goes up: the keys right of the path are in it
			for m := j + 1; m < n; m++ {
				aboveO += o[m]
			}
		case other && passedInRay:
			belowO += passedO
		case other:
			for m := range j {
				belowO += o[m]
			}
		}
		id = nd.child[j]
	}
}
