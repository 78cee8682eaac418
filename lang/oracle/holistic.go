package oracle

import (
	"cmp"
	"database/sql/driver"
	"math"
	"slices"

	"modernc.org/sqlite"
)

// The oracle's ordered-set aggregates, TOAST_PERCENTILE_CONT(x, p, desc),
// TOAST_PERCENTILE_DISC(x, p, desc) and TOAST_MODE(x, p, desc) (p unused),
// which the SQL printer calls for PERCENTILE_CONT, PERCENTILE_DISC, MEDIAN
// and MODE: they sort a group's non-NULL values and read the answer by the
// definitions (as PostgreSQL computes them), independently of the engines'
// rank arithmetic. Values of one column have one type: INTEGER, REAL or
// TEXT.

type holisticAgg struct {
	fn   string
	p    float64
	desc bool
	xs   []driver.Value
}

func (a *holisticAgg) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	if args[0] == nil {
		return nil
	}
	a.xs = append(a.xs, args[0])
	a.p, _ = toFloat(args[1])
	d, _ := toFloat(args[2])
	a.desc = d != 0
	return nil
}

func (a *holisticAgg) WindowInverse(*sqlite.FunctionContext, []driver.Value) error { return nil }

func (a *holisticAgg) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	n := len(a.xs)
	if n == 0 {
		return nil, nil
	}
	xs := slices.Clone(a.xs)
	slices.SortStableFunc(xs, compareValues)
	if a.desc {
		slices.Reverse(xs)
	}
	switch a.fn {
	case "PERCENTILE_CONT":
		rn := a.p * float64(n-1)
		lo, hi := math.Floor(rn), math.Ceil(rn)
		x, _ := toFloat(xs[int(lo)])
		y, _ := toFloat(xs[int(hi)])
		if lo == hi {
			return x, nil
		}
		return x + (rn-lo)*(y-x), nil
	case "PERCENTILE_DISC":
		// The first value whose cumulative share of the values reaches p.
		for i, x := range xs {
			if float64(i+1) >= a.p*float64(n) {
				return x, nil
			}
		}
		return xs[n-1], nil
	}
	// MODE: the most frequent value, the first in the order among ties.
	best, bestN := xs[0], 0
	for i := 0; i < n; {
		j := i
		for j < n && compareValues(xs[j], xs[i]) == 0 {
			j++
		}
		if j-i > bestN {
			best, bestN = xs[i], j-i
		}
		i = j
	}
	return best, nil
}

func (a *holisticAgg) Final(*sqlite.FunctionContext) {}

// compareValues orders two non-NULL values of one column.
func compareValues(x, y driver.Value) int {
	switch a := x.(type) {
	case string:
		if b, ok := y.(string); ok {
			return cmp.Compare(a, b)
		}
	case []byte:
		if b, ok := y.([]byte); ok {
			return cmp.Compare(string(a), string(b))
		}
	case int64:
		if b, ok := y.(int64); ok {
			return cmp.Compare(a, b)
		}
	}
	fx, _ := toFloat(x)
	fy, _ := toFloat(y)
	return cmp.Compare(fx, fy)
}

// registerHolistic registers TOAST_PERCENTILE_CONT, TOAST_PERCENTILE_DISC
// and TOAST_MODE.
func registerHolistic() error {
	for _, fn := range []string{"PERCENTILE_CONT", "PERCENTILE_DISC", "MODE"} {
		err := sqlite.RegisterFunction("TOAST_"+fn, &sqlite.FunctionImpl{NArgs: 3, Deterministic: true,
			MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) {
				return &holisticAgg{fn: fn}, nil
			}})
		if err != nil {
			return err
		}
	}
	return nil
}
