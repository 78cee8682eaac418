package runtime

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// sqliteDB opens an in-memory SQLite database (the oracle's version), for
// comparing the functions with SQLite's own.
func sqliteDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// roundCases are values whose rounding is delicate: exact ties, decimals
// just below or above a tie, values at the magnitude limits.
func roundCases(r *rand.Rand) []float64 {
	xs := []float64{0, 0.5, 1.5, 2.5, -2.5, 0.125, -0.125, 0.375, 2.675, 1.005, 1.015, 1.025,
		0.045, 1.45, 2.345, 5.555, 0.285, 1234.5678, 0.49999999999999994, 4503599627370495.5,
		4503599627370496, 4503599627370497, -4503599627370495.5, 1e15 + 0.3, 9.995, 99.995,
		0.0001, 0.00005, 0.006, 0.0049999, 1e-20, 5e-324, 1e300, math.MaxFloat64, 1.0 / 3, 2.0 / 3,
		123456789.123456789, 0.1 + 0.2, 8.5, 9.5, 10.5, -0.5, -1.5, math.Copysign(0, -1)}
	for i := 0; i < 3000; i++ {
		d := r.IntN(7)
		k := r.Int64N(2_000_000) - 1_000_000
		p := math.Pow10(d)
		xs = append(xs, float64(k)/p, (float64(k)+0.5)/p, float64(2*k+1)/(2*p))
		xs = append(xs, (r.Float64()-0.5)*math.Pow10(r.IntN(30)-12))
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	return xs
}

// TestRoundMatchesSQLite compares Round with SQLite's round on many values
// and digit counts, bit for bit.
func TestRoundMatchesSQLite(t *testing.T) {
	db := sqliteDB(t)
	st, err := db.Prepare("SELECT round(?, ?), round(?)")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	bad := 0
	for _, x := range roundCases(r) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		n := int64(r.IntN(8))
		if r.IntN(10) == 0 {
			n = int64(r.IntN(40) - 5)
		}
		var got2, got1 float64
		if err := st.QueryRow(x, n, x).Scan(&got2, &got1); err != nil {
			t.Fatal(err)
		}
		if w := Round(x, n); math.Float64bits(w) != math.Float64bits(got2) && !(w == 0 && got2 == 0) {
			if bad++; bad < 20 {
				t.Errorf("Round(%v, %d) = %v, SQLite %v", x, n, w, got2)
			}
		}
		if w := Round(x, 0); math.Float64bits(w) != math.Float64bits(got1) && !(w == 0 && got1 == 0) {
			if bad++; bad < 20 {
				t.Errorf("Round(%v) = %v, SQLite %v", x, w, got1)
			}
		}
	}
}

// TestRealTextMatchesSQLite compares RealText with SQLite's CAST(x AS TEXT).
func TestRealTextMatchesSQLite(t *testing.T) {
	db := sqliteDB(t)
	st, err := db.Prepare("SELECT CAST(? AS TEXT)")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	xs := append(roundCases(r), 1e21, 1e17, 1e16, 99999999999999990, 1e-4, 1e-5, 123e-7, 49.47, 0.1, 100, -7.25, 1e100, 1.7976931348623157e308, 2.2250738585072014e-308, 4.9e-324, math.Inf(1), math.Inf(-1))
	bad := 0
	for _, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		var want string
		if err := st.QueryRow(x).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if got := RealText(x); got != want {
			if bad++; bad < 20 {
				t.Errorf("RealText(%v) = %q, SQLite %q", x, got, want)
			}
		}
	}
}

// TestTextCastsMatchSQLite compares IntFromText and RealFromText with
// SQLite's CAST(s AS INTEGER) and CAST(s AS REAL), and IntFromReal with
// CAST(x AS INTEGER).
func TestTextCastsMatchSQLite(t *testing.T) {
	db := sqliteDB(t)
	st, err := db.Prepare("SELECT CAST(?1 AS INTEGER), CAST(?1 AS REAL)")
	if err != nil {
		t.Fatal(err)
	}
	ss := []string{"", " ", "12abc", "1e3", " 12 ", "1.9", "-0x10", "0x10", "+5", "  -7x", "- 7", "+-3",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "00000000000000000000012", "abc", ".5", "5.", "-.5", "e5", "1e", "1e+",
		"1.5e3x", "1e400", "-1e400", "1e-400", "\t\n42", "4\x002", "0.30000000000000004", "1_000",
		"123456789012345678901234567890", "0.000000000000000000000000000001234", "١٢", "3.14159265358979323846"}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		const alphabet = "0123456789.eE+- x"
		for k := r.IntN(12); k >= 0; k-- {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		ss = append(ss, b.String(), fmt.Sprint(r.Float64()*math.Pow10(r.IntN(40)-20)), fmt.Sprint(r.Int64()))
	}
	for _, s := range ss {
		var wi int64
		var wf float64
		if err := st.QueryRow(s).Scan(&wi, &wf); err != nil {
			t.Fatal(err)
		}
		if got := IntFromText(s); got != wi {
			t.Errorf("IntFromText(%q) = %d, SQLite %d", s, got, wi)
		}
		if got := RealFromText(s); math.Float64bits(got) != math.Float64bits(wf) && !(got == 0 && wf == 0) {
			t.Errorf("RealFromText(%q) = %v, SQLite %v", s, got, wf)
		}
	}
	sf, err := db.Prepare("SELECT CAST(? AS INTEGER)")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range append(roundCases(r), 9.223372036854775e18, 9.2233720368547748e18, -9.2233720368547758e18, 1e19, -1e19) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		var w int64
		if err := sf.QueryRow(x).Scan(&w); err != nil {
			t.Fatal(err)
		}
		if got := IntFromReal(x); got != w {
			t.Errorf("IntFromReal(%v) = %d, SQLite %d", x, got, w)
		}
	}
}

// TestStringFunctionsMatchSQLite compares the string functions with
// SQLite's on strings with multi-byte characters, invalid UTF-8 and NULs.
func TestStringFunctionsMatchSQLite(t *testing.T) {
	db := sqliteDB(t)
	st, err := db.Prepare("SELECT length(?1), upper(?1), lower(?1), trim(?1), ltrim(?1), rtrim(?1), trim(?1, ?2), ltrim(?1, ?2), rtrim(?1, ?2), substr(?1, ?3), substr(?1, ?3, ?4)")
	if err != nil {
		t.Fatal(err)
	}
	ss := []string{"", "a", "hello", "  a b  ", "Ünïcödé straße", "\xff\xfeab", "a\x80\x80b", "ab\x00cd", "日本語テキスト", " \t x \t ", "xxhixx", "ǅ"}
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "B", " ", "x", "é", "日", "\xc3", "\x80", "\t", "Z"}
	for i := 0; i < 500; i++ {
		var b strings.Builder
		for k := r.IntN(10); k > 0; k-- {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		ss = append(ss, b.String())
	}
	sets := []string{"", " ", "x", "xh", "é ", "日a", "\x80"}
	for _, s := range ss {
		for k := 0; k < 4; k++ {
			set := sets[r.IntN(len(sets))]
			p1, p2 := r.Int64N(15)-7, r.Int64N(15)-7
			if k == 0 {
				p1, p2 = []int64{0, 1, -1, 100, -100, math.MinInt64 + 1, math.MaxInt64}[r.IntN(7)], []int64{0, 1, -1, 100, -100, math.MaxInt64, math.MinInt64 + 1}[r.IntN(7)]
			}
			var n int64
			var up, lo, tr, ltr, rtr, trs, ltrs, rtrs, sub, subn string
			if err := st.QueryRow(s, set, p1, p2).Scan(&n, &up, &lo, &tr, &ltr, &rtr, &trs, &ltrs, &rtrs, &sub, &subn); err != nil {
				t.Fatal(err)
			}
			check := func(what, got, want string) {
				t.Helper()
				if got != want {
					t.Errorf("%s of %q (set %q, %d, %d) = %q, SQLite %q", what, s, set, p1, p2, got, want)
				}
			}
			if got := Length(s); got != n {
				t.Errorf("Length(%q) = %d, SQLite %d", s, got, n)
			}
			check("Upper", Upper(s), up)
			check("Lower", Lower(s), lo)
			check("Trim", Trim(s), tr)
			check("LTrim", LTrim(s), ltr)
			check("RTrim", RTrim(s), rtr)
			check("TrimSet", TrimSet(s, set), trs)
			check("LTrimSet", LTrimSet(s, set), ltrs)
			check("RTrimSet", RTrimSet(s, set), rtrs)
			check("Substr", Substr(s, p1), sub)
			check("SubstrLen", SubstrLen(s, p1, p2), subn)
		}
	}
}

func TestSQLFunctionsDoNotAllocate(t *testing.T) {
	var sink float64
	var s1, s2, s3 string
	allocs := testing.AllocsPerRun(100, func() {
		sink += Round(2.675, 2) + Round(-1234.5, 0) + RealFromText("1.5e3")
		s1, s2, s3 = SubstrLen("hello world", 2, 3), Trim("  x "), Upper("ABC")
		sink += float64(Length("héllo") + IntFromText(" 42x") + IntFromReal(-3.9))
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
	_, _, _ = s1, s2, s3
}
