package tpch3d1_test

import (
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch3d1"
)

// TestReplay checks the depth-1 package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, tpch3d1.New(), 10)
}
