package codegen_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/internal/examples"
	"github.com/toastgen/toastgen/viewlet"
)

// generatedMarker is the line that makes staticcheck treat a file as
// generated, and so hide its unused-code findings (U1000) there.
var generatedMarker = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.\n`)

// TestGeneratedStaticcheck checks that generated packages hold no unused
// code: the committed packages under ../generated, the go sections of the
// golden archives and the packages of every example query are copied into
// a temporary module with their "Code generated … DO NOT EDIT." line
// removed (staticcheck hides U1000 in generated files), and staticcheck
// runs over them with its default checks plus U1000.
//
// The test needs staticcheck on PATH or in $(go env GOPATH)/bin; without
// it, it skips, unless TOASTGEN_REQUIRE_STATICCHECK=1 (CI) makes that a
// failure.
func TestGeneratedStaticcheck(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not running staticcheck")
	}
	bin := findStaticcheck(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string][]byte{} // directory in the module → source of its one file
	addGeneratedDirs(t, srcs)
	addGoldenSections(t, srcs)
	addExamples(t, srcs)
	for dir, src := range srcs {
		stripped := generatedMarker.ReplaceAll(src, nil)
		if bytes.Equal(stripped, src) {
			t.Fatalf("%s: no %q line to strip", dir, "// Code generated … DO NOT EDIT.")
		}
		srcs[dir] = stripped
	}
	mod := writeModule(t, root, "staticcheckgen", srcs)
	cmd := exec.Command(bin, "-checks", "inherit,U1000", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("staticcheck over %d generated packages (marker stripped): %v\n%s", len(srcs), err, out)
	}
	t.Logf("staticcheck: %d packages clean", len(srcs))
}

// findStaticcheck returns the path of the staticcheck binary or skips
// (fails under TOASTGEN_REQUIRE_STATICCHECK=1) when there is none.
func findStaticcheck(t *testing.T) string {
	if p, err := exec.LookPath("staticcheck"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
			p := filepath.Join(dir, "bin", "staticcheck")
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p
			}
		}
	}
	if os.Getenv("TOASTGEN_REQUIRE_STATICCHECK") == "1" {
		t.Fatal("staticcheck is not on PATH nor in $(go env GOPATH)/bin, and TOASTGEN_REQUIRE_STATICCHECK=1")
	}
	t.Skip("staticcheck not found (go install honnef.co/go/tools/cmd/staticcheck@v0.8.2)")
	return ""
}

// addGeneratedDirs adds the generated file of each package of ../generated
// (the one that carries the marker; tests and gen.go stay out).
func addGeneratedDirs(t *testing.T, srcs map[string][]byte) {
	files, err := filepath.Glob("../generated/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !generatedMarker.Match(src) {
			continue
		}
		srcs[filepath.Join("generated", filepath.Base(filepath.Dir(f)))] = src
		n++
	}
	if n == 0 {
		t.Fatal("no generated package under ../generated")
	}
}

// addGoldenSections adds the go section of each golden archive (kept equal
// to codegen's output by TestGoldenGo).
func addGoldenSections(t *testing.T, srcs map[string][]byte) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range a.Files {
			if sec.Name == "go" {
				srcs[filepath.Join("golden", strings.TrimSuffix(filepath.Base(f), ".txtar"))] = sec.Data
			}
		}
	}
}

// addExamples generates the package of every query under ../examples at
// unbounded depth (in process: a few milliseconds each).
func addExamples(t *testing.T, srcs map[string][]byte) {
	t.Chdir("..") // FROM FILE paths are relative to the repository root
	n := 0
	err := filepath.WalkDir("examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".sql" {
			return err
		}
		f, err := examples.Parse(path)
		if err != nil {
			return err
		}
		if len(f.Queries) == 0 {
			return nil // a schema for INCLUDE
		}
		qs, err := calculus.FromSQL(f)
		if err != nil {
			return err
		}
		p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
		if err != nil {
			return err
		}
		src, err := codegen.Generate(p, codegen.Options{Package: "q", Source: path})
		if err != nil {
			return err
		}
		srcs[strings.TrimSuffix(path, ".sql")] = src
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no example query under ../examples")
	}
}

// writeModule writes srcs (directory → source) as the packages of a
// temporary module that requires the checkout at root through a replace
// directive, and returns its directory. The file of each package is q.go.
//
// The directory is the same on every run of one checkout (under the
// system's temporary directory, named by the module and a hash of root):
// staticcheck caches its findings by package path and content, so a run
// after one that changed few generated packages analyzes only those (40 s
// for all of them on two cores, 3 s for none).
func writeModule(t *testing.T, root, module string, srcs map[string][]byte) string {
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("toastgen-%s-%x", module, sum[:6]))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	gomod := fmt.Sprintf("module %s\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", module, root)
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
	return dir
}
