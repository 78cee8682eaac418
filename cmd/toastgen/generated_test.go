package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/internal/examples"
	"github.com/toastgen/toastgen/internal/testmode"
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
//
// In the fast test layer (internal/testmode) the queries of
// slowGenerated replay a prefix of their streams: SQLite's from-scratch
// evaluation of their final view is what is slow, not the engine.
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
		limit       int // events to replay; 0: all
		// workers: the package (name, or a flat-view build of the query)
		// also runs on three partitions; "" when the query is not
		// partitionable.
		workers string
	}
	var jobs []job
	tmp := t.TempDir()
	files, sets := queryFiles(t)
	for _, path := range files {
		rel, _ := filepath.Rel(queryRoot, path)
		title := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(rel), "examples/"), ".sql")
		for _, ds := range sets[path] {
			f, err := examples.Parse(path)
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
			plan, err := partitionPlan(f)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("q%d", len(jobs))
			src, err := codegen.Generate(p, codegen.Options{Package: name, Source: filepath.ToSlash(rel), Partition: plan})
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if err := writeFile(filepath.Join(tmp, name, name+".go"), src); err != nil {
				t.Fatal(err)
			}
			// Partitionable queries run on three engines too: this
			// package, or one whose views are flat (view trees do not
			// merge), as toastgen run -workers builds it.
			workers := ""
			if viewlet.MergeReason(p, plan) == "" {
				workers = name
			} else if plan.Partitionable() {
				flat, err := compileFlat(f)
				if err != nil {
					t.Fatal(err)
				}
				if viewlet.MergeReason(flat, plan) == "" {
					workers = name + "w"
					src, err := codegen.Generate(flat, codegen.Options{Package: workers, Source: filepath.ToSlash(rel), Partition: plan})
					if err != nil {
						t.Fatalf("%s: %v", path, err)
					}
					if err := writeFile(filepath.Join(tmp, workers, workers+".go"), src); err != nil {
						t.Fatal(err)
					}
				}
			}
			limit := 0
			if !testmode.Soak() {
				limit = slowGenerated[title]
			}
			jobs = append(jobs, job{name, title + "/" + ds.name, f, limit, workers})
		}
	}
	var imports, cases strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&imports, "\t%q\n", "shared/"+j.name)
		fmt.Fprintf(&cases, "\t%q: func() runtime.Engine { return %s.New() },\n", j.name, j.name)
		if j.workers != "" && j.workers != j.name {
			fmt.Fprintf(&imports, "\t%q\n", "shared/"+j.workers)
			fmt.Fprintf(&cases, "\t%q: func() runtime.Engine { return %s.New() },\n", j.workers, j.workers)
		}
	}
	mod := fmt.Sprintf("module shared\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)
	if err := writeFile(filepath.Join(tmp, "go.mod"), []byte(mod)); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf(`package main

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/runtime"
%s)

var engines = map[string]func() runtime.Engine{
%s}

var errLimit = errors.New("event limit reached")

// limited stops a replay with errLimit after left events.
type limited struct {
	runtime.Engine
	left int
}

func (l *limited) Apply(rel int, insert bool, fields [][]byte) error {
	if l.left == 0 {
		return errLimit
	}
	l.left--
	return l.Engine.Apply(rel, insert, fields)
}

// main replays the engine named by os.Args[1] from the sources resolved
// against os.Args[2], at most os.Args[3] events if given, and prints its
// views as JSON. A name NAME@N runs N partitions of NAME (runtime.Workers).
func main() {
	name, parts, _ := strings.Cut(os.Args[1], "@")
	e := engines[name]()
	if parts != "" {
		n, err := strconv.Atoi(parts)
		if err != nil {
			panic(err)
		}
		w, err := runtime.NewWorkers(e.(runtime.Partitioned), n)
		if err != nil {
			panic(err)
		}
		e = w
	}
	var eng runtime.Engine = e
	if len(os.Args) > 3 {
		n, err := strconv.Atoi(os.Args[3])
		if err != nil {
			panic(err)
		}
		eng = &limited{e, n}
	}
	if err := runtime.Replay(eng, runtime.ReplayOptions{Dir: os.Args[2]}); err != nil && !errors.Is(err, errLimit) {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	runtime.WriteJSON(os.Stdout, e.Views())
}
`, imports.String(), cases.String())
	if err := writeFile(filepath.Join(tmp, "main.go"), []byte(main)); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-trimpath", "-o", "driver", ".")
	build.Dir = tmp
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the generated packages: %v\n%s", err, out)
	}
	type run struct {
		job
		engine, title string
	}
	var runs []run
	for _, j := range jobs {
		runs = append(runs, run{j, j.name, j.title})
		if j.workers != "" {
			runs = append(runs, run{j, j.workers + "@3", j.title + "/workers3"})
		}
	}
	for _, j := range runs {
		t.Run(j.title, func(t *testing.T) {
			t.Parallel()
			args := []string{j.engine, root}
			if j.limit > 0 {
				args = append(args, strconv.Itoa(j.limit))
				t.Logf("replaying the first %d events (fast layer; TOASTGEN_SOAK=1 replays all)", j.limit)
			}
			out, err := exec.Command(filepath.Join(tmp, "driver"), args...).Output()
			if err != nil {
				t.Fatalf("driver: %v", err)
			}
			db, err := oracle.Open(j.f)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SkipIndexes() // one View per query, at the end
			rec := &oracleEngine{Engine: recorder{viewlet.RuntimeRelations(j.f.Relations)}, db: db, check: func() error { return nil }, limit: j.limit}
			if err := runtime.Replay(rec, runtime.ReplayOptions{Dir: queryRoot}); err != nil && !errors.Is(err, errBudget) {
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

// slowGenerated are the example queries (by title, without the data set)
// whose generated code replays only a prefix of its streams in the fast test
// layer, with the number of events: SQLite evaluates missedtrades' four
// correlated subqueries per pair of orders, minutes on the full trace.
var slowGenerated = map[string]int{
	"finance/missedtrades": 2500,
}

// recorder is an engine that only describes the relations: the oracle
// wrapper records the events into SQLite.
type recorder struct{ rels []runtime.Relation }

func (r recorder) Relations() []runtime.Relation   { return r.rels }
func (r recorder) Apply(int, bool, [][]byte) error { return nil }
func (r recorder) NewBatch() runtime.Batch         { return nil }
func (r recorder) ApplyBatch(runtime.Batch) error  { return nil }
func (r recorder) Views() []runtime.View           { return nil }
