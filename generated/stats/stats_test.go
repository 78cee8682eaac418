package stats_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/stats"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, stats.New(), 1)
}

// TestExact checks that values near 10^15 with a small spread give their
// exact variance, where float sums of squares would cancel.
func TestExact(t *testing.T) {
	e := stats.New()
	for _, b := range []int64{1e15 + 1, 1e15 + 2, 1e15 + 3, 1e15 + 4} {
		e.InsertR(7, b)
	}
	e.InsertR(7, 5)
	e.DeleteR(7, 5)
	r, ok := e.SpreadGet(7)
	if !ok || r.Variance != 5.0/3 || r.VariancePop != 1.25 || r.Deviation != math.Sqrt(5.0/3) || r.N != 4 {
		t.Fatalf("Spread[7] = %+v, %v", r, ok)
	}
}

// sizes are the numbers of groups in the benchmarks: an event costs O(1).
var sizes = []int{100, 10_000, 1_000_000}

// BenchmarkInsertDelete inserts a value into a group and deletes it.
func BenchmarkInsertDelete(b *testing.B) {
	for _, n := range sizes {
		b.Run("groups="+strconv.Itoa(n), func(b *testing.B) {
			e := stats.New()
			for i := range int64(n) {
				e.InsertR(i, i)
				e.InsertR(i, 2*i)
			}
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				a := i % int64(n)
				i += 7919
				e.InsertR(a, 1e12+a)
				e.DeleteR(a, 1e12+a)
			}
			if r, ok := e.SpreadGet(3); !ok || r.Variance != 4.5 {
				b.Fatalf("Spread[3] = %+v, %v", r, ok)
			}
		})
	}
}

// BenchmarkGet reads a group's row: three exact variances (allocating)
// and a float one.
func BenchmarkGet(b *testing.B) {
	e := stats.New()
	for i := range int64(1000) {
		e.InsertR(i, i)
		e.InsertR(i, 3*i)
	}
	b.ReportAllocs()
	var sum float64
	i := int64(0)
	for b.Loop() {
		r, _ := e.SpreadGet(i % 1000)
		sum += r.Deviation
		i++
	}
	if sum == 0 {
		b.Fatal("no deviation")
	}
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return stats.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return stats.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return stats.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return stats.New() })
}
