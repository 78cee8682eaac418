package runtime

import (
	"math"
	"strconv"
	"testing"
)

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"42", 42, true},
		{"-42", -42, true},
		{"+7", 7, true},
		{"007", 7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"99999999999999999999", 0, false},
		{"", 0, false},
		{"-", 0, false},
		{"1.0", 0, false},
		{" 1", 0, false},
		{"1a", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseInt([]byte(tt.in))
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseInt(%q) = %d, %v; want %d, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestParseFloat(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"0", true}, {"-0", true}, {"17", true}, {"-123.4500", true}, {"0.1", true},
		{".5", true}, {"5.", true}, {"+2.25", true}, {"0.04", true}, {"17954.55", true},
		{"123456789012345", true}, {"1234567890123456789", true}, {"0.000000000000000000000001", true},
		{"1e5", true}, {"-1.5E-3", true}, {"NaN", true}, {"inf", true}, {"1e400", true},
		{"1.2345678901234567890123e-5", true}, {"0.30000000000000004", true},
		{"", false}, {"-", false}, {".", false}, {"1.2.3", false}, {"abc", false}, {"1,5", false}, {"1e", false},
	}
	for _, tt := range tests {
		got, err := ParseFloat([]byte(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("ParseFloat(%q): err = %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if !tt.ok {
			if err != ErrFloat {
				t.Errorf("ParseFloat(%q): err = %v, want ErrFloat", tt.in, err)
			}
			continue
		}
		want, _ := strconv.ParseFloat(tt.in, 64)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("ParseFloat(%q) = %v, want %v", tt.in, got, want)
		}
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
	for _, s := range []string{"-123456", "x"} {
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { v, _ := ParseInt(b); sinkI += v }); n != 0 {
			t.Errorf("ParseInt(%q): %v allocs", s, n)
		}
	}
	for _, s := range []string{"-123.4500", "1.5e-3", "1.2345678901234567890123e-5", "NaN", "0.000000000000000000000001"} {
		// Syntax errors in the strconv fallback allocate (a *strconv.NumError); they end a replay.
		b := []byte(s)
		if n := testing.AllocsPerRun(100, func() { v, _ := ParseFloat(b); sinkF += v }); n != 0 {
			t.Errorf("ParseFloat(%q): %v allocs", s, n)
		}
	}
	b := []byte("1996-03-13")
	if n := testing.AllocsPerRun(100, func() { d, _ := ParseDate(b); sinkI += int64(d) }); n != 0 {
		t.Errorf("ParseDate: %v allocs", n)
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
	cols := []Column{{"A", Int}, {"B", Float}, {"C", String}, {"D", DateType}}
	want := []any{int64(3), 2.5, "x y", MakeDate(1996, 1, 2)}
	for i, s := range []string{"3", "2.5", "x y", "1996-01-02"} {
		v, err := ParseValue(cols[i], []byte(s))
		if err != nil || v != want[i] {
			t.Errorf("ParseValue(%v, %q) = %v, %v", cols[i], s, v, err)
		}
	}
	_, err := ParseValue(cols[3], []byte("1996-13-02"))
	if err == nil || err.Error() != `column D: expected DATE, got "1996-13-02"` {
		t.Errorf("ParseValue(bad date): %v", err)
	}
}
