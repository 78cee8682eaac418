package runtime

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Integer arithmetic in both engines is checked: an INT sum, count or
// product that leaves int64 is an error, never a silently wrapped value.
// AddInt, SubInt and MulInt return the wrapped two's-complement result and
// whether it overflowed; an engine carries on with the wrapped value and,
// at the end of the event, undoes the event by running its inverse, which
// in wrapping arithmetic restores every integer map exactly, and reports
// an OverflowError (see EventError).

// AddInt returns a + b, wrapped, and whether the sum overflowed int64.
func AddInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (s^a)&(s^b) < 0
}

// SubInt returns a − b, wrapped, and whether the difference overflowed int64.
func SubInt(a, b int64) (int64, bool) {
	d := a - b
	return d, (a^b)&(a^d) < 0
}

// MulInt returns a × b, wrapped, and whether the product overflowed int64.
func MulInt(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// The high word of the signed 128-bit product: the unsigned one minus
	// b when a < 0 and minus a when b < 0. The product fits in int64 when
	// that word is the sign extension of the low word.
	hi -= uint64(a>>63) & uint64(b)
	hi -= uint64(b>>63) & uint64(a)
	return int64(lo), hi != uint64(int64(lo)>>63)
}

// ErrOverflow is the reason of an EventError for an event during which an
// INT sum, count or product left the range of int64.
var ErrOverflow = errors.New("integer overflow in an INT SUM, COUNT or product")

// EventError is an event that an engine rejected whole: the maps are as
// they were before it, and later events run as usual. Replay positions it
// at its input line ("path:row: …").
type EventError struct {
	Rel    string // the relation, upper case
	Insert bool
	Tuple  []any // the event's values, in column order
	Err    error // why: ErrOverflow
}

// OverflowError returns the *EventError of an event rejected for an
// integer overflow (Err is ErrOverflow).
func OverflowError(rel string, insert bool, tuple ...any) error {
	return &EventError{Rel: rel, Insert: insert, Tuple: tuple, Err: ErrOverflow}
}

// Error formats the error as
//
//	integer overflow in an INT SUM, COUNT or product: insert into R (4611686018427387904, 1) rejected
//
// with the values as FormatValue prints them (strings quoted).
func (e *EventError) Error() string {
	var b strings.Builder
	verb := "delete from"
	if e.Insert {
		verb = "insert into"
	}
	fmt.Fprintf(&b, "%v: %s %s (", e.Err, verb, e.Rel)
	for i, v := range e.Tuple {
		if i > 0 {
			b.WriteString(", ")
		}
		if n, ok := v.(interface{ Box() any }); ok {
			// A nullable column's value (Null[T]): its value, or NULL.
			if v = n.Box(); v == nil {
				b.WriteString("NULL")
				continue
			}
		}
		if s, ok := v.(string); ok {
			b.WriteString(fmt.Sprintf("%q", s))
			continue
		}
		b.WriteString(FormatValue(v))
	}
	b.WriteString(") rejected")
	return b.String()
}

// Unwrap returns Err.
func (e *EventError) Unwrap() error { return e.Err }

// FloatSum is a float64 sum with a compensation term: the rounding error of
// every addition is kept (Knuth's TwoSum, as in Kahan–Babuška–Neumaier
// summation) and added back when the sum is read. Generated code and the
// interpreter keep every float map entry as a FloatSum, so that a float
// SUM returns to exactly what it was when the values added to it are
// subtracted again in any order — 0.1 + 1e16 − 1e16 reads 0.1, and an
// entry whose values are all deleted reads exactly 0 and is removed — in
// the common cases (decimals of a few digits, magnitudes within ~2^53 of
// each other); it is not an exact decimal. The zero value is 0.
type FloatSum struct {
	s float64 // the rounded sum
	c float64 // the rounding errors of the additions so far
}

// Add adds x.
func (a *FloatSum) Add(x float64) {
	s := a.s + x
	z := s - a.s
	a.c += (a.s - (s - z)) + (x - z) // the exact rounding error of s (NaN once s is not finite)
	a.s = s
}

// Value returns the sum: s + c, or s, as plain addition gives it, once s
// is infinite or NaN (c is then NaN).
func (a FloatSum) Value() float64 {
	if v := a.s + a.c; v == v {
		return v
	}
	return a.s
}

// Parts returns the rounded sum and its compensation: adding both to
// another FloatSum adds this one's sum without rounding it first (how the
// partitions' sums merge: runtime.Partitioned).
func (a FloatSum) Parts() (sum, compensation float64) { return a.s, a.c }

// Neg returns the sum negated, exactly.
func (a FloatSum) Neg() FloatSum { return FloatSum{-a.s, -a.c} }

// IsZero reports whether the sum is 0 (Value() == 0, cheaper).
func (a FloatSum) IsZero() bool { return a.s+a.c == 0 }
