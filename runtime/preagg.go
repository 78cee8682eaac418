package runtime

// PreAgg is a batch pre-aggregated by key: the set-at-a-time triggers of a
// generated package add each event's values to the entry of its key (At),
// then run their statements once per entry, in the order in which the keys
// first appeared, and Reset it for the next batch. V holds the sums of one
// key (a struct of int64s and FloatSums).
type PreAgg[K comparable, V any] struct {
	index map[K]int32
	Keys  []K
	Vals  []V
	last  int32 // 1 + the position of the key At returned last (0: none)
}

// At returns the entry of key k, a zero V added if k is new. The key of
// the previous call is checked first: consecutive events often share one
// (the lineitems of an order).
func (p *PreAgg[K, V]) At(k K) *V {
	if p.last > 0 && p.Keys[p.last-1] == k {
		return &p.Vals[p.last-1]
	}
	if p.index == nil {
		p.index = make(map[K]int32)
	}
	i, ok := p.index[k]
	if !ok {
		i = int32(len(p.Keys))
		p.index[k] = i
		p.Keys = append(p.Keys, k)
		var zero V
		p.Vals = append(p.Vals, zero)
	}
	p.last = i + 1
	return &p.Vals[i]
}

// Len returns the number of keys.
func (p *PreAgg[K, V]) Len() int { return len(p.Keys) }

// Reset empties p, keeping its memory for the next batch.
func (p *PreAgg[K, V]) Reset() {
	clear(p.index)
	p.Keys = p.Keys[:0]
	p.Vals = p.Vals[:0]
	p.last = 0
}
