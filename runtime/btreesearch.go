package runtime

// Searches of a sumBTree by monotone predicates: the rays and ranges of
// RangeSum.SumWhere, the threshold of RangeSum.Threshold and the rank of
// RangeSum.Select. Each is one descent; at an inner node a child j holds
// the keys from keys[j] up to (not including) keys[j+1].

// firstKey returns the position of the first of the ascending keys where
// pred gives up, pred being monotone along them (false then true for up,
// true then false for !up); len(keys) if none. A binary search: a node's
// entries cost log₂ btreeWidth calls of pred, not one each.
func firstKey[T any](keys []T, pred func(T) bool, up bool) int {
	lo, hi := 0, len(keys)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if pred(keys[mid]) == up {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// ray sums the values of the keys where pred holds, pred being false then
// true along the keys (up) or true then false (!up), in one descent, and
// returns the least (up) or greatest (!up) such key.
func (b *sumBTree[T, V]) ray(pred func(T) bool, up bool) (sum V, bound T, ok bool) {
	if b.empty() {
		return 0, bound, false
	}
	id := b.root
	for h := b.height; ; h-- {
		nd := &b.nodes[id]
		n := int(nd.n)
		// j: the first entry whose key is past the change of pred.
		j := firstKey(nd.keys[:n], pred, up)
		if up {
			for m := j; m < n; m++ {
				sum += nd.vals[m]
			}
			if j < n {
				bound, ok = nd.keys[j], true
			}
			if h == 0 || j == 0 {
				return sum, bound, ok
			}
			id = nd.child[j-1] // may hold the least keys where pred holds
			continue
		}
		if j == 0 {
			return sum, bound, ok
		}
		if h == 0 {
			for m := range j {
				sum += nd.vals[m]
			}
			return sum, nd.keys[j-1], true
		}
		for m := range j - 1 {
			sum += nd.vals[m]
		}
		bound, ok = nd.keys[j-1], true
		id = nd.child[j-1]
	}
}

// where returns the range of the keys for which up and down hold
// (monotone predicates, see RangeSum.SumWhere).
func (b *sumBTree[T, V]) where(up, down func(T) bool) keyRange[T] {
	r := keyRange[T]{ok: true}
	if up != nil {
		_, r.lo, r.ok = b.ray(up, true)
		r.hasLo = r.ok
		if !r.ok {
			return r
		}
	}
	if down != nil {
		var found bool
		_, r.hi, found = b.ray(down, false)
		r.hasHi = found
		r.ok = found && !(r.hasLo && r.hi < r.lo)
	}
	return r
}

// sumRange sums the values of the keys in range r.
func (b *sumBTree[T, V]) sumRange(r keyRange[T]) V {
	switch {
	case !r.ok:
		return 0
	case r.hasLo && r.hasHi:
		return b.sumBetween(r.lo, true, r.hi, true)
	case r.hasLo:
		return b.sumAbove(r.lo, true)
	case r.hasHi:
		return b.sumBelow(r.hi, true)
	}
	return b.total
}

func (b *sumBTree[T, V]) sumWhere(up, down func(T) bool) V {
	switch {
	case up == nil && down == nil:
		return b.total
	case down == nil:
		s, _, _ := b.ray(up, true)
		return s
	case up == nil:
		s, _, _ := b.ray(down, false)
		return s
	}
	return b.sumRange(b.where(up, down))
}

func (b *sumBTree[T, V]) sumWhereEither(up1, down1, up2, down2 func(T) bool) V {
	// Two rays, one up, one down (AXFinder's |k − p| > c): each one
	// descent; where they overlap they cover every key.
	if down1 == nil && up2 == nil && up1 != nil && down2 != nil || up1 == nil && down2 == nil && down1 != nil && up2 != nil {
		u, d := up1, down2
		if u == nil {
			u, d = up2, down1
		}
		su, lo, okU := b.ray(u, true)
		sd, hi, okD := b.ray(d, false)
		if okU && okD && !(hi < lo) {
			return b.total
		}
		return su + sd
	}
	r1, r2 := b.where(up1, down1), b.where(up2, down2)
	if u, overlap := r1.union(r2); overlap {
		return b.sumRange(u)
	}
	return b.sumRange(r1) + b.sumRange(r2)
}

// union returns the range covering r and s when they overlap (each key of
// their union then summed once).
func (r keyRange[T]) union(s keyRange[T]) (keyRange[T], bool) {
	if !r.ok || !s.ok || r.hasHi && s.hasLo && r.hi < s.lo || s.hasHi && r.hasLo && s.hi < r.lo {
		return keyRange[T]{}, false
	}
	u := keyRange[T]{lo: r.lo, hasLo: r.hasLo && s.hasLo, hi: r.hi, hasHi: r.hasHi && s.hasHi, ok: true}
	if u.hasLo && s.lo < u.lo {
		u.lo = s.lo
	}
	if u.hasHi && s.hi > u.hi {
		u.hi = s.hi
	}
	return u, true
}

func (b *sumBTree[T, V]) sumRay(r KeyRay[T]) V {
	switch {
	case r.None:
		return 0
	case r.All:
		return b.total
	case r.Up:
		return b.sumAbove(r.Bound, r.Incl)
	}
	return b.sumBelow(r.Bound, r.Incl)
}

// threshold is RangeSum.Threshold: the ray of keys k where pred(F(k))
// holds. It finds, in one descent, the least key where g = pred∘F takes
// its value at the top of the key order (when F(k) is right-valued: the
// sum above k, or at or below it) or the greatest key where g still has
// its value at the bottom (F left-valued: at or above k, or below it). At
// an inner node F is known at the last key of each child (right-valued) or
// at its first key (left-valued) from the children's sums.
func (b *sumBTree[T, V]) threshold(above, incl bool, pred func(V) bool) KeyRay[T] {
	var lowF, highF V = b.total, 0
	if !above {
		lowF, highF = 0, b.total
	}
	gLow, gHigh := pred(lowF), pred(highF)
	if gLow == gHigh || b.empty() {
		return KeyRay[T]{All: gLow, None: !gLow}
	}
	up := !gLow // g goes false → true along the keys
	var acc V   // the sum of the keys after (above) or before the node
	id := b.root
	for h := b.height; ; h-- {
		nd := &b.nodes[id]
		n := int(nd.n)
		var j int
		var part V // the sum of the entries after (above) or before j
		if above {
			// Right-valued (F(last of j) = acc + Σ after j, g == up on a
			// suffix: the least such j) or left-valued (F(first of j) = acc
			// + Σ from j, g != up on a prefix: the greatest such j): both
			// move j left while F at j's left neighbour's end gives up.
			j = n - 1
			for j > 0 && pred(acc+part+nd.vals[j]) == up {
				part += nd.vals[j]
				j--
			}
		} else {
			// F(last of j) = acc + Σ up to j (g == up on a suffix) or
			// F(first of j + 1) = acc + Σ up to j (g != up on a prefix):
			// both move j right while that F does not give up.
			for j < n-1 && pred(acc+part+nd.vals[j]) != up {
				part += nd.vals[j]
				j++
			}
		}
		if h == 0 {
			if above != incl { // right-valued: g changes at this key
				return KeyRay[T]{Bound: nd.keys[j], Up: up, Incl: up}
			}
			// Left-valued: g changes just after this key.
			return KeyRay[T]{Bound: nd.keys[j], Up: up, Incl: !up}
		}
		acc += part
		id = nd.child[j]
	}
}

// sel is RangeSum.Select: the least key whose value and those of the keys
// below it sum to more than i.
func (b *sumBTree[T, V]) sel(i V) T {
	if !b.empty() {
		id := b.root
	descend:
		for h := b.height; ; h-- {
			nd := &b.nodes[id]
			for j := range int(nd.n) {
				if v := nd.vals[j]; i < v {
					if h == 0 {
						return nd.keys[j]
					}
					id = nd.child[j]
					continue descend
				} else {
					i -= v
				}
			}
			break
		}
	}
	var zero T
	return zero
}
