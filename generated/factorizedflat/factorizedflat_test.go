package factorizedflat_test

import (
	"testing"

	"github.com/toastgen/toastgen/generated/factorizedflat"
	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, factorizedflat.New(), 1)
}

// BenchmarkTriggers measures the triggers on the example data and its inverse.
func BenchmarkTriggers(b *testing.B) {
	gentest.BenchTriggers(b, func() runtime.Engine { return factorizedflat.New() })
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return factorizedflat.New() }, 50)
}
