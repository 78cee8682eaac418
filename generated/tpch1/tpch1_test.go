package tpch1_test

import (
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch1"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, tpch1.New(), 10)
}

// BenchmarkTriggers measures the triggers on the example data and its inverse.
func BenchmarkTriggers(b *testing.B) {
	gentest.BenchTriggers(b, func() runtime.Engine { return tpch1.New() })
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return tpch1.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return tpch1.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return tpch1.New() })
}

// BenchmarkBatches applies the example stream and its inverse in batches
// of 1, 100 and 10,000 events, consolidated and in order.
func BenchmarkBatches(b *testing.B) {
	gentest.BenchBatches(b, func() runtime.Engine { return tpch1.New() }, []int{1, 100, 10000})
}

// BenchmarkPolicies applies 10 copies of the standard TPC-H data (keys
// shifted) and then their inverse to an engine holding 2 other copies, in
// batches of 1 to 100,000 events, under each maintenance policy.
func BenchmarkPolicies(b *testing.B) {
	rels := tpch1.New().Relations()
	evs := gentest.StandardTPCH(b, rels)
	base := gentest.ShiftedCopies(b, rels, evs, gentest.TPCHKeys, 0, 2)
	work := gentest.ShiftedCopies(b, rels, evs, gentest.TPCHKeys, 2, 10)
	gentest.BenchPolicies(b, func() runtime.Engine { return tpch1.New() }, base, work, []int{1, 10, 100, 1000, 10000, 100000})
}

// TestLazy reads the views of a lazy engine now and then against an eager one.
func TestLazy(t *testing.T) {
	gentest.CheckLazy(t, func() runtime.Engine { return tpch1.New() })
}
