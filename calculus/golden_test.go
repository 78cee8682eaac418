package calculus_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/goldentest"
)

// The golden tests of the pipeline's stages share one txtar archive per query
// in ../viewlet/testdata/golden; see viewlet/golden_test.go for the layout.
// This test checks and, with -update, rewrites the calculus section: the
// String() of each translated query, concatenated.

var update = flag.Bool("update", false, "rewrite the calculus sections of ../viewlet/testdata/golden/*.txtar")

// goldenDir is where the shared golden archives live.
const goldenDir = "../viewlet/testdata/golden"

// TestGoldenCalculus translates each golden query and compares the text of
// the calculus.Query values with the archive's calculus section.
func TestGoldenCalculus(t *testing.T) {
	goldentest.ForEach(t, goldenDir, *update, func(t *testing.T, f *lang.File) map[string]string {
		qs, err := calculus.FromSQL(f)
		if err != nil {
			t.Fatalf("calculus.FromSQL: %v", err)
		}
		var b strings.Builder
		for _, q := range qs {
			b.WriteString(q.String())
		}
		return map[string]string{"calculus": b.String()}
	})
}
