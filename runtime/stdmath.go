package runtime

import "math"

// This file holds DBToaster's numeric standard functions (its C++
// standard_functions library and Scala ddbt.lib.Functions): the arithmetic
// and trigonometric functions, the 3-D vector functions of the MDDB
// molecular-dynamics queries, and HASH. Every FLOAT-valued one takes float64
// arguments (the compiler converts INT arguments) and computes exactly what
// DBToaster's C++ code computes, in the same order of operations, so the
// same IEEE-754 rounding. Angles are in radians. None of them allocates.
//
// Like DBToaster's, they do not guard their domains: SQRT of a negative
// number, VECTOR_ANGLE of a zero vector or POW(-1, 0.5) give NaN, which then
// propagates into the aggregates it reaches (VECTOR_ANGLE clamps its cosine,
// see there). SQLite has no NaN (it becomes NULL), so the differential tests
// keep arguments inside the domains.

// Radians implements RADIANS(deg): deg·π/180.
func Radians(deg float64) float64 { return deg * math.Pi / 180 }

// Degrees implements DEGREES(rad): rad·180/π.
func Degrees(rad float64) float64 { return rad * 180 / math.Pi }

// Pow implements POW(base, exp): C's pow.
func Pow(base, exp float64) float64 { return math.Pow(base, exp) }

// Sqrt implements SQRT(x).
func Sqrt(x float64) float64 { return math.Sqrt(x) }

// Cos implements COS(rad).
func Cos(rad float64) float64 { return math.Cos(rad) }

// Sin implements SIN(rad).
func Sin(rad float64) float64 { return math.Sin(rad) }

// VecLength implements VEC_LENGTH(x, y, z): the Euclidean length
// sqrt(x²+y²+z²).
func VecLength(x, y, z float64) float64 {
	return math.Sqrt(float64(x*x) + float64(y*y) + float64(z*z))
}

// VecDot implements VEC_DOT(x1, y1, z1, x2, y2, z2): the dot product
// x1·x2 + y1·y2 + z1·z2.
func VecDot(x1, y1, z1, x2, y2, z2 float64) float64 {
	// The conversions round each product, forbidding fused multiply-adds, so
	// every platform computes the same value.
	return float64(x1*x2) + float64(y1*y2) + float64(z1*z2)
}

// vecCross is the cross product (x1,y1,z1)×(x2,y2,z2).
func vecCross(x1, y1, z1, x2, y2, z2 float64) (x, y, z float64) {
	return float64(y1*z2) - float64(z1*y2), float64(z1*x2) - float64(x1*z2), float64(x1*y2) - float64(y1*x2)
}

// VectorAngle implements VECTOR_ANGLE(x1, y1, z1, x2, y2, z2): the angle
// between the two vectors in radians, in [0, π]: acos(dot / (|v1|·|v2|)),
// DBToaster's formula, except that the cosine is clamped to [-1, 1] first:
// rounding can push it just past ±1 for (anti)parallel vectors (v·v /
// (|v|·|v|) with |v| = sqrt(3) is 1.0000000000000002), where DBToaster gets
// NaN, a value that would stay in every incrementally maintained sum it
// reaches even after the tuple is deleted; here it is 0 or π, the true angle.
// It is NaN when either vector is zero (0/0), as in DBToaster.
func VectorAngle(x1, y1, z1, x2, y2, z2 float64) float64 {
	c := VecDot(x1, y1, z1, x2, y2, z2) / float64(VecLength(x1, y1, z1)*VecLength(x2, y2, z2))
	return math.Acos(max(-1, min(1, c)))
}

// DihedralAngle implements DIHEDRAL_ANGLE(x1,y1,z1, x2,y2,z2, x3,y3,z3,
// x4,y4,z4): the signed torsion angle in radians, in [-π, π], of the four
// points p1..p4 about the axis p2→p3. With b1 = p2-p1, b2 = p3-p2,
// b3 = p4-p3, n1 = b1×b2 and n2 = b2×b3 it is
// atan2(|b2|·(b1·n2), n1·n2), DBToaster's formula.
func DihedralAngle(x1, y1, z1, x2, y2, z2, x3, y3, z3, x4, y4, z4 float64) float64 {
	v1x, v1y, v1z := x2-x1, y2-y1, z2-z1
	v2x, v2y, v2z := x3-x2, y3-y2, z3-z2
	v3x, v3y, v3z := x4-x3, y4-y3, z4-z3
	n1x, n1y, n1z := vecCross(v1x, v1y, v1z, v2x, v2y, v2z)
	n2x, n2y, n2z := vecCross(v2x, v2y, v2z, v3x, v3y, v3z)
	return math.Atan2(float64(VecLength(v2x, v2y, v2z)*VecDot(v1x, v1y, v1z, n2x, n2y, n2z)),
		VecDot(n1x, n1y, n1z, n2x, n2y, n2z))
}

// Hash implements HASH of an INT (or a DATE, by its yyyymmdd value): Thomas
// Wang's 64-bit integer mix (hash64shift: logical right shifts, wrapping
// arithmetic), the mix DBToaster's hash uses, returned as a signed INT.
// DBToaster leaves the value implementation-defined; here it is fixed across
// runs and platforms, so queries may rely on it being one fixed function
// (e.g. to group by or to compare), and the test oracle computes the same.
func Hash(v int64) int64 {
	h := uint64(v)
	h = ^h + (h << 21)
	h ^= h >> 24
	h = (h + (h << 3)) + (h << 8)
	h ^= h >> 14
	h = (h + (h << 2)) + (h << 4)
	h ^= h >> 28
	h += h << 31
	return int64(h)
}

// HashFloat implements HASH of a FLOAT: Hash of its IEEE-754 bits, with -0
// taken as +0 (they are equal, so they hash alike).
func HashFloat(f float64) int64 {
	if f == 0 {
		f = 0
	}
	return Hash(int64(math.Float64bits(f)))
}

// HashString implements HASH of a STRING: Hash of the 64-bit FNV-1a hash of
// its bytes.
func HashString(s string) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return Hash(int64(h))
}

// MathFunc describes a FLOAT-valued standard function of FLOAT arguments for
// the compiler, the interpreter and the test oracle.
type MathFunc struct {
	Arity  int                     // number of arguments
	GoName string                  // the function of this package that implements it
	Eval   func([]float64) float64 // a generic call (not for hot paths)
}

// MathFuncs are the FLOAT-valued standard functions by upper-case SQL name.
var MathFuncs = map[string]MathFunc{
	"RADIANS": {1, "Radians", func(a []float64) float64 { return Radians(a[0]) }},
	"DEGREES": {1, "Degrees", func(a []float64) float64 { return Degrees(a[0]) }},
	"POW":     {2, "Pow", func(a []float64) float64 { return Pow(a[0], a[1]) }},
	"SQRT":    {1, "Sqrt", func(a []float64) float64 { return Sqrt(a[0]) }},
	"COS":     {1, "Cos", func(a []float64) float64 { return Cos(a[0]) }},
	"SIN":     {1, "Sin", func(a []float64) float64 { return Sin(a[0]) }},
	"VEC_LENGTH": {3, "VecLength", func(a []float64) float64 {
		return VecLength(a[0], a[1], a[2])
	}},
	"VEC_DOT": {6, "VecDot", func(a []float64) float64 {
		return VecDot(a[0], a[1], a[2], a[3], a[4], a[5])
	}},
	"VECTOR_ANGLE": {6, "VectorAngle", func(a []float64) float64 {
		return VectorAngle(a[0], a[1], a[2], a[3], a[4], a[5])
	}},
	"DIHEDRAL_ANGLE": {12, "DihedralAngle", func(a []float64) float64 {
		return DihedralAngle(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11])
	}},
}
