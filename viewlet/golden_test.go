package viewlet_test

import (
	"flag"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/goldentest"
	"github.com/toastgen/toastgen/viewlet"
)

// The golden tests of the pipeline's stages share one txtar archive per query
// in testdata/golden (this package's; calculus and codegen read it through
// ../viewlet/testdata/golden). An archive holds the query and the expected
// text of every stage:
//
//	-- query.sql --   the query file
//	-- calculus --    calculus.Query.String() of each query, concatenated
//	-- m3 --          Program.String() at unbounded depth
//	-- m3.depth1 --   Program.String() at depth 1
//	-- go --          codegen.Generate with Package "q" and Source "query.sql"
//
// Each stage's test checks and, with -update, rewrites only its own sections:
// here m3 and m3.depth1.

var update = flag.Bool("update", false, "rewrite the m3 and m3.depth1 sections of testdata/golden/*.txtar")

// goldenDir is where the shared golden archives live.
const goldenDir = "testdata/golden"

// TestGoldenM3 compiles each golden query at unbounded depth and at depth 1
// and compares the Programs' text forms with the m3 and m3.depth1 sections.
func TestGoldenM3(t *testing.T) {
	goldentest.ForEach(t, goldenDir, *update, func(t *testing.T, f *lang.File) map[string]string {
		qs, err := calculus.FromSQL(f)
		if err != nil {
			t.Fatalf("calculus.FromSQL: %v", err)
		}
		out := map[string]string{}
		for section, depth := range map[string]int{"m3": viewlet.Unbounded, "m3.depth1": 1} {
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
			if err != nil {
				t.Fatalf("viewlet.Compile(depth %d): %v", depth, err)
			}
			out[section] = p.String()
		}
		return out
	})
}
