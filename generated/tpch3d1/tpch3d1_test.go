package tpch3d1_test

import (
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch3d1"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the depth-1 package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, tpch3d1.New(), 10)
}

// BenchmarkPolicies applies 10 copies of the standard TPC-H data (keys
// shifted) and then their inverse to an engine holding 2 other copies, in
// batches of 1 to 100,000 events, under each maintenance policy.
func BenchmarkPolicies(b *testing.B) {
	rels := tpch3d1.New().Relations()
	evs := gentest.StandardTPCH(b, rels)
	base := gentest.ShiftedCopies(b, rels, evs, gentest.TPCHKeys, 0, 2)
	work := gentest.ShiftedCopies(b, rels, evs, gentest.TPCHKeys, 2, 10)
	gentest.BenchPolicies(b, func() runtime.Engine { return tpch3d1.New() }, base, work, []int{1, 10, 100, 1000, 10000, 100000})
}
