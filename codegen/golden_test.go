package codegen_test

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
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
	forEachGolden(t, goldenDir, func(t *testing.T, f *lang.File) map[string]string {
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
	dir := t.TempDir()
	gomod := fmt.Sprintf("module goldencheck\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)
	files := map[string][]byte{"go.mod": []byte(gomod)}
	// The checkout's go.sum covers its dependencies' go.mod files, which
	// the module graph needs; with GOPROXY=off they must not be fetched.
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		files["go.sum"] = sum
	}
	for name, src := range srcs {
		files[filepath.Join(name, "q.go")] = src
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... in %s: %v\n%s", dir, err, out)
	}
}

// ---- Shared golden-archive helpers (duplicated from viewlet/golden_test.go:
// test files cannot share code across packages).

// sectionOrder is the canonical order of an archive's sections.
var sectionOrder = []string{"query.sql", "calculus", "m3", "m3.depth1", "go"}

// forEachGolden runs a subtest per archive in dir. run receives the
// resolved query file (parsed as query.sql) and returns the text
// of the sections its stage owns. Without -update each returned section must
// equal the archive's; with -update the archive's copies are rewritten, the
// other sections kept. Updates hold a lock file in dir, so that the three
// stages' tests can run at once under `go test ./... -update`.
func forEachGolden(t *testing.T, dir string, run func(t *testing.T, f *lang.File) map[string]string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden archives in %s (%v)", dir, err)
	}
	if *update {
		unlock, err := lockDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src, ok := section(a, "query.sql")
			if !ok {
				t.Fatalf("%s: no query.sql section", path)
			}
			f, err := lang.Parse("query.sql", []byte(src))
			if err != nil {
				t.Fatalf("lang.Parse: %v", err)
			}
			got := run(t, f)
			if t.Failed() {
				return
			}
			if *update {
				if err := rewrite(path, got); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range sectionOrder {
				g, ok := got[name]
				if !ok {
					continue
				}
				want, ok := section(a, name)
				if !ok {
					t.Errorf("%s: no %q section (run go test -update)", path, name)
					continue
				}
				if diff := cmp.Diff(want, fixNL(g)); diff != "" {
					t.Errorf("%s: section %q differs (-want +got):\n%s", path, name, diff)
				}
			}
		})
	}
}

// section returns the content of the archive's file name.
func section(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// fixNL ends s with a newline, as txtar stores every section.
func fixNL(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// rewrite writes the archive at path with the sections in repl replaced (or
// added), in canonical order; sections with other names follow unchanged.
// The archive is re-read first: another stage's test may have rewritten it
// since the caller parsed it.
func rewrite(path string, repl map[string]string) error {
	a, err := txtar.ParseFile(path)
	if err != nil {
		return err
	}
	out := &txtar.Archive{Comment: a.Comment}
	for _, name := range sectionOrder {
		if s, ok := repl[name]; ok {
			out.Files = append(out.Files, txtar.File{Name: name, Data: []byte(fixNL(s))})
		} else if s, ok := section(a, name); ok {
			out.Files = append(out.Files, txtar.File{Name: name, Data: []byte(s)})
		}
	}
	for _, f := range a.Files {
		if !slices.Contains(sectionOrder, f.Name) {
			out.Files = append(out.Files, f)
		}
	}
	return os.WriteFile(path, txtar.Format(out), 0o644)
}

// lockDir takes an exclusive lock on dir by creating dir/.lock, waiting up
// to a minute for another holder, and returns the function that releases it.
func lockDir(dir string) (unlock func(), err error) {
	lock := filepath.Join(dir, ".lock")
	deadline := time.Now().Add(time.Minute)
	for {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s has been held for a minute: remove it if no test is running", lock)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
