package runtime

import "iter"

// TreeLevel is one node of a factorized view's tree (a variable order): for
// each value P of the node's root path above it, the node's values K that
// have rows under them, each with the number of those rows, and their sum
// per P. Generated engines keep one per node: after an event changes a
// count factor they recount the rows under the node at the event's key
// (Set), and carry a change of the group's total to the parent. Listing a
// view walks the levels from the roots (Each), and every value listed has
// a row under it, so the walk spends constant time per row. The zero value
// is empty.
type TreeLevel[P, K comparable] struct {
	at     map[levelKey[P, K]]int32 // (P, K) → slot
	slots  []levelSlot[K]           // live and free; slot 0 unused
	free   []int32
	groups map[P]int32 // P → group
	gs     []levelGroup
	freeG  []int32
}

type levelKey[P, K comparable] struct {
	p P
	k K
}

// levelSlot is a value with rows, linked into its group's list.
type levelSlot[K any] struct {
	k          K
	rows       int64
	prev, next int32 // 0: none
	group      int32
}

type levelGroup struct {
	head  int32 // first slot; 0: none
	total int64 // the sum of the slots' rows
}

// Rows returns the number of rows under value k at path p (0: none).
func (l *TreeLevel[P, K]) Rows(p P, k K) int64 {
	if s, ok := l.at[levelKey[P, K]{p, k}]; ok {
		return l.slots[s].rows
	}
	return 0
}

// Total returns the number of rows under path p: the sum over its values.
func (l *TreeLevel[P, K]) Total(p P) int64 {
	if g, ok := l.groups[p]; ok {
		return l.gs[g].total
	}
	return 0
}

// Set makes rows the number of rows under value k at path p, and reports
// whether that changed the total of p.
func (l *TreeLevel[P, K]) Set(p P, k K, rows int64) bool {
	key := levelKey[P, K]{p, k}
	s, ok := l.at[key]
	if !ok {
		if rows == 0 {
			return false
		}
		l.insert(key, rows)
		return true
	}
	sl := &l.slots[s]
	if sl.rows == rows {
		return false
	}
	g := &l.gs[sl.group]
	g.total += rows - sl.rows
	if rows != 0 {
		sl.rows = rows
		return true
	}
	// Unlink the slot; drop the group when it empties.
	if sl.prev != 0 {
		l.slots[sl.prev].next = sl.next
	} else {
		g.head = sl.next
	}
	if sl.next != 0 {
		l.slots[sl.next].prev = sl.prev
	}
	if g.head == 0 {
		l.freeG = append(l.freeG, sl.group)
		delete(l.groups, p)
	}
	delete(l.at, key)
	*sl = levelSlot[K]{}
	l.free = append(l.free, s)
	return true
}

func (l *TreeLevel[P, K]) insert(key levelKey[P, K], rows int64) {
	if l.at == nil {
		l.at = map[levelKey[P, K]]int32{}
		l.groups = map[P]int32{}
		l.slots = make([]levelSlot[K], 1)
		l.gs = make([]levelGroup, 1)
	}
	g, ok := l.groups[key.p]
	if !ok {
		if n := len(l.freeG); n > 0 {
			g = l.freeG[n-1]
			l.freeG = l.freeG[:n-1]
			l.gs[g] = levelGroup{}
		} else {
			g = int32(len(l.gs))
			l.gs = append(l.gs, levelGroup{})
		}
		l.groups[key.p] = g
	}
	var s int32
	if n := len(l.free); n > 0 {
		s = l.free[n-1]
		l.free = l.free[:n-1]
	} else {
		s = int32(len(l.slots))
		l.slots = append(l.slots, levelSlot[K]{})
	}
	grp := &l.gs[g]
	l.slots[s] = levelSlot[K]{k: key.k, rows: rows, next: grp.head, group: g}
	if grp.head != 0 {
		l.slots[grp.head].prev = s
	}
	grp.head = s
	grp.total += rows
	l.at[key] = s
}

// Each iterates over the values with rows under path p. The level must not
// change during the iteration.
func (l *TreeLevel[P, K]) Each(p P) iter.Seq[K] {
	return func(yield func(K) bool) {
		g, ok := l.groups[p]
		if !ok {
			return
		}
		for s := l.gs[g].head; s != 0; s = l.slots[s].next {
			if !yield(l.slots[s].k) {
				return
			}
		}
	}
}

// Len returns the number of (path, value) pairs with rows.
func (l *TreeLevel[P, K]) Len() int { return len(l.at) }
