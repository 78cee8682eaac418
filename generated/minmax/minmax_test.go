package minmax_test

import (
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/minmax"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse (which deletes every extreme).
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, minmax.New(), 1)
}

// groupSizes are the numbers of distinct values of S.C in the group S.B = 0
// of the benchmarks below. Before ordered indexes, MIN and MAX scanned the
// group, so their cost grew linearly with it.
var groupSizes = []int{16, 256, 4096, 16384}

// filled returns an engine whose group S.B = 0 holds the values 0, 2, …,
// 2(n-1), and R one row (0, 0), which matches that group's minimum.
func filled(b *testing.B, n int) *minmax.Engine {
	e := minmax.New()
	for i := range n {
		e.InsertS(0, int64(2*i))
	}
	e.InsertS(1, 7)
	e.InsertR(0, 0)
	if r, ok := e.Query2Get(0); !ok || r.N != 1 {
		b.Fatalf("QUERY2[0] = %v, %v", r, ok)
	}
	return e
}

// BenchmarkViewRead reads the row of the group (its MIN, MAX and COUNT).
func BenchmarkViewRead(b *testing.B) {
	for _, n := range groupSizes {
		b.Run("group="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if r, ok := e.Query1Get(0); !ok || r.Lo != 0 || r.Hi != int64(2*(n-1)) {
					b.Fatalf("QUERY1[0] = %v, %v", r, ok)
				}
			}
		})
	}
}

// BenchmarkDeleteMin deletes the group's minimum, reads the row, and inserts
// the minimum back. Both S triggers also re-evaluate QUERY2 for the group,
// which reads its MIN.
func BenchmarkDeleteMin(b *testing.B) {
	for _, n := range groupSizes {
		b.Run("group="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			for b.Loop() {
				e.DeleteS(0, 0)
				if r, _ := e.Query1Get(0); r.Lo != 2 {
					b.Fatalf("QUERY1[0].LO = %d after deleting 0", r.Lo)
				}
				e.InsertS(0, 0)
			}
		})
	}
}

// BenchmarkNestedMin inserts and deletes an R tuple of the group: each
// trigger reads the MIN of the correlated subquery for it.
func BenchmarkNestedMin(b *testing.B) {
	for _, n := range groupSizes {
		b.Run("group="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			for b.Loop() {
				e.InsertR(0, 0)
				e.DeleteR(0, 0)
			}
		})
	}
}

// BenchmarkTriggers measures the triggers on the example data and its inverse.
func BenchmarkTriggers(b *testing.B) {
	gentest.BenchTriggers(b, func() runtime.Engine { return minmax.New() })
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return minmax.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return minmax.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return minmax.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return minmax.New() })
}
