package runtime

import "math"

// This file holds the scalar functions SQLite and PostgreSQL share, with
// SQLite's exact semantics (SQLite is the oracle of the test suites and
// decides where the two differ): ABS, ROUND, LENGTH, UPPER, LOWER, SUBSTR,
// TRIM, LTRIM, RTRIM, and SQL's CASTs between INTEGER, REAL and TEXT. The
// compiler uses them in both dialects, except SUBSTR (1-based, dialect sql;
// dialect dbtoaster keeps Substring, 0-based) and the CASTs (dialect sql;
// dialect dbtoaster keeps the Cast* functions of functions.go).
//
// Strings are read as SQLite reads TEXT: a character is a byte below 0x80,
// or a byte of 0xc0 or more with the continuation bytes (0x80–0xbf) that
// follow it — one UTF-8 rune for valid UTF-8; SQLite's functions differ
// slightly on invalid UTF-8, and each function here follows its SQLite
// counterpart — and LENGTH and SUBSTR stop at a NUL byte, as SQLite's C
// strings do. Only Upper, Lower, RealText and
// the functions of a changed string allocate (their result).

// AbsInt implements ABS of an INT. ABS(-9223372036854775808), an integer
// overflow error in SQLite, is -9223372036854775808.
func AbsInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// AbsFloat implements ABS of a FLOAT, as SQLite: -0.0 stays -0.0.
func AbsFloat(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Round implements ROUND(x, n) as SQLite computes it: n is clamped to
// [0, 30]; a value beyond ±2^52, which has no fraction, is returned as is;
// with n = 0, x ± 0.5 truncated toward zero (so halves round away from
// zero); otherwise x is written with n decimals as SQLite's printf writes
// "%!.nf" — from its 18-digit decimal expansion, rounding the digit string
// half away from zero — and read back. That is not math.Round(x·10^n)/10^n:
// ROUND(2.675, 2) is 2.67 (2.675 is 2.67499999999999982236431605997495353221893310546875)
// and ROUND(0.125, 2) is 0.13 (an exact tie, rounded away from zero).
func Round(x float64, n int64) float64 {
	n = min(max(n, 0), 30)
	if x < -4503599627370496.0 || x > 4503599627370496.0 {
		return x
	}
	if n == 0 {
		if x < 0 {
			return float64(int64(x - 0.5))
		}
		return float64(int64(x + 0.5))
	}
	var buf [64]byte
	return atoF(appendSQLiteFloat(buf[:0], x, int(n), false))
}

// RealText is SQLite's TEXT of a REAL (CAST(x AS TEXT), the operands of ||, and the
// argument of a string function): its shortest decimal of at most 17
// significant digits that reads back to x, always with a decimal point and
// in exponent form below 1e-4 and from 1e17: 1.0, 0.30000000000000004,
// 1.0e-05, 1.0e+21, Inf, -Inf.
func RealText(x float64) string {
	var buf [32]byte
	return string(appendSQLiteFloat(buf[:0], x, 17, true))
}

// IntFromText implements CAST(s AS INTEGER) as SQLite: after leading
// spaces, an optional sign and the longest run of digits that follows,
// the rest ignored ('12abc' is 12, '1e3' is 1, '1.9' is 1, 'abc' is 0);
// beyond int64 it saturates to the largest or least INT.
func IntFromText(s string) int64 {
	z := 0
	for z < len(s) && isSQLiteSpace(s[z]) {
		z++
	}
	neg := false
	if z < len(s) {
		switch s[z] {
		case '-':
			neg = true
			z++
		case '+':
			z++
		}
	}
	for z < len(s) && s[z] == '0' {
		z++
	}
	var u uint64
	i := 0
	for ; z+i < len(s) && isDigit(s[z+i]); i++ {
		u = u*10 + uint64(s[z+i]-'0')
	}
	var v int64
	switch {
	case u > math.MaxInt64 && neg:
		v = math.MinInt64
	case u > math.MaxInt64:
		v = math.MaxInt64
	case neg:
		v = -int64(u)
	default:
		v = int64(u)
	}
	if i < 19 {
		return v
	}
	j := 1
	if i == 19 {
		j = compare2pow63(s[z:])
	}
	switch {
	case j < 0:
		return v
	case neg:
		return math.MinInt64
	}
	return math.MaxInt64
}

// compare2pow63 compares the 19 digits d with 9223372036854775808.
func compare2pow63(d string) int {
	const pow63 = "922337203685477580"
	for i := 0; i < 18; i++ {
		if c := int(d[i]) - int(pow63[i]); c != 0 {
			return c
		}
	}
	return int(d[18]) - '8'
}

// IntFromReal implements CAST(x AS INTEGER) of a REAL as SQLite: truncation
// toward zero, saturating beyond ±9.223372036854775e18.
func IntFromReal(x float64) int64 {
	if x < -9.223372036854775e18 {
		return math.MinInt64
	}
	if x > 9.223372036854775e18 {
		return math.MaxInt64
	}
	return int64(x)
}

// RealFromText implements CAST(s AS REAL) as SQLite: the longest prefix of
// s (after leading spaces) that reads as a decimal number with an optional
// fraction and exponent, read as SQLite reads it ('1.5e3x' is 1500.0,
// 'abc' is 0.0).
func RealFromText(s string) float64 { return atoF(s) }

// Length implements LENGTH(s): the number of characters of s before any
// NUL byte, counted as SQLite's length() counts them (any byte of 0x80 or
// more starts a character, with the continuation bytes after it).
func Length(s string) int64 {
	var n int64
	for i := 0; i < len(s) && s[i] != 0; n++ {
		i = substrSkip(s, i, 1)
	}
	return n
}

// skipChar returns the index after the character starting at s[i], by
// SQLite's SQLITE_SKIP_UTF8 (a byte of 0xc0 or more starts a character
// with the continuation bytes after it; a lone continuation byte is a
// character), which SUBSTR uses to count from the end and TRIM to split
// its set.
func skipChar(s string, i int) int {
	c := s[i]
	i++
	if c >= 0xc0 {
		for i < len(s) && s[i]&0xc0 == 0x80 {
			i++
		}
	}
	return i
}

// Upper implements UPPER(s): ASCII letters only, as SQLite without ICU.
// It returns s itself when nothing changes.
func Upper(s string) string { return mapASCII(s, 'a', 'z', -('a' - 'A')) }

// Lower implements LOWER(s): ASCII letters only.
func Lower(s string) string { return mapASCII(s, 'A', 'Z', 'a'-'A') }

func mapASCII(s string, lo, hi byte, delta int) string {
	i := 0
	for i < len(s) && (s[i] < lo || s[i] > hi) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if b[i] >= lo && b[i] <= hi {
			b[i] = byte(int(b[i]) + delta)
		}
	}
	return string(b)
}

// Trim implements TRIM(s): s without its leading and trailing spaces (only
// U+0020, as SQLite).
func Trim(s string) string { return TrimSet(s, " ") }

// LTrim implements LTRIM(s).
func LTrim(s string) string { return LTrimSet(s, " ") }

// RTrim implements RTRIM(s).
func RTrim(s string) string { return RTrimSet(s, " ") }

// TrimSet implements TRIM(s, set): s without the characters of set at
// either end.
func TrimSet(s, set string) string { return RTrimSet(LTrimSet(s, set), set) }

// LTrimSet implements LTRIM(s, set).
func LTrimSet(s, set string) string {
	for len(s) > 0 {
		n := setPrefix(s, set, false)
		if n == 0 {
			break
		}
		s = s[n:]
	}
	return s
}

// RTrimSet implements RTRIM(s, set).
func RTrimSet(s, set string) string {
	for len(s) > 0 {
		n := setPrefix(s, set, true)
		if n == 0 {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// setPrefix returns the length of the first character of set that is a
// prefix (suffix, when suffix is set) of s, or 0.
func setPrefix(s, set string, suffix bool) int {
	for i := 0; i < len(set); {
		j := skipChar(set, i)
		c := set[i:j]
		i = j
		if len(c) > len(s) {
			continue
		}
		if (!suffix && s[:len(c)] == c) || (suffix && s[len(s)-len(c):] == c) {
			return len(c)
		}
	}
	return 0
}

// Substr implements SQL's SUBSTR(s, start): the characters of s from
// character start on, counting from 1 (see SubstrLen).
func Substr(s string, start int64) string { return SubstrLen(s, start, math.MaxInt64) }

// SubstrLen implements SQL's SUBSTR(s, start, n) with SQLite's rules: start
// counts from 1; a negative start counts from the end (-1 is the last
// character); start 0 is before the first character, so SUBSTR(s, 0, n) has
// n-1 characters; a negative n takes the |n| characters before start. The
// result is a slice of s (no allocation).
func SubstrLen(s string, p1, p2 int64) string {
	if p1 < 0 {
		var n int64
		for i := 0; i < len(s) && s[i] != 0; n++ {
			i = skipChar(s, i)
		}
		p1 += n
		if p1 < 0 {
			if p2 < 0 {
				p2 = 0
			} else {
				p2 += p1
			}
			p1 = 0
		}
	} else if p1 > 0 {
		p1--
	} else if p2 > 0 {
		p2--
	}
	if p2 < 0 {
		if p2 < -p1 {
			p2 = p1
		} else {
			p2 = -p2
		}
		p1 -= p2
	}
	i := substrSkip(s, 0, p1)
	return s[i:substrSkip(s, i, p2)]
}

// substrSkip returns the index n characters after s[i], stopping at a NUL
// byte or the end, as SQLite's substr walks its C string.
func substrSkip(s string, i int, n int64) int {
	for ; n > 0 && i < len(s); n-- {
		c := s[i]
		switch {
		case c == 0:
			return i
		case c < 0x80:
			i++
		default:
			for i++; i < len(s) && s[i]&0xc0 == 0x80; i++ {
			}
		}
	}
	return i
}
