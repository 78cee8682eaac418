package window_test

import (
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/window"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, window.New(), 1)
}

// sizes are the numbers of rows of the one partition in the benchmarks:
// an event's cost must not grow with them (but for MAX's O(log n)).
var sizes = []int{100, 10_000, 1_000_000}

// filled returns an engine whose partition A = 1 holds n distinct rows.
func filled(b *testing.B, n int) *window.Engine {
	e := window.New()
	for i := range int64(n) {
		if err := e.InsertR(1, i); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// BenchmarkDeleteInsert deletes a row of the partition and inserts it back:
// each event updates the partition's windows (and the row's count), not the
// partition's other rows.
func BenchmarkDeleteInsert(b *testing.B) {
	for _, n := range sizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				k := i % int64(n)
				i += 7919
				e.DeleteR(1, k)
				e.InsertR(1, k)
			}
			if r, ok := e.Query1Get(1, 0); !ok || r.RowsInR != int64(n) || r.Top != int64(n-1) {
				b.Fatalf("QUERY1[1, 0] = %+v, %v", r, ok)
			}
		})
	}
}

// BenchmarkGet reads one row with its windows.
func BenchmarkGet(b *testing.B) {
	for _, n := range sizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			var sum int64
			i := int64(0)
			for b.Loop() {
				r, _ := e.Query1Get(1, i%int64(n))
				sum += r.Total
				i++
			}
			if sum == 0 {
				b.Fatal("no total")
			}
		})
	}
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return window.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return window.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return window.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return window.New() })
}
