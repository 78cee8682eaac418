package oracle

import (
	"database/sql/driver"
	"math"

	"modernc.org/sqlite"
)

// SQLite has no statistical aggregates: the oracle registers its own,
// computed from the final values by two passes (the mean, then the sum of
// squared deviations from it), independently of the engines' running
// sums. Each is NULL over fewer than two non-NULL values (one for the
// _POP forms), as in PostgreSQL.

// statAgg collects a group's non-NULL values.
type statAgg struct {
	pop, sqrt bool
	xs        []float64
}

func (a *statAgg) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	if f, ok := toFloat(args[0]); ok {
		a.xs = append(a.xs, f)
	}
	return nil
}

func (a *statAgg) WindowInverse(*sqlite.FunctionContext, []driver.Value) error { return nil }

func (a *statAgg) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	n := float64(len(a.xs))
	if n < 1 || (!a.pop && n < 2) {
		return nil, nil
	}
	mean := 0.0
	for _, x := range a.xs {
		mean += x
	}
	mean /= n
	ss := 0.0
	for _, x := range a.xs {
		ss += (x - mean) * (x - mean)
	}
	v := ss / n
	if !a.pop {
		v = ss / (n - 1)
	}
	if a.sqrt {
		v = math.Sqrt(v)
	}
	return v, nil
}

func (a *statAgg) Final(*sqlite.FunctionContext) {}

// registerStats registers VAR_POP, VAR_SAMP, VARIANCE, STDDEV_POP,
// STDDEV_SAMP and STDDEV.
func registerStats() error {
	for name, kind := range map[string][2]bool{
		"VAR_POP": {true, false}, "VAR_SAMP": {false, false}, "VARIANCE": {false, false},
		"STDDEV_POP": {true, true}, "STDDEV_SAMP": {false, true}, "STDDEV": {false, true},
	} {
		kind := kind
		err := sqlite.RegisterFunction(name, &sqlite.FunctionImpl{NArgs: 1, Deterministic: true,
			MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) {
				return &statAgg{pop: kind[0], sqrt: kind[1]}, nil
			}})
		if err != nil {
			return err
		}
	}
	return nil
}
