package runtime

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestExactVariance keeps the limb sums of random multisets of integers
// under inserts and deletes, around 0 and around ±1e15 and ±MaxInt64/2
// (where float sums of squares cancel), and checks ExactVariance against
// the two-pass variance in rational arithmetic, bit for bit.
func TestExactVariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, center := range []int64{0, 1e15, -1e15, math.MaxInt64 / 2, math.MinInt64 / 2} {
		var live []int64
		var n, hi, lo int64
		var q [4]int64
		add := func(x, sign int64) {
			n += sign
			hi += sign * IntLimb(x, 1)
			lo += sign * IntLimb(x, 0)
			for k := range q {
				q[k] += sign * SquareLimb(x, int64(k))
			}
		}
		for step := range 1500 {
			if len(live) > 0 && rng.IntN(10) < 4 {
				i := rng.IntN(len(live))
				add(live[i], -1)
				live[i] = live[len(live)-1]
				live = live[:len(live)-1]
			} else {
				x := center + rng.Int64N(2001) - 1000
				if step%97 == 0 {
					x = rng.Int64() // a far value now and then
				}
				live = append(live, x)
				add(x, 1)
			}
			if step%5 != 0 && len(live) > 2 {
				continue
			}
			for sample := int64(0); sample <= 1; sample++ {
				got := ExactVariance(sample, n, hi, lo, q[0], q[1], q[2], q[3])
				want := twoPass(live, sample)
				if got != want {
					t.Fatalf("center %d, step %d, %d values, sample %d: %v, want %v", center, step, len(live), sample, got, want)
				}
			}
		}
	}
}

// twoPass is the variance of xs computed exactly: Σ(x − mean)² / (n − sample).
func twoPass(xs []int64, sample int64) float64 {
	n := int64(len(xs))
	if n < 1+sample {
		return 0
	}
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, new(big.Rat).SetInt64(x))
	}
	mean := sum.Quo(sum, new(big.Rat).SetInt64(n))
	m2 := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(new(big.Rat).SetInt64(x), mean)
		m2.Add(m2, d.Mul(d, d))
	}
	f, _ := m2.Quo(m2, new(big.Rat).SetInt64(n-sample)).Float64()
	return f
}

func TestSquareLimb(t *testing.T) {
	for _, x := range []int64{0, 1, -1, 1 << 32, -(1 << 40) + 3, math.MaxInt64, math.MinInt64} {
		want := new(big.Int).Mul(big.NewInt(x), big.NewInt(x))
		got := new(big.Int)
		for k := int64(3); k >= 0; k-- {
			got.Lsh(got, 32)
			got.Add(got, big.NewInt(SquareLimb(x, k)))
		}
		if got.Cmp(want) != 0 {
			t.Errorf("limbs of %d² = %v, want %v", x, got, want)
		}
		if IntLimb(x, 1)<<32+IntLimb(x, 0) != x {
			t.Errorf("limbs of %d", x)
		}
	}
}
