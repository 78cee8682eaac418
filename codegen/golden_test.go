package codegen_test

import (
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/goldentest"
	"github.com/toastgen/toastgen/viewlet"
)

// The golden tests of the pipeline's stages share one txtar archive per query
// in ../viewlet/testdata/golden; see viewlet/golden_test.go for the layout.
// This test checks and, with -update, rewrites the go section: the package
// codegen.Generate writes for the unbounded-depth Program, with Package "q"
// and Source "query.sql".

var update = flag.Bool("update", false, "rewrite the go sections of ../viewlet/testdata/golden/*.txtar")

// goldenDir is where the shared golden archives live.
const goldenDir = "../viewlet/testdata/golden"

// TestGoldenGo generates each golden query's package and compares it with
// the archive's go section. Unless -short, it then checks that every
// generated package compiles and is vet-clean: the sources go into one
// temporary module (each in its own directory) that requires this checkout
// through a replace directive, vetted by a single `go vet ./...`.
func TestGoldenGo(t *testing.T) {
	generated := map[string][]byte{} // archive name → source
	goldentest.ForEach(t, goldenDir, *update, func(t *testing.T, f *lang.File) map[string]string {
		qs, err := calculus.FromSQL(f)
		if err != nil {
			t.Fatalf("calculus.FromSQL: %v", err)
		}
		p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
		if err != nil {
			t.Fatalf("viewlet.Compile: %v", err)
		}
		src, err := codegen.Generate(p, codegen.Options{Package: "q", Source: "query.sql"})
		if err != nil {
			t.Fatalf("codegen.Generate: %v", err)
		}
		generated[path.Base(t.Name())] = src
		return map[string]string{"go": string(src)}
	})
	if testing.Short() {
		t.Log("-short: not vetting the generated packages")
		return
	}
	if len(generated) == 0 {
		return
	}
	t.Run("vet", func(t *testing.T) { vetGenerated(t, generated) })
}

// vetGenerated runs go vet over the packages in srcs (directory name →
// source) in a temporary module built against this checkout, offline.
func vetGenerated(t *testing.T, srcs map[string][]byte) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := writeModule(t, root, "goldencheck", srcs)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... in %s: %v\n%s", dir, err, out)
	}
}
