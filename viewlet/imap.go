package viewlet

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/toastgen/toastgen/runtime"
)

// imap is a map from key tuples to non-zero values: int64 values for an
// INT map (isInt), with checked additions (addInt reports an overflow and
// keeps the wrapped sum, as generated code does), and compensated sums
// (runtime.FloatSum) for a FLOAT map, as in generated code, so that both
// engines hold the same bits. Reads that bind some of the keys go through
// a secondary index per set of bound positions, built on first use and
// maintained by add and remove.
type imap struct {
	isInt   bool
	entries map[string]*ientry // by encodeKey of all keys
	indexes map[uint64]*index  // by mask of the bound positions
	nindex  int
}

type ientry struct {
	key  string // encodeKey(keys)
	keys []any
	i    int64            // the value of an INT map's entry
	f    runtime.FloatSum // the value of a FLOAT map's entry
	pos  []int32          // the entry's position in its bucket of each index, by index id
}

// value returns the entry's value: an int64 or a float64.
func (m *imap) value(e *ientry) any {
	if m.isInt {
		return e.i
	}
	return e.f.Value()
}

// entryValue returns the entry's value as a T, converted as generated code
// converts (a float to an int truncates).
func entryValue[T ring](m *imap, e *ientry) T {
	if m.isInt {
		return T(e.i)
	}
	return T(e.f.Value())
}

// index groups a map's entries by their keys at the positions of mask.
type index struct {
	id      int
	mask    uint64
	buckets map[string]*bucket // by encodeKey of the keys at mask
}

type bucket struct{ es []*ientry }

func newIMap(isInt bool) *imap {
	return &imap{isInt: isInt, entries: map[string]*ientry{}, indexes: map[uint64]*index{}}
}

// entry returns the entry of keys, creating it (with value 0) if needed.
func (m *imap) entry(keys []any) *ientry {
	var buf [64]byte
	k := appendKey(buf[:0], keys)
	e := m.entries[string(k)]
	if e == nil {
		e = &ientry{key: string(k), keys: append([]any{}, keys...), pos: make([]int32, m.nindex)}
		m.entries[e.key] = e
		for _, ix := range m.indexes {
			ix.insert(e)
		}
	}
	return e
}

// addInt adds v to the entry of keys of an INT map and reports whether its
// sum overflowed int64 (the entry then holds the wrapped sum).
func (m *imap) addInt(keys []any, v int64) (overflow bool) {
	if v == 0 {
		return false
	}
	e := m.entry(keys)
	e.i, overflow = runtime.AddInt(e.i, v)
	if e.i == 0 {
		m.remove(e)
	}
	return overflow
}

// addFloat adds v to the entry of keys of a FLOAT map.
func (m *imap) addFloat(keys []any, v float64) {
	if v == 0 {
		return
	}
	e := m.entry(keys)
	e.f.Add(v)
	if e.f.IsZero() {
		m.remove(e)
	}
}

// addInit adds an initial value (Map.Init, Map.InitEntries: small
// constants) to the entry of keys.
func (m *imap) addInit(keys []any, v float64) {
	if m.isInt {
		m.addInt(keys, int64(v))
	} else {
		m.addFloat(keys, v)
	}
}

func (m *imap) remove(e *ientry) {
	delete(m.entries, e.key)
	for _, ix := range m.indexes {
		ix.remove(e)
	}
}

// get returns the value of the entry of keys (an int64 or a float64; 0
// of the map's type when there is none).
func (m *imap) get(keys []any) any {
	var buf [64]byte
	if e := m.entries[string(appendKey(buf[:0], keys))]; e != nil {
		return m.value(e)
	}
	if m.isInt {
		return int64(0)
	}
	return 0.0
}

// lookup returns the entry of keys, or nil.
func (m *imap) lookup(keys []any) *ientry {
	var buf [64]byte
	return m.entries[string(appendKey(buf[:0], keys))]
}

// each calls f on every entry whose keys at the positions of mask equal
// vals (in order): all entries when mask is 0, else those of an index. f
// must not change m.
func (m *imap) each(mask uint64, vals []any, f func(*ientry)) {
	if mask == 0 {
		for _, e := range m.entries {
			f(e)
		}
		return
	}
	ix := m.indexes[mask]
	if ix == nil {
		ix = &index{id: m.nindex, mask: mask, buckets: map[string]*bucket{}}
		m.nindex++
		m.indexes[mask] = ix
		for _, e := range m.entries {
			e.pos = append(e.pos, 0)
			ix.insert(e)
		}
	}
	var buf [64]byte
	if b := ix.buckets[string(appendKey(buf[:0], vals))]; b != nil {
		for _, e := range b.es {
			f(e)
		}
	}
}

func (ix *index) insert(e *ientry) {
	var buf [64]byte
	p := ix.project(buf[:0], e.keys)
	b := ix.buckets[string(p)]
	if b == nil {
		b = &bucket{}
		ix.buckets[string(p)] = b
	}
	e.pos[ix.id] = int32(len(b.es))
	b.es = append(b.es, e)
}

func (ix *index) remove(e *ientry) {
	var buf [64]byte
	p := ix.project(buf[:0], e.keys)
	b := ix.buckets[string(p)]
	i, last := e.pos[ix.id], b.es[len(b.es)-1]
	b.es[i], last.pos[ix.id] = last, i
	b.es[len(b.es)-1] = nil
	b.es = b.es[:len(b.es)-1]
	if len(b.es) == 0 {
		delete(ix.buckets, string(p))
	}
}

// project appends the encoding of the keys at the positions of ix.mask.
func (ix *index) project(b []byte, keys []any) []byte {
	for i, k := range keys {
		if ix.mask&(1<<i) != 0 {
			b = appendValue(b, k)
		}
	}
	return b
}

// appendKey appends an encoding of keys to b that is equal for equal key
// tuples: int64 and integral float64 values encode alike (equalValues
// compares them numerically), other types are tagged, strings are
// length-prefixed.
func appendKey(b []byte, keys []any) []byte {
	for _, k := range keys {
		b = appendValue(b, k)
	}
	return b
}

func appendValue(b []byte, k any) []byte {
	switch x := k.(type) {
	case int64:
		b = binary.LittleEndian.AppendUint64(append(b, 'n'), uint64(x))
	case float64:
		if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
			b = binary.LittleEndian.AppendUint64(append(b, 'n'), uint64(int64(x)))
		} else {
			b = binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(x))
		}
	case string:
		b = append(binary.AppendUvarint(append(b, 's'), uint64(len(x))), x...)
	case runtime.Date:
		b = binary.LittleEndian.AppendUint64(append(b, 'd'), uint64(x))
	case nil:
		b = append(b, '0')
	default:
		panic(fmt.Sprintf("interp: cannot encode key %v (%T)", k, k))
	}
	return b
}
