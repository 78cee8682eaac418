package tpch3_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch3"
	"github.com/toastgen/toastgen/generated/tpch3d1"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, tpch3.New(), 10)
}

// tpchDir names DBToaster's TPC-H data directory; see TestDBToasterData.
var tpchDir = flag.String("tpch", "", "`DIR` holding DBToaster's TPC-H data sets standard/ and standard_del/ (runs TestDBToasterData)")

// TestDBToasterData runs the package, the interpreter and SQLite in lockstep
// over DBToaster's larger TPC-H data sets: standard (inserts only) and
// standard_del (inserts and deletes, read with deletions := 'true'), then
// over their inverses. It is opt-in and slow (about a minute, mostly the
// interpreter):
//
//	go test -run DBToasterData ./generated/tpch3 -args -tpch /work/shared/data/dbtoaster/tpch
func TestDBToasterData(t *testing.T) {
	if *tpchDir == "" {
		t.Skip("no -tpch DIR")
	}
	f, p := gentest.Compile(t)
	for _, set := range []string{"standard", "standard_del"} {
		t.Run(set, func(t *testing.T) {
			dir := filepath.Join(*tpchDir, set)
			if _, err := os.Stat(dir); err != nil {
				t.Skip(err)
			}
			e := tpch3.New()
			gen, err := gentest.WithRelations(e, gentest.Relocate(e.Relations(), dir, set == "standard_del"))
			if err != nil {
				t.Fatal(err)
			}
			gentest.CheckEngines(t, f, p, gen, "", 500)
		})
	}
}

// BenchmarkTriggers measures the triggers on the example data and its inverse.
func BenchmarkTriggers(b *testing.B) {
	gentest.BenchTriggers(b, func() runtime.Engine { return tpch3.New() })
}

// BenchmarkTriggersDepth1 is BenchmarkTriggers for the same query compiled
// at depth 1 (first-order IVM, package tpch3d1), the baseline of the
// higher-order (unbounded) package.
func BenchmarkTriggersDepth1(b *testing.B) {
	gentest.BenchTriggers(b, func() runtime.Engine { return tpch3d1.New() })
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return tpch3.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return tpch3.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return tpch3.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return tpch3.New() })
}

// BenchmarkBatches applies the example stream and its inverse in batches
// of 1, 100 and 10,000 events, consolidated and in order.
func BenchmarkBatches(b *testing.B) {
	gentest.BenchBatches(b, func() runtime.Engine { return tpch3.New() }, []int{1, 100, 10000})
}

// BenchmarkPolicies applies 10 copies of the standard TPC-H data (keys
// shifted) and then their inverse to an engine holding 2 other copies, in
// batches of 1 to 100,000 events, under each maintenance policy.
func BenchmarkPolicies(b *testing.B) {
	rels := tpch3.New().Relations()
	evs := gentest.StandardTPCH(b, rels)
	base := gentest.ShiftedCopies(b, rels, evs, gentest.TPCHKeys, 0, 2)
	work := gentest.ShiftedCopies(b, rels, evs, gentest.TPCHKeys, 2, 10)
	gentest.BenchPolicies(b, func() runtime.Engine { return tpch3.New() }, base, work, []int{1, 10, 100, 1000, 10000, 100000})
}

// TestLazy reads the views of a lazy engine now and then against an eager one.
func TestLazy(t *testing.T) {
	gentest.CheckLazy(t, func() runtime.Engine { return tpch3.New() })
}
