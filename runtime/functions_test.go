package runtime

import (
	"math"
	"testing"
)

func TestLike(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"", "", true},
		{"", "a", false},
		{"abc", "abc", true},
		{"abc", "abcd", false},
		{"abc", "ABC", false},
		{"%", "", true},
		{"%", "anything", true},
		{"%%", "x", true},
		{"%%%", "", true},
		{"ab%", "abc", true},
		{"ab%", "ab", true},
		{"ab%", "a", false},
		{"ab%", "xab", false},
		{"%bc", "abc", true},
		{"%bc", "bcd", false},
		{"%b%", "abc", true},
		{"%b%", "b", true},
		{"%b%", "ac", false},
		{"%special%requests%", "blithely special foxes requests", true},
		{"%special%requests%", "requests special", false},
		{"a%b%c", "abc", true},
		{"a%b%c", "aXbYc", true},
		{"a%b%c", "aXcYb", false},
		{"a%b%c", "ac", false},
		{"a%a", "a", false}, // prefix and suffix may not overlap
		{"a%a", "aa", true},
		{"PROMO%", "PROMO BURNISHED COPPER", true},
		{"%BRASS", "LARGE BRUSHED BRASS", true},
		{"_", "a", true},
		{"_", "", false},
		{"_", "ab", false},
		{"_", "é", true}, // one rune, two bytes
		{"__", "é", false},
		{"a_c", "abc", true},
		{"a_c", "ac", false},
		{"%_", "", false},
		{"%_", "x", true},
		{"_%_", "x", false},
		{"_%_", "xy", true},
		{"%a_c%", "xxabcxx", true},
		{"%a_c%", "xxabxcx", false},
		{"%a_%b", "aaxxb", true},
		{"%é_", "xéy", true},
		{"_é%", "aéb", true},
		{"%%a%%", "bab", true},
	}
	for _, tt := range tests {
		if got := CompileLike(tt.pattern).Match(tt.s); got != tt.want {
			t.Errorf("%q LIKE %q = %v, want %v", tt.s, tt.pattern, got, tt.want)
		}
		if got := likeMatch(tt.pattern, tt.s); got != tt.want {
			t.Errorf("likeMatch(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}

func TestLikeAllocs(t *testing.T) {
	for _, p := range []string{"abc", "%", "ab%", "%bc", "%b%", "a%b%c", "a_c%"} {
		lp := CompileLike(p)
		n := testing.AllocsPerRun(100, func() { lp.Match("xxaXbYcabc") })
		if n != 0 {
			t.Errorf("%q: %v allocs per Match", p, n)
		}
	}
}

func TestSubstring(t *testing.T) {
	tests := []struct {
		s        string
		start, n int64
		want     string
	}{
		{"13-555-1234", 0, 2, "13"},
		{"abc", 0, 3, "abc"},
		{"abc", 1, 1, "b"},
		{"abc", 1, 10, "bc"},
		{"abc", 2, 1, "c"},
		{"abc", 3, 1, ""},
		{"abc", 10, 1, ""},
		{"abc", 0, 0, ""},
		{"abc", 1, -1, ""},
		{"abc", -1, 2, "a"},
		{"abc", -5, 2, ""},
		{"abc", -1, math.MaxInt64, "abc"},
		{"abc", 0, math.MaxInt64, "abc"},
		{"", 0, 1, ""},
		{"héllo", 1, 2, "él"},
		{"héllo", 2, 10, "llo"},
	}
	for _, tt := range tests {
		if got := Substring(tt.s, tt.start, tt.n); got != tt.want {
			t.Errorf("Substring(%q, %d, %d) = %q, want %q", tt.s, tt.start, tt.n, got, tt.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Substring("13-555-1234", 0, 2) }); n != 0 {
		t.Errorf("Substring: %v allocs", n)
	}
}

func TestDateAdd(t *testing.T) {
	tests := []struct {
		d    string
		n    int64
		unit string
		want string
	}{
		{"1998-12-01", -90, "DAY", "1998-09-02"},
		{"1994-01-01", 1, "year", "1995-01-01"},
		{"1994-01-01", 3, "Month", "1994-04-01"},
		{"1994-12-31", 1, "DAY", "1995-01-01"},
		{"2021-01-31", 1, "MONTH", "2021-03-03"}, // normalized, as SQLite does
		{"2020-01-31", 1, "MONTH", "2020-03-02"}, // leap year
		{"2020-03-31", -1, "MONTH", "2020-03-02"},
		{"2020-02-29", 1, "YEAR", "2021-03-01"},
		{"2020-02-29", 4, "YEAR", "2024-02-29"},
		{"1995-11-30", 3, "MONTH", "1996-03-01"}, // 1996-02-30
		{"1995-12-15", 1, "MONTH", "1996-01-15"},
	}
	for _, tt := range tests {
		got := DateAdd(CastDate(tt.d), tt.n, tt.unit).String()
		if got != tt.want {
			t.Errorf("%s + %d %s = %s, want %s", tt.d, tt.n, tt.unit, got, tt.want)
		}
	}
}

func TestDatePart(t *testing.T) {
	d := MakeDate(1995, 3, 15)
	for unit, want := range map[string]int64{"YEAR": 1995, "month": 3, "Day": 15} {
		if got := DatePart(unit, d); got != want {
			t.Errorf("DatePart(%q) = %d, want %d", unit, got, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("DatePart(\"WEEK\") did not panic")
		}
	}()
	DatePart("WEEK", d)
}

func TestRegexp(t *testing.T) {
	re := CompileRegexp("ab+|x")
	for s, want := range map[string]int64{"abbbz": 1, "ab": 1, "zab": 0, "x": 1, "xab": 1, "": 0} {
		if got := RegexpMatch(re, s); got != want {
			t.Errorf("REGEXP_MATCH(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestCasts(t *testing.T) {
	if got := CastIntFromFloat(-2.9); got != -2 {
		t.Errorf("CastIntFromFloat(-2.9) = %d", got)
	}
	if got := CastIntFromFloat(2.9); got != 2 {
		t.Errorf("CastIntFromFloat(2.9) = %d", got)
	}
	if got := CastIntFromString(" 42 "); got != 42 {
		t.Errorf("CastIntFromString(42) = %d", got)
	}
	if got := CastIntFromString("4x"); got != 0 {
		t.Errorf("CastIntFromString(4x) = %d", got)
	}
	if got := CastFloatFromString("2.5"); got != 2.5 {
		t.Errorf("CastFloatFromString(2.5) = %v", got)
	}
	if got := CastFloatFromString("x"); got != 0 {
		t.Errorf("CastFloatFromString(x) = %v", got)
	}
	if got := CastStringFromInt(-7); got != "-7" {
		t.Errorf("CastStringFromInt = %q", got)
	}
	for f, want := range map[float64]string{0.1: "0.1", 3: "3", 1e21: "1e+21", 133333.33333333334: "133333.33333333334"} {
		if got := CastStringFromFloat(f); got != want {
			t.Errorf("CastStringFromFloat(%v) = %q, want %q", f, got, want)
		}
	}
	if got := CastStringFromDate(MakeDate(7, 1, 2)); got != "0007-01-02" {
		t.Errorf("CastStringFromDate = %q", got)
	}
	if got := CastDate("1996-02-29"); got != MakeDate(1996, 2, 29) {
		t.Errorf("CastDate = %v", got)
	}
	if got := CastDate("1996-2-29"); got != 0 {
		t.Errorf("CastDate(bad) = %v", got)
	}
}

func TestListMinMax(t *testing.T) {
	if got := ListMax(1.0, 0.5); got != 1 {
		t.Errorf("ListMax = %v", got)
	}
	if got := ListMax[int64](1, 7, 3); got != 7 {
		t.Errorf("ListMax = %v", got)
	}
	if got := ListMin[int64](4, 7, 3); got != 3 {
		t.Errorf("ListMin = %v", got)
	}
	if got := ListMin("b"); got != "b" {
		t.Errorf("ListMin = %v", got)
	}
	if got := ListMin(MakeDate(2000, 1, 1), MakeDate(1999, 12, 31)); got != MakeDate(1999, 12, 31) {
		t.Errorf("ListMin(dates) = %v", got)
	}
}

func TestDiv(t *testing.T) {
	if got := Div(400000, 3); got != 400000.0/3 {
		t.Errorf("Div = %v", got)
	}
	if Div(1, 0) != 0 || Div(-1, 0) != 0 || Div(0, 0) != 0 {
		t.Error("division by zero is not 0")
	}
}

func TestStdMath(t *testing.T) {
	near := func(name string, got, want float64) {
		t.Helper()
		if math.IsNaN(want) {
			if !math.IsNaN(got) {
				t.Errorf("%s = %v, want NaN", name, got)
			}
			return
		}
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("RADIANS(180)", Radians(180), math.Pi)
	near("DEGREES(pi/2)", Degrees(math.Pi/2), 90)
	near("POW(2, 10)", Pow(2, 10), 1024)
	near("POW(4, 0.5)", Pow(4, 0.5), 2)
	near("SQRT(2)", Sqrt(2), math.Sqrt2)
	near("SQRT(-1)", Sqrt(-1), math.NaN())
	near("COS(pi)", Cos(math.Pi), -1)
	near("SIN(pi/2)", Sin(math.Pi/2), 1)
	near("VEC_LENGTH(3,4,12)", VecLength(3, 4, 12), 13)
	near("VEC_DOT", VecDot(1, 2, 3, 4, 5, 6), 32)
	near("VECTOR_ANGLE orthogonal", VectorAngle(1, 0, 0, 0, 2, 0), math.Pi/2)
	near("VECTOR_ANGLE opposite", VectorAngle(1, 0, 0, -2, 0, 0), math.Pi)
	near("VECTOR_ANGLE 45", VectorAngle(1, 0, 0, 1, 1, 0), math.Pi/4)
	near("VECTOR_ANGLE parallel (cosine rounds past 1)", VectorAngle(1, 1, 1, 1, 1, 1), 0)
	near("VECTOR_ANGLE antiparallel", VectorAngle(1, 1, 1, -1, -1, -1), math.Pi)
	near("VECTOR_ANGLE zero vector", VectorAngle(0, 0, 0, 1, 0, 0), math.NaN())
	// p1=(1,0,0), p2=origin, p3=(0,0,1): the torsion about the z axis of p4.
	near("DIHEDRAL_ANGLE cis", DihedralAngle(1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1), 0)
	near("DIHEDRAL_ANGLE trans", DihedralAngle(1, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0, 1), math.Pi)
	near("DIHEDRAL_ANGLE +90", DihedralAngle(1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1), math.Pi/2)
	near("DIHEDRAL_ANGLE -90", DihedralAngle(1, 0, 0, 0, 0, 0, 0, 0, 1, 0, -1, 1), -math.Pi/2)
	// Scaling and translating the points keeps the angle.
	near("DIHEDRAL_ANGLE scaled", DihedralAngle(3, 5, 7, 1, 5, 7, 1, 5, 9, 1, 7, 9), math.Pi/2)
	for name, m := range MathFuncs {
		if m.Arity < 1 || m.GoName == "" || m.Eval == nil {
			t.Errorf("MathFuncs[%s] incomplete", name)
		}
	}
	near("MathFuncs DIHEDRAL_ANGLE", MathFuncs["DIHEDRAL_ANGLE"].Eval([]float64{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1}), math.Pi/2)
}

func TestHash(t *testing.T) {
	// Thomas Wang's hash64shift reference values.
	for _, tt := range []struct {
		in   int64
		want uint64
	}{
		{0, 0x77cfa1eef01bca90},
		{1, 0x5bca7c69b794f8ce},
	} {
		if got := uint64(Hash(tt.in)); got != tt.want {
			t.Errorf("Hash(%d) = %#x, want %#x", tt.in, got, tt.want)
		}
	}
	seen := map[int64]int64{}
	for i := int64(-500); i < 500; i++ {
		h := Hash(i)
		if j, dup := seen[h]; dup {
			t.Fatalf("Hash(%d) = Hash(%d)", i, j)
		}
		seen[h] = i
	}
	if HashFloat(0) != HashFloat(math.Copysign(0, -1)) {
		t.Error("HashFloat(-0) != HashFloat(0)")
	}
	if HashFloat(1.5) == HashFloat(2.5) || HashString("a") == HashString("b") || HashString("") == HashString("a") {
		t.Error("hash collision on trivial inputs")
	}
	if testing.AllocsPerRun(10, func() { _ = HashString("allocation free") }) != 0 {
		t.Error("HashString allocates")
	}
}
