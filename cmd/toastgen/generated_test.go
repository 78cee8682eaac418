package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// TestSharedDataGenerated is the shared-data conformance test of generated
// code: every example query is generated (unbounded depth) for each data set,
// all packages are built into one driver, and each replays its full stream
// (what `toastgen run -engine go` does); the final views must equal SQLite
// on the same final tables.
func TestSharedDataGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example query; skipped with -short")
	}
	dir := filepath.Join(queryRoot, sharedData)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared data absent: %s (%v)", dir, err)
	}
	root, err := filepath.Abs(queryRoot)
	if err != nil {
		t.Fatal(err)
	}
	type job struct {
		name, title string
		f           *lang.File
	}
	var jobs []job
	tmp := t.TempDir()
	files, sets := queryFiles(t)
	for _, path := range files {
		rel, _ := filepath.Rel(queryRoot, path)
		title := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(rel), "examples/"), ".sql")
		for _, ds := range sets[path] {
			f, err := lang.ParseFile(path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if err := ds.rewrite(f); err != nil {
				t.Fatal(err)
			}
			p, err := compileShared(f)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			name := fmt.Sprintf("q%d", len(jobs))
			src, err := codegen.Generate(p, codegen.Options{Package: name, Source: filepath.ToSlash(rel)})
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if err := writeFile(filepath.Join(tmp, name, name+".go"), src); err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, job{name, title + "/" + ds.name, f})
		}
	}
	var imports, cases strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&imports, "\t%q\n", "shared/"+j.name)
		fmt.Fprintf(&cases, "\t%q: func() runtime.Engine { return %s.New() },\n", j.name, j.name)
	}
	mod := fmt.Sprintf("module shared\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)
	if err := writeFile(filepath.Join(tmp, "go.mod"), []byte(mod)); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf(`package main

import (
	"os"

	"github.com/toastgen/toastgen/runtime"
%s)

var engines = map[string]func() runtime.Engine{
%s}

func main() {
	e := engines[os.Args[1]]()
	if err := runtime.Replay(e, runtime.ReplayOptions{Dir: os.Args[2]}); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	runtime.WriteJSON(os.Stdout, e.Views())
}
`, imports.String(), cases.String())
	if err := writeFile(filepath.Join(tmp, "main.go"), []byte(main)); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", "driver", ".")
	build.Dir = tmp
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the generated packages: %v\n%s", err, out)
	}
	for _, j := range jobs {
		t.Run(j.title, func(t *testing.T) {
			out, err := exec.Command(filepath.Join(tmp, "driver"), j.name, root).Output()
			if err != nil {
				t.Fatalf("driver: %v", err)
			}
			db, err := oracle.Open(j.f)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rec := &oracleEngine{Engine: recorder{viewlet.RuntimeRelations(j.f.Relations)}, db: db, check: func() error { return nil }}
			if err := runtime.Replay(rec, runtime.ReplayOptions{Dir: queryRoot}); err != nil {
				t.Fatal(err)
			}
			got, err := oracle.DecodeJSON(bytes.TrimSpace(out))
			if err != nil {
				t.Fatalf("driver output: %v", err)
			}
			for i, q := range j.f.Queries {
				want, err := db.View(q)
				if err != nil {
					t.Fatal(err)
				}
				gv, err := oracle.Typed(got[i], want)
				if err != nil {
					t.Fatal(err)
				}
				if err := oracle.Compare(want, gv, queryTol); err != nil {
					t.Errorf("%s after %d events: %v", q.Name, rec.events, err)
				}
			}
		})
	}
}

// recorder is an engine that only describes the relations: the oracle
// wrapper records the events into SQLite.
type recorder struct{ rels []runtime.Relation }

func (r recorder) Relations() []runtime.Relation   { return r.rels }
func (r recorder) Apply(int, bool, [][]byte) error { return nil }
func (r recorder) NewBatch() runtime.Batch         { return nil }
func (r recorder) ApplyBatch(runtime.Batch)        {}
func (r recorder) Views() []runtime.View           { return nil }
