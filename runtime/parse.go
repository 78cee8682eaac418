package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Field parsers. Engines call them from Apply and Batch.Add on every field of
// every event, so the numeric ones do not allocate. Their errors are the
// sentinels ErrInt and ErrFloat (and ParseDate's); an engine turns a failure
// into a *ColumnError with NewColumnError, and Replay positions that as a
// *FieldError with the file path and line.

var (
	// ErrInt is returned by ParseInt for a field that is not a decimal int64.
	ErrInt = errors.New("expected INT")
	// ErrFloat is returned by ParseFloat for a field that is not a number.
	ErrFloat = errors.New("expected FLOAT")
)

// ParseInt parses a decimal integer with an optional sign ("-42", "+7") into
// an int64 without allocating. Anything else, including overflow, is ErrInt.
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
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			return 0, ErrInt
		}
		if u > (1<<63)/10 {
			return 0, ErrInt
		}
		u = u*10 + uint64(c)
		if u > 1<<63 {
			return 0, ErrInt
		}
	}
	if neg {
		return -int64(u), nil // -(1<<63) wraps to itself: MinInt64
	}
	if u == 1<<63 {
		return 0, ErrInt
	}
	return int64(u), nil
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseFloat parses a number into a float64 without allocating. Plain
// decimals ("-123.4500", "17", ".5") with at most 15 significant digits take
// a fast path that is exact (an exact integer divided by an exact power of
// ten, rounded once); other forms ("1e-5", "NaN", "Inf", long mantissas) go to
// strconv.ParseFloat, which does not allocate for fields of up to 32 bytes.
// The result is the correctly rounded value either way. A field that is not a
// number is ErrFloat (this error path may allocate inside strconv). A value
// out of range reads as ±Inf, as SQL engines read it.
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

func parseFloatSlow(b []byte) (float64, error) {
	// string(b) does not escape (strconv clones its argument for errors), so
	// the compiler converts on the stack for up to 32 bytes.
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return f, nil // ±Inf or 0, as SQL engines read them
		}
		return 0, ErrFloat
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
		err = fmt.Errorf("column %s has invalid type", col.Name)
	}
	if err != nil {
		return nil, NewColumnError(col.Name, col.Type, b)
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
}

// NewColumnError returns a *ColumnError for a field of column col, of type t,
// that does not parse. It copies got; it is meant for the error path only.
func NewColumnError(col string, t ColumnType, got []byte) error {
	return &ColumnError{Column: col, Want: strings.ToUpper(t.String()), Got: string(got)}
}

// Error formats the error as `column L_QUANTITY: expected FLOAT, got "abc"`.
func (e *ColumnError) Error() string {
	return fmt.Sprintf("column %s: expected %s, got %q", e.Column, e.Want, e.Got)
}

// FieldError is an input error positioned at a line of a source file. With a
// Column, it reports a field that does not parse:
//
//	path:row: column L_QUANTITY: expected FLOAT, got "abc"
//
// Without a Column, it reports a line with the wrong number of fields (Want
// is the expected count, Got the actual one):
//
//	path:row: expected 16 fields, got 3
//
// When Err is set (an engine error of another kind), it reads path:row: Err.
type FieldError struct {
	Path   string
	Row    int // 1-based line number in the file
	Column string
	Want   string
	Got    string
	Err    error // the underlying error, if it was not a *ColumnError
}

// Error formats the error as described on FieldError.
func (e *FieldError) Error() string {
	switch {
	case e.Err != nil:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Row, e.Err)
	case e.Column == "":
		return fmt.Sprintf("%s:%d: expected %s fields, got %s", e.Path, e.Row, e.Want, e.Got)
	}
	return fmt.Sprintf("%s:%d: column %s: expected %s, got %q", e.Path, e.Row, e.Column, e.Want, e.Got)
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
		return &FieldError{Path: path, Row: row, Column: ce.Column, Want: ce.Want, Got: ce.Got}
	}
	return &FieldError{Path: path, Row: row, Err: err}
}

// countError is the *FieldError of a line with got fields instead of want.
func countError(path string, row, want, got int) error {
	return &FieldError{Path: path, Row: row, Want: strconv.Itoa(want), Got: strconv.Itoa(got)}
}
