package runtime

import (
	"iter"
	"math"
)

// FloatIndex is the primary index of a map or fused table of generated
// code whose key is one FLOAT column: key → position of its entry. It is a
// Go map keyed by the key's bits because Go hashes float64 map keys on a
// generic path (it must, for −0 and NaN), about twice as slow as the
// path of 8-byte integer keys, and the primary index is read once per
// event by every map a trigger adds to. As in a map[float64], 0 and −0
// are one key; a NaN key is one key too (a map[float64] would store a new
// entry per NaN, never found again).
type FloatIndex map[uint64]int32

// floatBits returns the bits of key k, −0 read as 0.
func floatBits(k float64) uint64 {
	if k == 0 {
		return 0
	}
	return math.Float64bits(k)
}

// Get returns the position of k's entry, if it has one.
func (x FloatIndex) Get(k float64) (int32, bool) {
	i, ok := x[floatBits(k)]
	return i, ok
}

// Set records that k's entry is at position i.
func (x FloatIndex) Set(k float64, i int32) { x[floatBits(k)] = i }

// Delete removes k.
func (x FloatIndex) Delete(k float64) { delete(x, floatBits(k)) }

// All yields each key (−0 as 0) and the position of its entry, in no
// particular order.
func (x FloatIndex) All() iter.Seq2[float64, int32] {
	return func(yield func(float64, int32) bool) {
		for b, i := range x {
			if !yield(math.Float64frombits(b), i) {
				return
			}
		}
	}
}
