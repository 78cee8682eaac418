package runtime

import (
	"math"
	"math/bits"
)

// This file is a port of SQLite's floating-point conversions (SQLite 3.54,
// the version of the modernc.org/sqlite the oracle runs): the decimal
// decoding of a double (sqlite3FpDecode, sqlite3Fp2Convert10), the
// decimal-to-double conversion (sqlite3AtoF, sqlite3Fp10Convert2) and the
// two printf renderings SQLite applies to REALs, "%!.*f" (ROUND) and
// "%!.17g" (a REAL as TEXT: CAST, ||, length). The port follows SQLite's
// code step by step, approximations included (its 18-digit decoding reads
// a 96-bit power of ten), so that ROUND and the text of a REAL agree with
// SQLite bit for bit, which Go's strconv (exactly rounded, and rounding
// half to even) would not: SQLite rounds a decimal digit string half away
// from zero, so ROUND(0.125, 2) is 0.13 there and 0.12 with strconv.
// Nothing here allocates; the renderings write into caller buffers.

// fpDecoded is sqlite3FpDecode's FpDecode: the significant digits of a
// double, z[:n], and the position iDP of the decimal point before z[0]
// (the value is 0.z × 10^iDP).
type fpDecoded struct {
	neg     bool
	special int8 // 0, 1 for ±Inf, 2 for NaN
	n, iDP  int
	z       int // z[0] is buf[z]
	buf     [sqliteU64Digits + 1]byte
}

const sqliteU64Digits = 20

// aBase, aScale and aScaleLo are SQLite's tables of powers of ten: aBase[i]
// is 10^i normalized to 64 bits, aScale[i] (with 32 more bits in
// aScaleLo[i]) is 10^(27·(i−13)) normalized.
var aBase = [27]uint64{
	0x8000000000000000, 0xa000000000000000, 0xc800000000000000, 0xfa00000000000000,
	0x9c40000000000000, 0xc350000000000000, 0xf424000000000000, 0x9896800000000000,
	0xbebc200000000000, 0xee6b280000000000, 0x9502f90000000000, 0xba43b74000000000,
	0xe8d4a51000000000, 0x9184e72a00000000, 0xb5e620f480000000, 0xe35fa931a0000000,
	0x8e1bc9bf04000000, 0xb1a2bc2ec5000000, 0xde0b6b3a76400000, 0x8ac7230489e80000,
	0xad78ebc5ac620000, 0xd8d726b7177a8000, 0x878678326eac9000, 0xa968163f0a57b400,
	0xd3c21bcecceda100, 0x84595161401484a0, 0xa56fa5b99019a5c8,
}

var aScale = [26]uint64{
	0x8049a4ac0c5811ae, 0xcf42894a5dce35ea, 0xa76c582338ed2621, 0x873e4f75e2224e68,
	0xda7f5bf590966848, 0xb080392cc4349dec, 0x8e938662882af53e, 0xe65829b3046b0afa,
	0xba121a4650e4ddeb, 0x964e858c91ba2655, 0xf2d56790ab41c2a2, 0xc428d05aa4751e4c,
	0x9e74d1b791e07e48, 0xcccccccccccccccc, 0xcecb8f27f4200f3a, 0xa70c3c40a64e6c51,
	0x86f0ac99b4e8dafd, 0xda01ee641a708de9, 0xb01ae745b101e9e4, 0x8e41ade9fbebc27d,
	0xe5d3ef282a242e81, 0xb9a74a0637ce2ee1, 0x95f83d0a1fb69cd9, 0xf24a01a73cf2dccf,
	0xc3b8358109e84f07, 0x9e19db92b4e31ba9,
}

var aScaleLo = [26]uint32{
	0x205b896d, 0x52064cad, 0xaf2af2b8, 0x5a7744a7, 0xaf39a475, 0xbd8d794e, 0x547eb47b,
	0x0cb4a5a3, 0x92f34d62, 0x3a6a07f9, 0xfae27299, 0xaa97e14c, 0x775ea265, 0xcccccccc,
	0, 0x999090b6, 0x69a028bb, 0xe80e6f48, 0x5ec05dd0, 0x14588f14, 0x8f1668c9, 0x6d953e2c,
	0x4abdaf10, 0xbc633b39, 0x0a862f81, 0x6c07a2c2,
}

// countLeadingZeros is SQLite's: 63 (not 64) for 0.
func countLeadingZeros(m uint64) int {
	if m == 0 {
		return 63
	}
	return bits.LeadingZeros64(m)
}

// multiply160 is sqlite3Multiply160: the high 96 bits of the 96-bit a:aLo
// times b, returned as 64 bits and lo (32 more bits), with SQLite's
// truncations.
func multiply160(a uint64, aLo uint32, b uint64) (uint64, uint32) {
	x2, x1, x0 := a>>32, a&0xffffffff, uint64(aLo)
	y1, y0 := b>>32, b&0xffffffff
	x2y1 := x2 * y1
	r4 := x2y1 >> 32
	x2y0 := x2 * y0
	x1y1 := x1 * y1
	r3 := x2y1&0xffffffff + x2y0>>32 + x1y1>>32
	x1y0 := x1 * y0
	x0y1 := x0 * y1
	r2 := x2y0&0xffffffff + x1y1&0xffffffff + x1y0>>32 + x0y1>>32
	x0y0 := x0 * y0
	r1 := x1y0&0xffffffff + x0y1&0xffffffff + x0y0>>32
	r2 += r1 >> 32
	r3 += r2 >> 32
	return r4<<32 + r3, uint32(r2 & 0xffffffff)
}

// powerOfTen returns 10^p normalized to 96 bits (hi, lo), p in [-348, 347].
func powerOfTen(p int) (uint64, uint32) {
	var g, n int
	switch {
	case p < 0:
		if p == -1 {
			return aScale[13], aScaleLo[13]
		}
		g, n = p/27, p%27
		if n != 0 {
			g--
			n += 27
		}
	case p < 27:
		return aBase[p], 0
	default:
		g, n = p/27, p%27
	}
	s := aScale[g+13]
	if n == 0 {
		return s, aScaleLo[g+13]
	}
	x, lo := multiply160(s, aScaleLo[g+13], aBase[n])
	if x&(1<<63) == 0 {
		x = x<<1 | uint64(lo>>31&1)
		lo = lo<<1 | 1
	}
	return x, lo
}

func pwr2to10(p int) int { return int(int32(p) * 78913 >> 18) }
func pwr10to2(p int) int { return int(int32(p) * 108853 >> 15) }

// fp2Convert10 is sqlite3Fp2Convert10: for r = m·2^e (m normalized), d and
// p with r ≈ d·10^p, d holding at least n significant digits.
func fp2Convert10(m uint64, e, n int) (uint64, int) {
	p := n - 1 - pwr2to10(e+63)
	pw, _ := powerOfTen(p)
	h, _ := bits.Mul64(m, pw)
	var d uint64
	if n == 18 {
		h >>= uint(-(e + pwr10to2(p) + 2))
		d = (h + h<<1&2) >> 1
	} else {
		d = h >> uint(-(e + pwr10to2(p) + 1))
	}
	return d, -p
}

// fp10Convert2 is sqlite3Fp10Convert2: the double nearest d·10^p.
func fp10Convert2(d uint64, p int) float64 {
	if p < -348 {
		return 0
	}
	if p > 347 {
		return math.Inf(1)
	}
	b := 64 - countLeadingZeros(d)
	lp := pwr10to2(p)
	e := 53 - b - lp
	if e > 1074 {
		if e >= 1130 {
			return 0
		}
		e = 1074
	}
	s := -(e - (64 - b) + lp + 3)
	pwr10h, pwr10l := powerOfTen(p)
	if pwr10l != 0 {
		pwr10h++
		pwr10l = ^pwr10l
	}
	x := d << uint(64-b)
	hi, lo := bits.Mul64(x, pwr10h)
	mid1 := uint32(lo >> 32)
	sticky := uint64(1)
	if hi&(uint64(1)<<uint(s)-1) == 0 {
		h2, _ := bits.Mul64(x, uint64(pwr10l)<<32)
		mid2 := uint32(h2 >> 32)
		sticky = b2u(mid1-mid2 > 1)
		hi -= b2u(mid1 < mid2)
	}
	u := hi>>uint(s) | sticky
	if u >= 1<<55-2 {
		u = u>>1 | u&1
		e--
	}
	m := (u + 1 + u>>2&1) >> 2
	if e <= -972 {
		return math.Inf(1)
	}
	if m&(1<<52) != 0 {
		m = m&^(1<<52) | uint64(1075-e)<<52
	}
	return math.Float64frombits(m)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// fpDecode is sqlite3FpDecode: iRound ≤ 0 rounds to −iRound digits after
// the decimal point, iRound > 0 to min(iRound, mxRound) significant digits,
// half away from zero on the decimal digits.
func fpDecode(p *fpDecoded, r float64, iRound, mxRound int) {
	p.special = 0
	p.neg = false
	if r < 0 {
		p.neg = true
		r = -r
	} else if r == 0 {
		p.n, p.iDP, p.z = 1, 1, 0
		p.buf[0] = '0'
		return
	}
	v := math.Float64bits(r)
	e := int(v >> 52 & 0x7ff)
	if e == 0x7ff {
		p.special = 1
		if v != 0x7ff0000000000000 {
			p.special = 2
		}
		p.n, p.iDP = 0, 0
		return
	}
	v &= 0x000fffffffffffff
	if e == 0 {
		nn := countLeadingZeros(v)
		v <<= uint(nn)
		e = -1074 - nn
	} else {
		v = v<<11 | 1<<63
		e -= 1086
	}
	digits := 18
	if iRound > 0 && iRound < 18 {
		digits = iRound + 1
	}
	v, exp := fp2Convert10(v, e, digits)
	i := sqliteU64Digits
	for v >= 10 {
		kk := v % 100
		p.buf[i-2] = byte('0' + kk/10)
		p.buf[i-1] = byte('0' + kk%10)
		i -= 2
		v /= 100
	}
	if v != 0 {
		i--
		p.buf[i] = byte('0' + v)
	}
	n := sqliteU64Digits - i
	p.iDP = n + exp
	if iRound <= 0 {
		iRound = p.iDP - iRound
		if iRound == 0 && p.buf[i] >= '5' {
			iRound = 1
			i--
			p.buf[i] = '0'
			n++
			p.iDP++
		}
	}
	z := i
	if iRound > 0 && (iRound < n || n > mxRound) {
		if iRound > mxRound {
			iRound = mxRound
		}
		if iRound == 17 {
			// SQLite's "%!.17g": fewer digits when they round-trip.
			if p.buf[z+15] == '9' && p.buf[z+14] == '9' {
				jj := 14
				for jj > 0 && p.buf[z+jj-1] == '9' {
					jj--
				}
				var v2 uint64
				if jj == 0 {
					v2 = 1
				} else {
					v2 = uint64(p.buf[z] - '0')
					for kk := 1; kk < jj; kk++ {
						v2 = v2*10 + uint64(p.buf[z+kk]-'0')
					}
					v2++
				}
				if r == fp10Convert2(v2, exp+n-jj) {
					iRound = jj + 1
				}
			} else if p.iDP >= n || (p.buf[z+15] == '0' && p.buf[z+14] == '0' && p.buf[z+13] == '0') {
				jj := 13
				for p.buf[z+jj-1] == '0' {
					jj--
				}
				v2 := uint64(p.buf[z] - '0')
				for kk := 1; kk < jj; kk++ {
					v2 = v2*10 + uint64(p.buf[z+kk]-'0')
				}
				if r == fp10Convert2(v2, exp+n-jj) {
					iRound = jj + 1
				}
			}
		}
		n = iRound
		if p.buf[z+iRound] >= '5' {
			for j := iRound - 1; ; j-- {
				p.buf[z+j]++
				if p.buf[z+j] <= '9' {
					break
				}
				p.buf[z+j] = '0'
				if j == 0 {
					z--
					p.buf[z] = '1'
					n++
					p.iDP++
					break
				}
			}
		}
	}
	for p.buf[z+n-1] == '0' {
		n--
	}
	p.n, p.z = n, z
}

// appendSQLiteFloat renders r as SQLite's printf "%!.<prec>f" (generic
// false) or "%!.<prec>g" (generic true) does.
func appendSQLiteFloat(b []byte, r float64, prec int, generic bool) []byte {
	const (
		etFloat = iota
		etExp
	)
	xtype := etFloat
	var iRound int
	if generic {
		if prec == 0 {
			prec = 1
		}
		iRound = prec
	} else {
		iRound = -prec
	}
	var s fpDecoded
	fpDecode(&s, r, iRound, 20)
	if s.special == 2 {
		return append(b, "NaN"...)
	}
	if s.special == 1 {
		if s.neg {
			return append(b, "-Inf"...)
		}
		return append(b, "Inf"...)
	}
	exp := s.iDP - 1
	if generic {
		prec--
		if exp < -4 || exp > prec {
			xtype = etExp
		} else {
			prec -= exp
		}
	}
	e2 := s.iDP - 1
	if xtype == etExp {
		e2 = 0
	}
	if s.neg {
		b = append(b, '-')
	}
	j := 0
	if e2 < 0 {
		b = append(b, '0')
	} else {
		j = min(e2+1, s.n)
		b = append(b, s.buf[s.z:s.z+j]...)
		e2 -= j
		for ; e2 >= 0; e2-- {
			b = append(b, '0')
		}
	}
	b = append(b, '.')
	if e2 < -1 && prec > 0 {
		nn := min(-1-e2, prec)
		for k := 0; k < nn; k++ {
			b = append(b, '0')
		}
		prec -= nn
	}
	if prec > 0 {
		if nn := min(s.n-j, prec); nn > 0 {
			b = append(b, s.buf[s.z+j:s.z+j+nn]...)
		}
	}
	// Both forms drop trailing zeros ("!" for %f, no "#" for %g), and keep
	// one digit after the point ("!").
	for b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	if b[len(b)-1] == '.' {
		b = append(b, '0')
	}
	if xtype == etExp {
		exp = s.iDP - 1
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp >= 100 {
			b = append(b, byte('0'+exp/100))
			exp %= 100
		}
		b = append(b, byte('0'+exp/10), byte('0'+exp%10))
	}
	return b
}

func isSQLiteSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }

// atoF is sqlite3AtoF: the value of the longest prefix of s that is a
// number (after leading spaces), 0 if there is none. It reads s as SQLite
// reads a NUL-terminated string: it stops at a NUL byte.
func atoF[T string | []byte](s T) float64 {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	const limit = (1<<64 - 1 - 9) / 10
	z := 0
	neg := false
	var m uint64 // mantissa
	d := 0       // the value is m·10^d
	mState := 0
	for isSQLiteSpace(at(z)) {
		z++
	}
	switch at(z) {
	case '-':
		neg = true
		z++
	case '+':
		z++
	}
	if isDigit(at(z)) {
		mState = 1
		m = uint64(at(z) - '0')
		z++
		for isDigit(at(z)) {
			m = m*10 + uint64(at(z)-'0')
			z++
			if m >= limit {
				for isDigit(at(z)) {
					z++
					d++
				}
				break
			}
		}
	}
	if at(z) == '.' {
		z++
		if isDigit(at(z)) {
			mState = 1
			for ; isDigit(at(z)); z++ {
				if m < limit {
					m = m*10 + uint64(at(z)-'0')
					d--
				}
			}
		} else if mState == 0 {
			return 0
		}
	} else if mState == 0 {
		return 0
	}
	if c := at(z); c == 'e' || c == 'E' {
		z++
		esign := 1
		switch at(z) {
		case '-':
			esign = -1
			z++
		case '+':
			z++
		}
		if isDigit(at(z)) {
			exp := 0
			for ; isDigit(at(z)); z++ {
				if exp < 10000 {
					exp = exp*10 + int(at(z)-'0')
				} else {
					exp = 10000
				}
			}
			d += esign * exp
		}
	}
	var r float64
	if m != 0 {
		r = fp10Convert2(m, d)
	}
	if neg {
		r = -r
	}
	return r
}
