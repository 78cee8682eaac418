package holistic_test

import (
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/holistic"
	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, holistic.New(), 1)
}

// sizes are the numbers of distinct prices (and volumes) of the one broker
// in the benchmarks: an event's cost may grow with their logarithm only.
var sizes = []int{100, 10_000, 1_000_000}

// filled returns an engine whose broker 1 holds n trades with distinct
// prices and volumes.
func filled(b *testing.B, n int) *holistic.Engine {
	e := holistic.New()
	for i := range int64(n) {
		p := i * 7919 % int64(n)
		if err := e.InsertTrades(1, runtime.Some(p), runtime.Some(float64(p))); err != nil {
			b.Fatal(err)
		}
	}
	if r, ok := e.Query1Get(1); !ok || r.Trades != int64(n) {
		b.Fatalf("QUERY1[1] = %v, %v", r, ok)
	}
	return e
}

// BenchmarkDeleteInsert deletes a trade and inserts it back: each moves
// one value in and out of the broker's and the global count indexes
// (range-sum and mode), O(log n).
func BenchmarkDeleteInsert(b *testing.B) {
	for _, n := range sizes {
		b.Run("values="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				p := i % int64(n)
				i += 7919
				e.DeleteTrades(1, runtime.Some(p), runtime.Some(float64(p)))
				e.InsertTrades(1, runtime.Some(p), runtime.Some(float64(p)))
			}
		})
	}
}

// BenchmarkRead reads the broker's row (a median, a percentile and a mode)
// and the global percentile: O(log n) each.
func BenchmarkRead(b *testing.B) {
	for _, n := range sizes {
		b.Run("values="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			var sum float64
			for b.Loop() {
				r, _ := e.Query1Get(1)
				q, _ := e.Query2Get()
				sum += r.MedianPrice.V + q.UpperQuartile.V
			}
			if sum <= 0 {
				b.Fatal("no median")
			}
		})
	}
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return holistic.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return holistic.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return holistic.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return holistic.New() })
}
