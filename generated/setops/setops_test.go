package setops_test

import (
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/setops"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, setops.New(), 1)
}

// sizes are the numbers of distinct rows on each side in the benchmarks:
// an event's cost must not grow with them.
var sizes = []int{100, 10_000, 1_000_000}

// filled returns an engine whose R holds the rows (i, i) twice and S the
// rows (i, i) once, for i < n.
func filled(b *testing.B, n int) *setops.Engine {
	e := setops.New()
	for i := range int64(n) {
		e.InsertR(i, i)
		e.InsertR(i, i)
		e.InsertS(i, i)
	}
	if r, ok := e.Query3Get(0, 0); !ok || r.Count != 1 {
		b.Fatalf("QUERY3[0, 0] = %v, %v", r, ok)
	}
	return e
}

// BenchmarkDeleteInsertS deletes a row of S and inserts it back: the row
// leaves and re-enters INTERSECT ALL, EXCEPT and EXCEPT ALL (an insert on
// the right side deletes from EXCEPT).
func BenchmarkDeleteInsertS(b *testing.B) {
	for _, n := range sizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				k := i % int64(n)
				i += 7919
				e.DeleteS(k, k)
				e.InsertS(k, k)
			}
			if r, ok := e.Query1Get(0, 0); !ok || r.Count != 1 {
				b.Fatalf("QUERY1[0, 0] = %v, %v", r, ok)
			}
		})
	}
}

// BenchmarkInsertDeleteR inserts a third copy of a row into R and deletes it.
func BenchmarkInsertDeleteR(b *testing.B) {
	for _, n := range sizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				k := i % int64(n)
				i += 7919
				e.InsertR(k, k)
				e.DeleteR(k, k)
			}
		})
	}
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return setops.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return setops.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return setops.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return setops.New() })
}
