package runtime

import (
	"math/big"
	"math/bits"
)

// Exact variance of INT values. VAR_POP and VAR_SAMP of integers are kept
// exact from integer sums: the count n, Σx as two limb sums (IntLimb) and
// Σx² as four (SquareLimb), each an INT map, so that every event adds
// values below 2^32 and no sum leaves int64 before 2^31 values; the
// view reads (n·Σx² − (Σx)²) / (n·(n − 1)) (or / n²) in exact integer
// arithmetic, rounded once to float64 (ExactVariance).

// limb is 2^32 − 1, the mask of a 32-bit limb.
const limb = 1<<32 - 1

// IntLimb returns limb k of x: for k = 0 its low 32 bits, in [0, 2^32),
// for k = 1 the rest, x >> 32, so that x = IntLimb(x, 1)·2^32 +
// IntLimb(x, 0).
func IntLimb(x, k int64) int64 {
	if k == 0 {
		return x & limb
	}
	return x >> 32
}

// SquareLimb returns limb k (0 to 3) of x², a number below 2^126 written
// in four 32-bit limbs: x² = Σ SquareLimb(x, k)·2^(32k), each in [0, 2^32).
func SquareLimb(x, k int64) int64 {
	u := uint64(x)
	if x < 0 {
		u = -u // |x|, MinInt64 included (2^63)
	}
	hi, lo := bits.Mul64(u, u)
	w := lo
	if k >= 2 {
		w = hi
	}
	if k%2 == 1 {
		w >>= 32
	}
	return int64(w & limb)
}

// ExactVariance returns the variance of n integers from their limb sums
// (IntLimb, SquareLimb): with sample = 1 the sample variance, (n·S2 −
// S1²) / (n·(n − 1)), with sample = 0 the population variance, (n·S2 −
// S1²) / n², S1 = Σx and S2 = Σx², computed exactly and rounded once to
// the nearest float64. It returns 0 for fewer than 1 + sample values. It
// allocates: it runs when a view is read, not per event.
func ExactVariance(sample, n, s1hi, s1lo, q0, q1, q2, q3 int64) float64 {
	if n < 1+sample {
		return 0
	}
	s1 := new(big.Int).Lsh(big.NewInt(s1hi), 32)
	s1.Add(s1, big.NewInt(s1lo))
	s2 := new(big.Int)
	for _, q := range []int64{q3, q2, q1, q0} {
		s2.Lsh(s2, 32)
		s2.Add(s2, big.NewInt(q))
	}
	num := s2.Mul(s2, big.NewInt(n))
	num.Sub(num, s1.Mul(s1, s1))
	den := new(big.Int).Mul(big.NewInt(n), big.NewInt(n-sample))
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}
