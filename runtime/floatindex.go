package runtime

import (
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
)

// FloatIndex is the primary index of a map or fused table of generated
// code whose key is one FLOAT column: key → position of its entry. It is
// read once per event by every map a trigger adds to, so it is a hash
// table of its own rather than a Go map (whose float64 keys go through a
// generic hash; even keyed by the bits, a lookup costs about three times
// this table's): a bitsIndex of the keys' bits. As in a map[float64], 0
// and −0 are one key; a NaN key is one key too (a map[float64] would
// store a new entry per NaN, never found again). The zero value is an
// empty index. Its All may run while the loop's body sets and deletes
// keys, as over a Go map (see bitsIndex).
type FloatIndex struct{ t bitsIndex }

// IntIndex is FloatIndex for a key of one INT column: a bitsIndex of the
// keys themselves (a Go map[int64] takes its fast path, and still costs
// more per lookup). The zero value is an empty index.
type IntIndex struct{ t bitsIndex }

// bitsIndex maps 64-bit keys to int32 positions: open addressing with
// linear probing, hashed by a multiply with a seed drawn per index, slots
// holding the key and the position.
//
// A delete leaves a tombstone, so that All, like ranging over a Go map,
// may run while the loop's body sets and deletes keys: a key deleted
// before the iteration reaches it is not produced, one set meanwhile may
// be or not, and no key is produced twice (a key set again goes back to
// its tombstone). The slots are rebuilt (grown,
// tombstones dropped) when keys and tombstones fill three quarters of
// them, and not while an iteration runs unless they are full; an iteration
// under which they were rebuilt checks each key it produces against the
// new slots.
type bitsIndex struct {
	slots []bitsSlot // len a power of two, or 0
	shift uint       // 64 − log₂ len(slots): a hash's top bits index the slots
	live  int        // keys
	used  int        // slots not empty: keys and tombstones
	seed  uint64
	// iters counts the All iterations running: atomic, since readers
	// sharing an engine (runtime.Guard) iterate at once; only writers,
	// who run alone, read it.
	iters atomic.Int32
	gen   int // rebuilds so far
}

// bitsSlot is one slot: empty (pos 0), a tombstone (pos −1), or key bits
// at entry position pos−1.
type bitsSlot struct {
	bits uint64
	pos  int32
}

// floatBits returns the bits of key k, −0 read as 0.
func floatBits(k float64) uint64 {
	if k == 0 {
		return 0
	}
	return math.Float64bits(k)
}

func (x *bitsIndex) home(b uint64) uint64 {
	return ((b ^ x.seed) * 0x9e3779b97f4a7c15) >> x.shift
}

// Get returns the position of k's entry, if it has one.
func (x *FloatIndex) Get(k float64) (int32, bool) { return x.t.get(floatBits(k)) }

// Set records that k's entry is at position i.
func (x *FloatIndex) Set(k float64, i int32) { x.t.set(floatBits(k), i) }

// Delete removes k.
func (x *FloatIndex) Delete(k float64) { x.t.delete(floatBits(k)) }

// Len returns the number of keys.
func (x *FloatIndex) Len() int { return x.t.live }

// Clear removes every key, keeping the slots.
func (x *FloatIndex) Clear() { x.t.clear() }

// All yields each key (−0 as 0) and the position of its entry, in no
// particular order; the loop's body may set and delete keys (see
// bitsIndex).
func (x *FloatIndex) All() iter.Seq2[float64, int32] {
	// IntIndex.All is this loop with its own key type: a range over the
	// iterator inlines either, body and all, where one loop shared
	// through a yield closure cost an indirect call per key (PriceSpread,
	// which loops over its prices several times per event, 1.45× as
	// slow) and a generic one 7.6%.
	return func(yield func(float64, int32) bool) {
		t := &x.t
		t.iters.Add(1)
		defer t.iters.Add(-1)
		slots, gen := t.slots, t.gen
		for j := range slots {
			s := slots[j]
			if s.pos <= 0 {
				continue
			}
			pos := s.pos - 1
			if t.gen != gen {
				// Rebuilt under the iteration: slots is a stale copy.
				var ok bool
				if pos, ok = t.get(s.bits); !ok {
					continue
				}
			}
			if !yield(math.Float64frombits(s.bits), pos) {
				return
			}
		}
	}
}

// Get returns the position of k's entry, if it has one.
func (x *IntIndex) Get(k int64) (int32, bool) { return x.t.get(uint64(k)) }

// Set records that k's entry is at position i.
func (x *IntIndex) Set(k int64, i int32) { x.t.set(uint64(k), i) }

// Delete removes k.
func (x *IntIndex) Delete(k int64) { x.t.delete(uint64(k)) }

// Len returns the number of keys.
func (x *IntIndex) Len() int { return x.t.live }

// Clear removes every key, keeping the slots.
func (x *IntIndex) Clear() { x.t.clear() }

// All yields each key and the position of its entry, in no particular
// order; the loop's body may set and delete keys (see bitsIndex).
func (x *IntIndex) All() iter.Seq2[int64, int32] {
	return func(yield func(int64, int32) bool) { // as FloatIndex.All
		t := &x.t
		t.iters.Add(1)
		defer t.iters.Add(-1)
		slots, gen := t.slots, t.gen
		for j := range slots {
			s := slots[j]
			if s.pos <= 0 {
				continue
			}
			pos := s.pos - 1
			if t.gen != gen {
				var ok bool
				if pos, ok = t.get(s.bits); !ok {
					continue
				}
			}
			if !yield(int64(s.bits), pos) {
				return
			}
		}
	}
}

// get returns the position of b's entry, if it has one.
func (x *bitsIndex) get(b uint64) (int32, bool) {
	if len(x.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for i := x.home(b); ; i = (i + 1) & mask {
		s := &x.slots[i]
		if s.pos == 0 {
			return 0, false
		}
		if s.bits == b && s.pos > 0 {
			return s.pos - 1, true
		}
	}
}

// set records that b's entry is at position i.
func (x *bitsIndex) set(b uint64, i int32) {
	if 4*(x.used+1) > 3*len(x.slots) && (x.iters.Load() == 0 || x.used+1 >= len(x.slots)) {
		x.rebuild()
	}
	mask := uint64(len(x.slots) - 1)
	free := -1
	for j := x.home(b); ; j = (j + 1) & mask {
		s := &x.slots[j]
		switch {
		case s.pos == 0:
			if free < 0 {
				free = int(j)
				x.used++
			}
			x.slots[free] = bitsSlot{b, i + 1}
			x.live++
			return
		case s.pos < 0:
			if s.bits == b {
				// k's own tombstone: k is not further on (it would have
				// taken this slot), so k goes back where it was, and an
				// iteration that produced it will not again.
				s.pos = i + 1
				x.live++
				return
			}
			if free < 0 && x.iters.Load() == 0 {
				// Another key's tombstone: reused, unless k is further
				// on; not while an iteration runs, so that a key deleted
				// in it and set again finds its own.
				free = int(j)
			}
		case s.bits == b:
			s.pos = i + 1
			return
		}
	}
}

// delete removes b.
func (x *bitsIndex) delete(b uint64) {
	if len(x.slots) == 0 {
		return
	}
	mask := uint64(len(x.slots) - 1)
	for i := x.home(b); ; i = (i + 1) & mask {
		s := &x.slots[i]
		if s.pos == 0 {
			return
		}
		if s.bits == b && s.pos > 0 {
			s.pos = -1
			x.live--
			return
		}
	}
}

// clear removes every key, keeping the slots.
func (x *bitsIndex) clear() {
	clear(x.slots)
	x.live, x.used = 0, 0
}

// rebuild moves the keys to new slots, at most half full, dropping the
// tombstones.
func (x *bitsIndex) rebuild() {
	old := x.slots
	n := max(16, 1<<bits.Len(uint(2*x.live+1)))
	x.slots = make([]bitsSlot, n)
	x.shift = uint(64 - bits.TrailingZeros(uint(n)))
	if x.seed == 0 {
		x.seed = rand.Uint64() | 1
	}
	x.live, x.used = 0, 0
	x.gen++
	mask := uint64(n - 1)
	for _, s := range old {
		if s.pos > 0 {
			i := x.home(s.bits)
			for x.slots[i].pos != 0 {
				i = (i + 1) & mask
			}
			x.slots[i] = s
			x.live++
			x.used++
		}
	}
}
