package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Field parsers. Engines call them from Apply and Batch.Add on every field of
// every event, so they do not allocate (on failure neither, except for a FLOAT out of
// range, where strconv does). Their errors
// are the sentinels below; an engine turns a failure into a *ColumnError with
// NewColumnError, and Replay positions that as a *FieldError with the file
// path and line. errors.Is finds the sentinel through both.
//
// The rules are the same for both engines (generated code calls these
// parsers, the interpreter calls ParseValue, which calls them):
//
//   - INT: an optional sign and decimal digits ("-42", "+7", "007"). A value
//     beyond int64 is ErrIntRange, anything else ErrInt.
//   - FLOAT: an optional sign, decimal digits with an optional point, and an
//     optional exponent: [+-](d+[.d*]|.d+)([eE][+-]d+). Only that: "NaN",
//     "Inf", "Infinity", hexadecimal floats ("0x1p-2") and digit separators
//     ("1_000"), all of which strconv.ParseFloat accepts, are ErrFloat. A
//     value whose magnitude rounds beyond the largest float64 ("1e400") is
//     ErrFloatRange rather than ±Inf, so that no NaN or infinity enters a
//     view from data; one too small to represent reads as 0 or a subnormal,
//     as strconv rounds it.
//   - DATE: see ParseDate.

var (
	// ErrInt is returned by ParseInt for a field that is not a decimal integer.
	ErrInt = errors.New("expected INT")
	// ErrIntRange is returned by ParseInt for a decimal integer beyond int64.
	ErrIntRange = errors.New("INT out of range")
	// ErrFloat is returned by ParseFloat for a field that is not a plain
	// decimal number (NaN and infinities included).
	ErrFloat = errors.New("expected FLOAT")
	// ErrFloatRange is returned by ParseFloat for a number beyond float64.
	ErrFloatRange = errors.New("FLOAT out of range")
)

// ParseInt parses a decimal integer with an optional sign ("-42", "+7") into
// an int64 without allocating. A value outside int64 is ErrIntRange;
// anything else that is not such an integer is ErrInt.
func ParseInt(b []byte) (int64, error) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i = 1
	}
	if i == len(b) {
		return 0, ErrInt
	}
	var u uint64
	over := false
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, ErrInt
		}
		if over || u > (1<<63)/10 {
			over = true // keep checking the syntax: "99999999999999999999x" is ErrInt
			continue
		}
		u = u*10 + uint64(c)
		if u > 1<<63 {
			over = true
		}
	}
	switch {
	case over || !neg && u == 1<<63:
		return 0, ErrIntRange
	case neg:
		return -int64(u), nil // -(1<<63) wraps to itself: MinInt64
	}
	return int64(u), nil
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseFloat parses a number into a finite float64 without allocating.
// Plain decimals ("-123.4500", "17", ".5") with at most 15 significant digits
// take a fast path that is exact (an exact integer divided by an exact power
// of ten, rounded once); numbers with an exponent ("1e-5") or long mantissas
// go to strconv.ParseFloat, which does not allocate for fields of up to 32
// bytes, after a check of the syntax. The result is the correctly rounded
// value either way. A field that is not a plain decimal number is ErrFloat
// (so are "NaN", "Inf", "0x1p-2" and "1_000"); a number beyond float64
// ("1e400") is ErrFloatRange.
func ParseFloat(b []byte) (float64, error) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i = 1
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			if mant == 0 && c == '0' {
				// Leading zeros are not significant digits.
			} else {
				digits++
			}
			mant = mant*10 + uint64(c-'0')
			if dot {
				frac++
			}
			if digits > 15 {
				return parseFloatSlow(b)
			}
		case c == '.' && !dot:
			dot = true
		default:
			return parseFloatSlow(b)
		}
	}
	if frac >= len(pow10) {
		return parseFloatSlow(b)
	}
	n := len(b)
	if n > 0 && (b[0] == '-' || b[0] == '+') {
		n--
	}
	if dot {
		n--
	}
	if n == 0 { // "", "-", ".", "-."
		return 0, ErrFloat
	}
	f := float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	return f, nil
}

// plainNumber reports whether b is [+-](d+[.d*]|.d+)([eE][+-]d+): the only
// syntax ParseFloat accepts.
func plainNumber(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	n := digits()
	if i < len(b) && b[i] == '.' {
		i++
		n += digits()
	}
	if n == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

func parseFloatSlow(b []byte) (float64, error) {
	if !plainNumber(b) {
		return 0, ErrFloat
	}
	// string(b) does not escape (strconv clones its argument for errors), so
	// the compiler converts on the stack for up to 32 bytes.
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		// The syntax is checked, so this is ErrRange: overflow, since
		// strconv rounds underflow to 0 without an error.
		return 0, ErrFloatRange
	}
	return f, nil
}

// ParseString returns the field as a string. It allocates a copy: the field
// usually aliases a file buffer that outlives the value.
func ParseString(b []byte) string { return string(b) }

// ParseValue parses a field of the given column into an int64, float64,
// string or Date, boxed; a failure is a *ColumnError. It is for the
// interpreter and tests; generated code calls the typed parsers.
func ParseValue(col Column, b []byte) (any, error) {
	if col.Nullable && IsNullField(b, col.Type) {
		return nil, nil
	}
	var v any
	var err error
	switch col.Type {
	case Int:
		v, err = ParseInt(b)
	case Float:
		v, err = ParseFloat(b)
	case String:
		v = ParseString(b)
	case DateType:
		v, err = ParseDate(b)
	default:
		return nil, fmt.Errorf("column %s has invalid type", col.Name)
	}
	if err != nil {
		return nil, &ColumnError{Column: col.Name, Want: strings.ToUpper(col.Type.String()), Got: string(b), Err: err}
	}
	return v, nil
}

// ColumnError is the error an Engine's Apply or a Batch's Add returns when a
// field does not parse as its column's type. Replay wraps it in a FieldError
// that adds the file and line.
type ColumnError struct {
	Column string // the column name, upper case
	Want   string // INT, FLOAT, STRING or DATE
	Got    string // the field as read
	// Err is the parser's error, which says why: ErrInt, ErrIntRange,
	// ErrFloat, ErrFloatRange, ErrDate or ErrDateInvalid. Nil reads as
	// "expected Want".
	Err error
}

// NewColumnError returns a *ColumnError for a field of column col, of type t,
// that does not parse. It copies got and parses it again to tell why (Err);
// it is meant for the error path only.
func NewColumnError(col string, t ColumnType, got []byte) error {
	_, err := ParseValue(Column{Name: col, Type: t}, got)
	if ce, ok := err.(*ColumnError); ok {
		return ce
	}
	// got parses after all (or t is not a column type): say what was wanted.
	return &ColumnError{Column: col, Want: strings.ToUpper(t.String()), Got: string(got)}
}

// Error formats the error as `column L_QUANTITY: expected FLOAT, got "abc"`,
// or with the reason Err gives: `column A: INT out of range, got "…"`.
func (e *ColumnError) Error() string {
	return fmt.Sprintf("column %s: %s, got %q", e.Column, reason(e.Want, e.Err), e.Got)
}

// Unwrap returns Err.
func (e *ColumnError) Unwrap() error { return e.Err }

// reason is the text of a field error: err's, or "expected want".
func reason(want string, err error) string {
	if err != nil {
		return err.Error()
	}
	return "expected " + want
}

// FieldError is an input error positioned at a line of a source file. With a
// Column, it reports a field that does not parse (Err, if set, is the
// parser's error, as in ColumnError):
//
//	path:row: column L_QUANTITY: expected FLOAT, got "abc"
//	path:row: column L_ORDERKEY: INT out of range, got "9223372036854775808"
//
// Without a Column, it reports a line with the wrong number of fields (Want
// is the expected count, Got the actual one):
//
//	path:row: expected 16 fields, got 3
//
// When Err is set without a Column (an engine error of another kind), it
// reads path:row: Err.
type FieldError struct {
	Path   string
	Row    int // 1-based line number in the file
	Column string
	Want   string
	Got    string
	Err    error // the parser's error with a Column; else the underlying error, if it was not a *ColumnError
}

// Error formats the error as described on FieldError.
func (e *FieldError) Error() string {
	switch {
	case e.Column != "":
		return fmt.Sprintf("%s:%d: column %s: %s, got %q", e.Path, e.Row, e.Column, reason(e.Want, e.Err), e.Got)
	case e.Err != nil:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Row, e.Err)
	}
	return fmt.Sprintf("%s:%d: expected %s fields, got %s", e.Path, e.Row, e.Want, e.Got)
}

// Unwrap returns Err.
func (e *FieldError) Unwrap() error { return e.Err }

// positionError turns an error from Apply or Add into a *FieldError at
// path:row.
func positionError(path string, row int, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return err
	}
	var ce *ColumnError
	if errors.As(err, &ce) {
		return &FieldError{Path: path, Row: row, Column: ce.Column, Want: ce.Want, Got: ce.Got, Err: ce.Err}
	}
	return &FieldError{Path: path, Row: row, Err: err}
}

// countError is the *FieldError of a line with got fields instead of want.
func countError(path string, row, want, got int) error {
	return &FieldError{Path: path, Row: row, Want: strconv.Itoa(want), Got: strconv.Itoa(got)}
}
