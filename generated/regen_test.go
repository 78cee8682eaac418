package generated_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
)

// TestUpToDate regenerates every package under generated/ in memory, as its
// gen.go's go:generate line says, and fails when the checked-in source
// differs: run `go generate ./generated/...` after changing the compiler or
// an example query.
func TestUpToDate(t *testing.T) {
	gens, err := filepath.Glob("*/gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) == 0 {
		t.Fatal("no */gen.go")
	}
	for _, g := range gens {
		dir := filepath.Dir(g)
		t.Run(dir, func(t *testing.T) {
			spec, err := gentest.ReadSpec(dir)
			if err != nil {
				t.Fatal(err)
			}
			if spec.Pkg != dir {
				t.Errorf("package %s is generated into directory %s", spec.Pkg, dir)
			}
			want, err := os.ReadFile(filepath.Join(dir, spec.GoFile()))
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir) // go generate runs in the package directory
			got, err := spec.Generate()
			if err != nil {
				t.Fatalf("toastgen gen %s: %v", spec.Query, err)
			}
			if !bytes.Equal(want, got) {
				t.Errorf("%s/%s is stale; run `go generate ./generated/%s`\n%s",
					dir, spec.GoFile(), dir, gentest.DiffHint(want, got))
			}
		})
	}
}
