package runtime

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// checkedCases are operands around the edges of int64.
var checkedCases = []int64{0, 1, -1, 2, -2, 3, 1 << 31, -(1 << 31), 1<<32 + 1, 3037000499, 3037000500, -3037000500,
	math.MaxInt64 / 2, math.MaxInt64/2 + 1, math.MinInt64 / 2, math.MaxInt64 - 1, math.MaxInt64, math.MinInt64 + 1, math.MinInt64}

func TestCheckedInt(t *testing.T) {
	fits := func(x *big.Int) bool { return x.IsInt64() }
	check := func(op string, a, b, got int64, over bool, exact *big.Int) {
		t.Helper()
		if over != !fits(exact) {
			t.Errorf("%s(%d, %d): overflow %v, exact %v", op, a, b, over, exact)
		}
		if wrapped := new(big.Int).And(exact, new(big.Int).SetUint64(math.MaxUint64)); uint64(got) != wrapped.Uint64() {
			t.Errorf("%s(%d, %d) = %d, want the wrapped %v", op, a, b, got, exact)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	ops := append([]int64{}, checkedCases...)
	for range 200 {
		ops = append(ops, int64(r.Uint64()), int64(r.Uint64()>>r.IntN(64)), -int64(r.Uint64()>>r.IntN(64)))
	}
	for _, a := range ops {
		for _, b := range ops {
			ba, bb := big.NewInt(a), big.NewInt(b)
			s, o := AddInt(a, b)
			check("AddInt", a, b, s, o, new(big.Int).Add(ba, bb))
			d, o := SubInt(a, b)
			check("SubInt", a, b, d, o, new(big.Int).Sub(ba, bb))
			p, o := MulInt(a, b)
			check("MulInt", a, b, p, o, new(big.Int).Mul(ba, bb))
		}
	}
}

func TestOverflowError(t *testing.T) {
	err := OverflowError("R", true, int64(4611686018427387904), 2.5, "a b", Date(20240131))
	want := `integer overflow in an INT SUM, COUNT or product: insert into R (4611686018427387904, 2.5, "a b", 2024-01-31) rejected`
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if !errors.Is(err, ErrOverflow) {
		t.Error("the error is not ErrOverflow")
	}
	if got := OverflowError("S", false).Error(); got != "integer overflow in an INT SUM, COUNT or product: delete from S () rejected" {
		t.Errorf("got %s", got)
	}
	// Nullable columns' values: the value, or NULL.
	got := OverflowError("T", true, Some(int64(7)), Null[string]{}, Some("x")).Error()
	if want := `integer overflow in an INT SUM, COUNT or product: insert into T (7, NULL, "x") rejected`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFloatSum(t *testing.T) {
	var s FloatSum
	for _, x := range []float64{0.1, 1e16, -1e16} {
		s.Add(x)
	}
	if s.Value() != 0.1 {
		t.Errorf("0.1 + 1e16 - 1e16 = %v, want 0.1", s.Value())
	}
	var plain float64
	for _, x := range []float64{0.1, 1e16, -1e16} {
		plain += x
	}
	if plain == 0.1 {
		t.Log("plain addition is exact here too: the case shows nothing")
	}
	// A stream of two-decimal prices (times a discount) inserted and
	// deleted in random order returns to exactly 0.
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		var sum FloatSum
		var live []float64
		for range 1000 {
			if len(live) > 0 && r.IntN(10) < 4 {
				i := r.IntN(len(live))
				sum.Add(-live[i])
				live[i] = live[len(live)-1]
				live = live[:len(live)-1]
				continue
			}
			x := float64(r.IntN(100000)) / 100 * (1 - float64(r.IntN(10))/100)
			live = append(live, x)
			sum.Add(x)
		}
		for _, x := range live {
			sum.Add(-x)
		}
		if sum.Value() != 0 {
			t.Fatalf("trial %d: %v after deleting everything, want 0", trial, sum.Value())
		}
	}
	// Infinities and NaN read as plain addition gives.
	var inf FloatSum
	inf.Add(1)
	inf.Add(math.Inf(1))
	if v := inf.Value(); !math.IsInf(v, 1) {
		t.Errorf("1 + Inf = %v", v)
	}
	inf.Add(-1e308)
	if v := inf.Value(); !math.IsInf(v, 1) {
		t.Errorf("Inf - 1e308 = %v", v)
	}
	var big FloatSum
	big.Add(math.MaxFloat64)
	big.Add(math.MaxFloat64)
	if v := big.Value(); !math.IsInf(v, 1) {
		t.Errorf("MaxFloat64 + MaxFloat64 = %v", v)
	}
}

func TestFloatSumAllocs(t *testing.T) {
	var s FloatSum
	if n := testing.AllocsPerRun(100, func() { s.Add(0.1); _ = s.Value() }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func TestFloatSumIsZero(t *testing.T) {
	for _, xs := range [][]float64{{}, {0.1, -0.1}, {0.1, 1e16, -1e16, -0.1}, {1}, {math.Inf(1)}, {math.Inf(1), math.Inf(-1)}, {1e-300, -1e-300}} {
		var s FloatSum
		for _, x := range xs {
			s.Add(x)
		}
		if s.IsZero() != (s.Value() == 0) {
			t.Errorf("%v: IsZero %v, Value %v", xs, s.IsZero(), s.Value())
		}
	}
}
