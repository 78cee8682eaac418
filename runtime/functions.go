package runtime

import (
	"cmp"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the SQL functions of the dialect as generated code calls
// them. They are on the trigger hot path: none of them allocates (except the
// CAST_STRING family, whose result is a new string), none uses reflection or
// interfaces.

// likeKind selects the matcher of a compiled LIKE pattern.
type likeKind uint8

const (
	likeExact    likeKind = iota // no wildcard: s == lit
	likeAny                      // only '%': matches everything
	likePrefix                   // lit%
	likeSuffix                   // %lit
	likeContains                 // %lit%
	likeSegments                 // several '%', no '_': prefix, ordered middle segments, suffix
	likeGeneral                  // contains '_': backtracking matcher
)

// LikePattern is a compiled SQL LIKE pattern. '%' matches any run of
// characters (possibly empty), '_' matches exactly one character (one UTF-8
// encoded rune), every other character matches itself, case-sensitively. The
// pattern must match the whole string. The dialect has no ESCAPE clause, so
// '%' and '_' are always wildcards.
//
// A LikePattern is immutable and safe for concurrent use; generated code
// compiles constant patterns once, in package-level variables.
type LikePattern struct {
	kind    likeKind
	pattern string   // the source pattern (likeGeneral matches over it)
	lit     string   // the literal of likeExact, likePrefix, likeSuffix, likeContains
	prefix  string   // likeSegments: the literal before the first '%'
	suffix  string   // likeSegments: the literal after the last '%'
	middle  []string // likeSegments: the non-empty literals between '%'s, in order
}

// CompileLike compiles a LIKE pattern. Every string is a valid pattern.
func CompileLike(pattern string) *LikePattern {
	p := &LikePattern{pattern: pattern}
	if strings.IndexByte(pattern, '_') >= 0 {
		p.kind = likeGeneral
		return p
	}
	segs := strings.Split(pattern, "%")
	n := len(segs)
	switch {
	case n == 1:
		p.kind, p.lit = likeExact, pattern
		return p
	case n == 2 && segs[0] == "" && segs[1] == "":
		p.kind = likeAny
		return p
	case n == 2 && segs[1] == "":
		p.kind, p.lit = likePrefix, segs[0]
		return p
	case n == 2 && segs[0] == "":
		p.kind, p.lit = likeSuffix, segs[1]
		return p
	case n == 3 && segs[0] == "" && segs[2] == "":
		if segs[1] == "" {
			p.kind = likeAny
		} else {
			p.kind, p.lit = likeContains, segs[1]
		}
		return p
	}
	p.kind = likeSegments
	p.prefix, p.suffix = segs[0], segs[n-1]
	for _, s := range segs[1 : n-1] {
		if s != "" {
			p.middle = append(p.middle, s)
		}
	}
	if p.prefix == "" && p.suffix == "" && len(p.middle) == 0 {
		p.kind = likeAny
	}
	return p
}

// String returns the source pattern.
func (p *LikePattern) String() string { return p.pattern }

// Match reports whether s matches the whole pattern. It does not allocate.
func (p *LikePattern) Match(s string) bool {
	switch p.kind {
	case likeExact:
		return s == p.lit
	case likeAny:
		return true
	case likePrefix:
		return strings.HasPrefix(s, p.lit)
	case likeSuffix:
		return strings.HasSuffix(s, p.lit)
	case likeContains:
		return strings.Contains(s, p.lit)
	case likeSegments:
		if len(s) < len(p.prefix)+len(p.suffix) || !strings.HasPrefix(s, p.prefix) || !strings.HasSuffix(s, p.suffix) {
			return false
		}
		// Greedy leftmost matching of the middle literals is complete: if
		// any placement exists, the leftmost one leaves the most room.
		rest := s[len(p.prefix) : len(s)-len(p.suffix)]
		for _, m := range p.middle {
			i := strings.Index(rest, m)
			if i < 0 {
				return false
			}
			rest = rest[i+len(m):]
		}
		return true
	}
	return likeMatch(p.pattern, s)
}

// likeMatch is the general LIKE matcher: iterative, backtracking only to the
// most recent '%' (which suffices, since a later '%' subsumes the choices of
// an earlier one). '_' consumes one rune; '%' backtracks one rune at a time.
func likeMatch(p, s string) bool {
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; c {
			case '%':
				starP, starS = pi, si
				pi++
				continue
			case '_':
				si += runeLen(s, si)
				pi++
				continue
			default:
				if s[si] == c {
					si++
					pi++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS += runeLen(s, starS)
		si, pi = starS, starP+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}

// runeLen is the length in bytes of the rune starting at s[i].
func runeLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

// Substring implements SUBSTRING(s, start, n): the n characters of s starting
// at character start, where start counts from 0 (SUBSTRING(phone, 0, 2) is the
// first two characters). Characters are runes of the UTF-8 encoding, as in
// SQLite. The window [start, start+n) is clamped to the string the way SQL's
// 1-based SUBSTRING clamps [start+1, start+1+n): a negative start eats into
// the length (SUBSTRING('abc', -1, 2) = "a"), a start past the end or a
// non-positive length gives "". The result is a slice of s: no allocation.
func Substring(s string, start, n int64) string {
	if start < 0 {
		n += start // cannot overflow: start is negative
		start = 0
	}
	if n <= 0 {
		return ""
	}
	b := runeOffset(s, start)
	return s[b : b+runeOffset(s[b:], n)]
}

// runeOffset is the byte offset of the k-th rune of s, or len(s) if s has
// fewer than k runes.
func runeOffset(s string, k int64) int {
	i := 0
	for ; k > 0 && i < len(s); k-- {
		i += runeLen(s, i)
	}
	return i
}

// DatePart implements DATE_PART(unit, d) and EXTRACT(unit FROM d): unit is
// "YEAR", "MONTH" or "DAY", in any case. It panics on another unit: the
// compiler only emits calls with one of these constants.
func DatePart(unit string, d Date) int64 {
	switch {
	case strings.EqualFold(unit, "YEAR"):
		return d.Year()
	case strings.EqualFold(unit, "MONTH"):
		return d.Month()
	case strings.EqualFold(unit, "DAY"):
		return d.Day()
	}
	panic("runtime.DatePart: unknown unit " + strconv.Quote(unit))
}

// DateAdd implements d + INTERVAL 'n' unit for unit "DAY", "MONTH" or "YEAR"
// (any case; n may be negative). Months and years are added to the calendar
// fields and the result is normalized like SQLite's date(d, '+n month') and
// Go's time.AddDate: 2021-01-31 + 1 MONTH = 2021-03-03, 2020-02-29 + 1 YEAR =
// 2021-03-01. It panics on another unit.
func DateAdd(d Date, n int64, unit string) Date {
	switch {
	case strings.EqualFold(unit, "DAY"):
		return d.AddDays(n)
	case strings.EqualFold(unit, "MONTH"):
		return d.AddMonths(n)
	case strings.EqualFold(unit, "YEAR"):
		return d.AddYears(n)
	}
	panic("runtime.DateAdd: unknown unit " + strconv.Quote(unit))
}

// CompileRegexp compiles the pattern of REGEXP_MATCH(re, s), anchored at the
// start of the subject (the pattern becomes ^(?:re)); the match need not
// extend to the end. The syntax is Go's RE2 syntax, which covers the POSIX
// extended expressions the dialect's queries use. It panics if re does not
// compile: generated code calls it on constants that the compiler checked.
func CompileRegexp(re string) *regexp.Regexp {
	return regexp.MustCompile("^(?:" + re + ")")
}

// RegexpMatch implements REGEXP_MATCH: 1 when re (from CompileRegexp) matches
// at the start of s, else 0.
func RegexpMatch(re *regexp.Regexp, s string) int64 {
	if re.MatchString(s) {
		return 1
	}
	return 0
}

// CastIntFromFloat implements CAST_INT of a float: truncation toward zero.
// NaN and out-of-range values give Go's implementation-defined conversion.
func CastIntFromFloat(f float64) int64 { return int64(f) }

// CastIntFromString implements CAST_INT of a string: a decimal integer with an
// optional sign and surrounding spaces; a string that is not one gives 0.
func CastIntFromString(s string) int64 {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// CastFloatFromString implements CAST_FLOAT of a string (surrounding spaces
// ignored); a string that is not a number gives 0.
func CastFloatFromString(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0
	}
	return v
}

// CastStringFromInt implements CAST_STRING of an int: its decimal form.
func CastStringFromInt(i int64) string { return strconv.FormatInt(i, 10) }

// CastStringFromFloat implements CAST_STRING of a float: the shortest decimal
// that reads back to the same value (strconv 'g', -1), e.g. "0.1", "1e+21".
func CastStringFromFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// CastStringFromDate implements CAST_STRING of a date: yyyy-mm-dd.
func CastStringFromDate(d Date) string { return d.String() }

// CastDate implements CAST_DATE (and DATE) of a string yyyy-mm-dd; a string
// that is not a date gives the zero Date.
func CastDate(s string) Date {
	var b [10]byte
	if len(s) != len(b) {
		return 0
	}
	copy(b[:], s)
	d, err := ParseDate(b[:])
	if err != nil {
		return 0
	}
	return d
}

// ListMin implements LISTMIN(a, b, …): the least argument.
func ListMin[T cmp.Ordered](a T, rest ...T) T {
	for _, x := range rest {
		if x < a {
			a = x
		}
	}
	return a
}

// ListMax implements LISTMAX(a, b, …): the greatest argument.
func ListMax[T cmp.Ordered](a T, rest ...T) T {
	for _, x := range rest {
		if x > a {
			a = x
		}
	}
	return a
}

// Div implements the dialect's '/': real division, whatever the operand
// types. Division by zero yields 0, as in DBToaster (which multiplies by
// 1/b, taken as 0 for b = 0); SQLite yields NULL there, which a view reports
// as 0 too.
func Div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// DivInt is dialect sql's INT / INT, truncated toward zero as SQLite and
// PostgreSQL divide; generated code only reads it where b is not 0 (x / 0
// is NULL there), and returns 0 for it rather than fail.
func DivInt(a, b int64) int64 {
	if b == 0 {
		return 0
	}
	if b == -1 {
		return -a // MinInt64 / -1 wraps, as the interpreter's checked arithmetic reports
	}
	return a / b
}

// ModInt is dialect sql's %, on operands truncated to integers (SQLite's
// rule): the remainder has the dividend's sign; 0 for b = 0, where the
// value is NULL and never read.
func ModInt(a, b int64) int64 {
	if b == 0 || b == -1 {
		return 0
	}
	return a % b
}
