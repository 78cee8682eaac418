package runtime

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"testing"
	"time"
)

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  error
	}{
		{"0", 0, nil},
		{"42", 42, nil},
		{"-42", -42, nil},
		{"+7", 7, nil},
		{"007", 7, nil},
		{"-0", 0, nil},
		{"9223372036854775807", math.MaxInt64, nil},
		{"-9223372036854775808", math.MinInt64, nil},
		{"00000000000000000000009223372036854775807", math.MaxInt64, nil},
		{"9223372036854775808", 0, ErrIntRange},
		{"-9223372036854775809", 0, ErrIntRange},
		{"18446744073709551616", 0, ErrIntRange}, // 1<<64
		{"99999999999999999999", 0, ErrIntRange},
		{"+99999999999999999999999999999999999999", 0, ErrIntRange},
		{"99999999999999999999x", 0, ErrInt}, // the syntax decides first
		{"", 0, ErrInt},
		{"-", 0, ErrInt},
		{"+", 0, ErrInt},
		{"--1", 0, ErrInt},
		{"1.0", 0, ErrInt},
		{"1e3", 0, ErrInt},
		{"1_000", 0, ErrInt},
		{"0x10", 0, ErrInt},
		{" 1", 0, ErrInt},
		{"1 ", 0, ErrInt},
		{"1a", 0, ErrInt},
	}
	for _, tt := range tests {
		got, err := ParseInt([]byte(tt.in))
		if err != tt.err || got != tt.want {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestParseFloat(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"0", nil}, {"-0", nil}, {"17", nil}, {"-123.4500", nil}, {"0.1", nil},
		{".5", nil}, {"5.", nil}, {"+2.25", nil}, {"0.04", nil}, {"17954.55", nil},
		{"123456789012345", nil}, {"1234567890123456789", nil}, {"0.000000000000000000000001", nil},
		{"1e5", nil}, {"-1.5E-3", nil}, {"1E+5", nil}, {"5.e3", nil}, {".5e-3", nil},
		{"1.2345678901234567890123e-5", nil}, {"0.30000000000000004", nil},
		{"1.7976931348623157e308", nil}, {"-1.7976931348623157e308", nil},
		{"1e-400", nil}, {"4e-324", nil}, // underflow rounds to 0 or a subnormal
		// Not a number.
		{"", ErrFloat}, {"-", ErrFloat}, {".", ErrFloat}, {"-.", ErrFloat}, {"1.2.3", ErrFloat},
		{"abc", ErrFloat}, {"1,5", ErrFloat}, {"1e", ErrFloat}, {"1e+", ErrFloat}, {"e5", ErrFloat},
		{".e5", ErrFloat}, {"1e5.0", ErrFloat}, {" 1", ErrFloat}, {"1 ", ErrFloat}, {"--1", ErrFloat},
		// strconv accepts these; the data format does not.
		{"NaN", ErrFloat}, {"nan", ErrFloat}, {"-NaN", ErrFloat},
		{"Inf", ErrFloat}, {"+Inf", ErrFloat}, {"-inf", ErrFloat}, {"infinity", ErrFloat}, {"-Infinity", ErrFloat},
		{"1_000", ErrFloat}, {"1_000.5", ErrFloat}, {"0x1p-2", ErrFloat}, {"0x_1p0", ErrFloat}, {"0X10", ErrFloat},
		// Beyond float64.
		{"1e400", ErrFloatRange}, {"-1e400", ErrFloatRange}, {"1.8e308", ErrFloatRange}, {"2E+308", ErrFloatRange},
	}
	for _, tt := range tests {
		got, err := ParseFloat([]byte(tt.in))
		if err != tt.err {
			t.Errorf("ParseFloat(%q) = %v, %v; want error %v", tt.in, got, err, tt.err)
			continue
		}
		if err != nil {
			if got != 0 {
				t.Errorf("ParseFloat(%q) = %v with error %v, want 0", tt.in, got, err)
			}
			continue
		}
		want, _ := strconv.ParseFloat(tt.in, 64)
		if got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("ParseFloat(%q) = %v, want %v", tt.in, got, want)
		}
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want Date
		err  error
	}{
		{"1996-03-13", MakeDate(1996, 3, 13), nil},
		{"0001-01-01", MinDate, nil},
		{"9999-12-31", MaxDate, nil},
		{"2024-02-29", MakeDate(2024, 2, 29), nil}, // leap year
		{"2000-02-29", MakeDate(2000, 2, 29), nil}, // divisible by 400
		{"2023-01-31", MakeDate(2023, 1, 31), nil},
		{"2023-04-30", MakeDate(2023, 4, 30), nil},
		{"2024-02-30", 0, ErrDateInvalid},
		{"2023-02-29", 0, ErrDateInvalid}, // not a leap year
		{"1900-02-29", 0, ErrDateInvalid}, // divisible by 100, not by 400
		{"2023-04-31", 0, ErrDateInvalid},
		{"2023-06-31", 0, ErrDateInvalid},
		{"2023-09-31", 0, ErrDateInvalid},
		{"2023-11-31", 0, ErrDateInvalid},
		{"2023-12-32", 0, ErrDateInvalid},
		{"2023-00-10", 0, ErrDateInvalid},
		{"2023-13-10", 0, ErrDateInvalid},
		{"2023-01-00", 0, ErrDateInvalid},
		{"0000-01-01", 0, ErrDateInvalid}, // before MinDate
		{"0000-00-00", 0, ErrDateInvalid},
		{"1996-3-13", 0, ErrDate},
		{"96-03-13", 0, ErrDate},
		{"1996/03/13", 0, ErrDate},
		{"1996-03-13x", 0, ErrDate},
		{"-001-03-13", 0, ErrDate},
		{"+996-03-13", 0, ErrDate},
		{"10000-01-01", 0, ErrDate},
		{"", 0, ErrDate},
	}
	for _, tt := range tests {
		got, err := ParseDate([]byte(tt.in))
		if err != tt.err || got != tt.want {
			t.Errorf("ParseDate(%q) = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("ParseDate(%q).String() = %q", tt.in, got.String())
		}
	}
}

// TestDateValidAgainstTime checks ValidDate against the time package for
// every day of 400 years (a full leap cycle) and the edges of the range.
func TestDateValidAgainstTime(t *testing.T) {
	for _, y := range append([]int{1, 2, 9998, 9999}, func() []int {
		var ys []int
		for y := 1800; y < 2200; y++ {
			ys = append(ys, y)
		}
		return ys
	}()...) {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				tm := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
				want := m >= 1 && m <= 12 && tm.Year() == y && int(tm.Month()) == m && tm.Day() == d
				if got := ValidDate(y, m, d); got != want {
					t.Fatalf("ValidDate(%d, %d, %d) = %v, want %v", y, m, d, got, want)
				}
			}
		}
	}
	for _, c := range [][3]int{{0, 1, 1}, {10000, 1, 1}, {-1, 12, 31}} {
		if ValidDate(c[0], c[1], c[2]) {
			t.Errorf("ValidDate(%v) = true, want false: outside MinDate..MaxDate", c)
		}
	}
}

// TestDateString checks that every year the encoding holds prints as
// ISO 8601 does, including years that only date arithmetic reaches, and that
// the parts and the order survive.
func TestDateString(t *testing.T) {
	tests := []struct {
		d    Date
		want string
	}{
		{MakeDate(1996, 3, 13), "1996-03-13"},
		{MinDate, "0001-01-01"},
		{MaxDate, "9999-12-31"},
		{MakeDate(12, 5, 6), "0012-05-06"},
		{MakeDate(999, 10, 1), "0999-10-01"},
		{MakeDate(0, 12, 31), "0000-12-31"},
		{MakeDate(-1, 12, 31), "-0001-12-31"},
		{MakeDate(-44, 3, 15), "-0044-03-15"},
		{MakeDate(-12345, 1, 1), "-12345-01-01"},
		{MakeDate(10000, 1, 1), "10000-01-01"},
		{MakeDate(214747, 12, 31), "214747-12-31"},
		{MakeDate(-214747, 1, 1), "-214747-01-01"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("Date(%d).String() = %q, want %q", int32(tt.d), got, tt.want)
		}
	}
	// Arithmetic across year 1 keeps the parts in range and the order.
	d := MinDate
	prev := d
	for i := range 800 {
		d = d.AddDays(-1)
		if d >= prev || d.Month() < 1 || d.Month() > 12 || d.Day() < 1 || d.Day() > 31 {
			t.Fatalf("step %d: %d (%s) after %s", i, int32(d), d, prev)
		}
		tm := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(i + 1))
		if d.Year() != int64(tm.Year()) || d.Month() != int64(tm.Month()) || d.Day() != int64(tm.Day()) {
			t.Fatalf("step %d: %s, want %v", i, d, tm)
		}
		prev = d
	}
	if got := d.AddDays(800).String(); got != "0001-01-01" {
		t.Errorf("round trip: %s", got)
	}
	if got := MaxDate.AddDays(1).String(); got != "10000-01-01" {
		t.Errorf("MaxDate + 1 DAY = %s", got)
	}
}

// TestParseFloatExact checks the fast path against strconv on many decimals.
func TestParseFloatExact(t *testing.T) {
	for i := range 200000 {
		x := int64(i)*7919 - 50000
		for _, s := range []string{
			strconv.FormatInt(x, 10),
			strconv.FormatFloat(float64(x)/100, 'f', 2, 64),
			strconv.FormatFloat(float64(x)/1e4, 'f', 4, 64),
			strconv.FormatFloat(float64(x)*1.37e-3, 'f', -1, 64),
		} {
			got, err := ParseFloat([]byte(s))
			want, _ := strconv.ParseFloat(s, 64)
			if err != nil || got != want {
				t.Fatalf("ParseFloat(%q) = %v, %v; want %v", s, got, err, want)
			}
		}
	}
}

func TestParseAllocs(t *testing.T) {
	var sinkI int64
	var sinkF float64
	for _, s := range []string{"-123456", "x", "99999999999999999999"} {
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { v, _ := ParseInt(b); sinkI += v }); n != 0 {
			t.Errorf("ParseInt(%q): %v allocs", s, n)
		}
	}
	for _, s := range []string{"-123.4500", "1.5e-3", "1.2345678901234567890123e-5", "0.000000000000000000000001",
		"NaN", "+Inf", "1_000", "abc", "1.2.3", "12345678901234567890x"} {
		// Failures do not allocate either (but for a FLOAT out of range, where strconv does).
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { v, _ := ParseFloat(b); sinkF += v }); n != 0 {
			t.Errorf("ParseFloat(%q): %v allocs", s, n)
		}
	}
	for _, s := range []string{"1996-03-13", "2024-02-30", "x"} {
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { d, _ := ParseDate(b); sinkI += int64(d) }); n != 0 {
			t.Errorf("ParseDate(%q): %v allocs", s, n)
		}
	}
}

func TestFieldErrorText(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&FieldError{Path: "data/lineitem.csv", Row: 12, Column: "L_QUANTITY", Want: "FLOAT", Got: "abc"},
			`data/lineitem.csv:12: column L_QUANTITY: expected FLOAT, got "abc"`},
		{countError("r.csv", 3, 16, 3), "r.csv:3: expected 16 fields, got 3"},
		{positionError("r.csv", 2, NewColumnError("A", Int, []byte("x"))), `r.csv:2: column A: expected INT, got "x"`},
		{positionError("r.csv", 2, strconv.ErrRange), "r.csv:2: value out of range"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestParseValue(t *testing.T) {
	cols := []Column{{Name: "A", Type: Int}, {Name: "B", Type: Float}, {Name: "C", Type: String}, {Name: "D", Type: DateType}}
	want := []any{int64(3), 2.5, "x y", MakeDate(1996, 1, 2)}
	for i, s := range []string{"3", "2.5", "x y", "1996-01-02"} {
		v, err := ParseValue(cols[i], []byte(s))
		if err != nil || v != want[i] {
			t.Errorf("ParseValue(%v, %q) = %v, %v", cols[i], s, v, err)
		}
	}
}

// TestColumnErrors checks the text of every kind of field error, from
// ParseValue (the interpreter's path) and NewColumnError (generated code's),
// which must agree, and through Replay's positioning.
func TestColumnErrors(t *testing.T) {
	tests := []struct {
		typ  ColumnType
		in   string
		err  error
		want string
	}{
		{Int, "x", ErrInt, `column C: expected INT, got "x"`},
		{Int, "1.5", ErrInt, `column C: expected INT, got "1.5"`},
		{Int, "9223372036854775808", ErrIntRange, `column C: INT out of range, got "9223372036854775808"`},
		{Int, "-9223372036854775809", ErrIntRange, `column C: INT out of range, got "-9223372036854775809"`},
		{Float, "abc", ErrFloat, `column C: expected FLOAT, got "abc"`},
		{Float, "NaN", ErrFloat, `column C: expected FLOAT, got "NaN"`},
		{Float, "-inf", ErrFloat, `column C: expected FLOAT, got "-inf"`},
		{Float, "1_000", ErrFloat, `column C: expected FLOAT, got "1_000"`},
		{Float, "1e400", ErrFloatRange, `column C: FLOAT out of range, got "1e400"`},
		{DateType, "1996-1-2", ErrDate, `column C: expected DATE, got "1996-1-2"`},
		{DateType, "2024-02-30", ErrDateInvalid, `column C: no such DATE, got "2024-02-30"`},
		{DateType, "1996-13-02", ErrDateInvalid, `column C: no such DATE, got "1996-13-02"`},
		{DateType, "0000-01-01", ErrDateInvalid, `column C: no such DATE, got "0000-01-01"`},
	}
	for _, tt := range tests {
		_, err := ParseValue(Column{Name: "C", Type: tt.typ}, []byte(tt.in))
		var ce *ColumnError
		if !errors.As(err, &ce) || !errors.Is(err, tt.err) || err.Error() != tt.want {
			t.Errorf("ParseValue(%v, %q) = %v, want %s (%v)", tt.typ, tt.in, err, tt.want, tt.err)
			continue
		}
		if gen := NewColumnError("C", tt.typ, []byte(tt.in)); !reflect.DeepEqual(gen, err) {
			t.Errorf("NewColumnError(%v, %q) = %#v, ParseValue gave %#v", tt.typ, tt.in, gen, err)
		}
		fe := positionError("r.csv", 7, err)
		if want := "r.csv:7: " + tt.want; fe.Error() != want || !errors.Is(fe, tt.err) {
			t.Errorf("positioned: %v, want %s", fe, want)
		}
	}
	// A field that parses after all (a caller's mistake) still reads sensibly.
	if got := NewColumnError("C", Int, []byte("7")).Error(); got != `column C: expected INT, got "7"` {
		t.Errorf("NewColumnError of a good field: %s", got)
	}
}

// TestDateTime checks the conversions between Date and time.Time.
func TestDateTime(t *testing.T) {
	for _, s := range []string{"1994-01-01", "2024-02-29", "0001-01-01", "9999-12-31"} {
		d, err := ParseDate([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		tm := d.Time()
		if got := tm.Format("2006-01-02"); got != s || tm.Location() != time.UTC || tm.Hour() != 0 {
			t.Errorf("%s.Time() = %v", s, tm)
		}
		if back := DateOf(tm); back != d {
			t.Errorf("DateOf(%v) = %v, want %v", tm, back, d)
		}
	}
	// The day in t's own location, not in UTC.
	loc := time.FixedZone("UTC+10", 10*3600)
	if got := DateOf(time.Date(2024, 3, 1, 1, 0, 0, 0, loc)); got != MakeDate(2024, 3, 1) {
		t.Errorf("DateOf in UTC+10: %v", got)
	}
}
