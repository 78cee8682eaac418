package viewlet_test

import (
	"fmt"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/internal/numtest"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// TestNumbers runs the number-rule cases (package numtest) through the
// interpreter at every depth: an integer overflow rejects its event and
// leaves the views as they were; float sums come back exactly. The
// generated code runs the same cases in codegen's TestDiffGenerated,
// which also requires its output to equal the interpreter's.
func TestNumbers(t *testing.T) {
	for _, c := range numtest.Cases() {
		for _, depth := range []int{viewlet.Unbounded, 1, 0} {
			t.Run(fmt.Sprintf("%s/depth%d", c.Name, depth), func(t *testing.T) {
				lines := numtest.Replay(viewlet.NewInterp(compileNum(t, c, depth)), c.Events)
				if err := c.Check(lines); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
	for _, c := range numtest.Cases() {
		if c.Name == "numfloat" {
			if s := numtest.PlainSum(c.Events); s == 0 {
				t.Errorf("plain float addition brings the float case back to 0: it tests nothing")
			} else {
				t.Logf("plain float addition leaves %g after the float case's deletes", s)
			}
		}
	}
}

func compileNum(t *testing.T, c numtest.Case, depth int) *viewlet.Program {
	t.Helper()
	f, err := lang.Parse(c.Name+".sql", []byte(c.Query))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
