package tpch6d1_test

import (
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch6d1"
)

// TestReplay checks the depth-1 package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, tpch6d1.New(), 10)
}
