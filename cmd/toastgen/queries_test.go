package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	rtdebug "runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/internal/examples"
	"github.com/toastgen/toastgen/internal/testmode"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// The shared-data conformance test: every example query (TPC-H Q1–Q22, SSB4,
// the finance, MDDB, employee and simple queries) runs in the viewlet
// interpreter over the DBToaster experiment data in ../shared/data/dbtoaster
// (relative to the repository root), and each of its views is compared with SQLite (lang/oracle), which
// receives exactly the same insert and delete events.

// queryRoot is the repository root seen from this package's directory, where
// `go test` runs.
const queryRoot = "../.."

// sharedData is the DBToaster experiment data, relative to the repository
// root: the FROM FILE paths of the rewritten queries are relative to it, and
// Replay resolves them against queryRoot.
const sharedData = "../shared/data/dbtoaster"

// queryCheckEvery is the number of events between two comparisons of the
// views with SQLite during a replay; the views are compared once more at the
// end. SQLite recomputes every view from scratch at each comparison.
const queryCheckEvery = 1000

// queryTol is the relative tolerance of float comparisons: the engine sums
// incrementally, SQLite from scratch, in different orders.
const queryTol = 1e-9

// slowReplay is the replay time above which a run is logged as slow.
const slowReplay = 20 * time.Second

// Every query replays the full stream of each of its data sets, except the
// slowQueries, whose replay stops when its time budget is spent: the views
// are then compared with SQLite on the prefix of the stream read so far,
// which is as good a check of correctness, only shorter; the test logs how
// far it got.

// slowQueries are the queries (by subtest name, without the data set) whose
// Program the interpreter cannot run over the full streams in CI time, with
// their budget per data set. finance/missedtrades recomputes four nested
// O(P²) aggregates over the order book's price levels per event: the full
// stream takes minutes.
var slowQueries = map[string]time.Duration{
	"finance/missedtrades": 15 * time.Second,
}

// queryBudget, if set, bounds the replay of every query (for quick runs).
var queryBudget = flag.Duration("queries.budget", 0,
	"time budget of every query's replay in TestSharedDataQueries (0: none but the slow queries'; -short: at most 10s)")

// fastEvents bounds the interpreter's replay of every query in the fast
// test layer (internal/testmode): TestSharedDataGenerated replays the full
// streams with the same Programs, and TOASTGEN_SOAK=1 replays them here too.
const fastEvents = 2500

// fastSlowBudget bounds the slow queries' replays in the fast layer.
const fastSlowBudget = 5 * time.Second

// queryFull lifts the slow queries' budgets.
var queryFull = flag.Bool("queries.full", false,
	"replay the full streams of the slow queries of TestSharedDataQueries too")

// errBudget stops a replay whose budget is spent.
var errBudget = errors.New("time budget spent")

// dataset is one way of feeding a query file from the shared data.
type dataset struct {
	name string
	// rewrite points the sources of f at the data set (paths relative to
	// the repository root).
	rewrite func(f *lang.File) error
	// checkEvery, if not zero, replaces queryCheckEvery: small bundled
	// streams are compared with SQLite far more often.
	checkEvery int
}

// tpchDataset reads every TPC-H table from <sharedData>/tpch/<dir>/<table>.csv,
// where <table>.csv is the base name of the query's own FROM FILE path.
// With deletions, the files carry the two leading columns seq|op.
func tpchDataset(dir string, deletions bool) dataset {
	return dataset{name: dir, rewrite: func(f *lang.File) error {
		for _, r := range f.Relations {
			if r.Source == nil {
				continue
			}
			if r.Source.Format != "CSV" {
				return fmt.Errorf("relation %s: TPC-H data is CSV, the query reads %s", r.Name, r.Source.Format)
			}
			base := strings.ToLower(filepath.Base(r.Source.Path))
			r.Source.Path = sharedData + "/tpch/" + dir + "/" + base
			params := map[string]string{}
			for k, v := range r.Source.Params {
				params[k] = v
			}
			params["delimiter"] = "|"
			if deletions {
				params["deletions"] = "true"
			} else {
				delete(params, "deletions")
			}
			r.Source.Params = params
		}
		return nil
	}}
}

// financeDataset reads the order-book trace <sharedData>/finance/<dir>/finance.csv,
// keeping each relation's adaptor parameters (book, brokers, deterministic).
func financeDataset(dir string) dataset {
	return dataset{name: dir, rewrite: func(f *lang.File) error {
		for _, r := range f.Relations {
			if r.Source == nil {
				continue
			}
			if r.Source.Format != "ORDERBOOK" {
				return fmt.Errorf("relation %s: the finance trace needs ORDERBOOK, the query reads %s", r.Name, r.Source.Format)
			}
			r.Source.Path = sharedData + "/finance/" + dir + "/finance.csv"
		}
		return nil
	}}
}

// employeeDataset reads DBToaster's employee tables from
// <sharedData>/employee/<table>.dat, the base names of the query's own paths.
func employeeDataset() dataset {
	return dataset{name: "employee", rewrite: func(f *lang.File) error {
		for _, r := range f.Relations {
			if r.Source == nil {
				continue
			}
			if r.Source.Format != "CSV" {
				return fmt.Errorf("relation %s: the employee data is CSV, the query reads %s", r.Name, r.Source.Format)
			}
			r.Source.Path = sharedData + "/employee/" + filepath.Base(r.Source.Path)
		}
		return nil
	}}
}

// simpleDataset reads R, S and T from <sharedData>/simple/<dir>/{r,s,t}.dat.
func simpleDataset(dir string) dataset {
	return dataset{name: dir, rewrite: func(f *lang.File) error {
		for _, r := range f.Relations {
			if r.Source != nil {
				r.Source.Path = sharedData + "/simple/" + dir + "/" + strings.ToLower(r.Name) + ".dat"
			}
		}
		return nil
	}}
}

// bundledDataset reads a query's own FROM FILE paths (relative to the
// repository root): the data bundled with the example.
func bundledDataset() dataset {
	return dataset{name: "bundled", rewrite: func(*lang.File) error { return nil }, checkEvery: 3}
}

// mddbDataset reads every MDDB relation from <sharedData>/mddb/<dir>/<file>,
// where <file> is the base name of the query's own FROM FILE path.
func mddbDataset(dir string) dataset {
	return dataset{name: dir, rewrite: func(f *lang.File) error {
		for _, r := range f.Relations {
			if r.Source == nil {
				continue
			}
			if r.Source.Format != "CSV" {
				return fmt.Errorf("relation %s: MDDB data is CSV, the query reads %s", r.Name, r.Source.Format)
			}
			r.Source.Path = sharedData + "/mddb/" + dir + "/" + strings.ToLower(filepath.Base(r.Source.Path))
		}
		return nil
	}}
}

// queryFiles lists the example queries and the data sets each runs on.
func queryFiles(t *testing.T) (files []string, sets map[string][]dataset) {
	t.Helper()
	tpch := []dataset{tpchDataset("standard", false), tpchDataset("standard_del", true)}
	finance := []dataset{financeDataset("standard")}
	// mddb/tiny (1,000 positions): the interpreter slows down on the
	// 12,000 positions of mddb/standard, well past the replay budget.
	mddb := []dataset{mddbDataset("tiny")}
	sets = map[string][]dataset{}
	for _, g := range []struct {
		glob string
		sets []dataset
	}{
		{"examples/tpch/q*.sql", tpch},
		{"examples/tpch/static/*.sql", tpch},
		{"examples/tpch/sql/*.sql", tpch},
		{"examples/ssb/*.sql", tpch},
		{"examples/finance/*.sql", finance},
		{"examples/employee/*.sql", []dataset{employeeDataset()}},
		{"examples/employee/sql/*.sql", []dataset{employeeDataset()}},
		{"examples/nulls/*.sql", []dataset{bundledDataset()}},
		{"examples/simple/*.sql", []dataset{simpleDataset("tiny"), simpleDataset("standard")}},
		{"examples/mddb/*.sql", mddb},
	} {
		matches, err := filepath.Glob(filepath.Join(queryRoot, g.glob))
		if err != nil {
			t.Fatal(err)
		}
		if len(matches) == 0 {
			t.Errorf("no query files match %s", g.glob)
		}
		for _, m := range matches {
			files = append(files, m)
			sets[m] = g.sets
		}
	}
	return files, sets
}

func TestSharedDataQueries(t *testing.T) {
	dir := filepath.Join(queryRoot, sharedData)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared data absent: %s (%v); the DBToaster experiment data is expected at ../shared/data relative to the repository root", dir, err)
	}
	files, sets := queryFiles(t)
	seen := map[string]bool{}
	for _, path := range files {
		rel, _ := filepath.Rel(queryRoot, path)
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(rel), "examples/"), ".sql")
		seen[name] = true
		for _, ds := range sets[path] {
			budget := *queryBudget
			if b, ok := slowQueries[name]; ok && !*queryFull && (budget == 0 || b < budget) {
				budget = b
			}
			if testing.Short() && (budget == 0 || budget > 10*time.Second) {
				budget = 10 * time.Second
			}
			limit := 0
			if !testmode.Soak() {
				limit = fastEvents
				// A slow query's budget shrinks with the prefix.
				if _, ok := slowQueries[name]; ok && !*queryFull {
					budget = min(budget, fastSlowBudget)
				}
			}
			t.Run(name+"/"+ds.name, func(t *testing.T) {
				t.Parallel()
				runSharedQuery(t, path, ds, budget, limit)
			})
		}
	}
	for name := range slowQueries {
		if !seen[name] {
			t.Errorf("slowQueries names %s, which is not an example query", name)
		}
	}
}

// runSharedQuery compiles the query file at path for data set ds, replays
// the data into the interpreter and SQLite, and compares the views. A
// budget other than 0 stops the replay when it is spent, a limit other than
// 0 after that many events.
func runSharedQuery(t *testing.T, path string, ds dataset, budget time.Duration, limit int) {
	f, err := examples.Parse(path)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if err := ds.rewrite(f); err != nil {
		t.Fatal(err)
	}
	p, err := compileShared(f)
	if err != nil {
		if strings.Contains(err.Error(), "not supported yet") {
			t.Skipf("compile: %v", err)
		}
		t.Fatalf("compile: %v", err)
	}
	db, err := oracle.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := &oracleEngine{Engine: viewlet.NewInterp(p), db: db, limit: limit, every: ds.checkEvery}
	// A panic in the interpreter is a compiler bug in this query: fail this
	// subtest and let the others run.
	defer func() {
		if x := recover(); x != nil {
			t.Fatalf("interpreter panicked after %d events: %v\n%s", e.events, x, stackTop(rtdebug.Stack(), 24))
		}
	}()
	e.check = func() error { return compareViews(f, db, e.Engine.Views()) }
	start := time.Now()
	if budget > 0 {
		e.deadline = start.Add(budget)
	}
	err = runtime.Replay(e, runtime.ReplayOptions{Dir: queryRoot})
	stopped := errors.Is(err, errBudget)
	if err != nil && !stopped {
		t.Fatalf("after %d events: %v", e.events, err)
	}
	if err := e.check(); err != nil {
		t.Fatalf("after %d events: %v", e.events, err)
	}
	d := time.Since(start)
	t.Logf("%d events, %d checks, %v", e.events, e.checks+1, d.Round(time.Millisecond))
	if stopped && limit > 0 && e.events >= limit {
		t.Logf("stopped after %d events (the fast layer's limit; TOASTGEN_SOAK=1 replays the full stream); the views matched SQLite on that prefix", e.events)
		return
	}
	if stopped {
		t.Logf("slow: stopped after %d events, when the %v budget was spent (slowQueries, -queries.budget, -short; -queries.full lifts the slow queries' budgets); the views matched SQLite on that prefix", e.events, budget)
		return
	}
	if d > slowReplay {
		t.Logf("slow: replay and checks took %v (over %v)", d.Round(time.Second), slowReplay)
	}
}

// compileShared runs calculus.FromSQL and viewlet.Compile (unbounded depth),
// turning a panic into an error so that one bad query does not stop the
// other subtests.
func compileShared(f *lang.File) (p *viewlet.Program, err error) {
	defer func() {
		if x := recover(); x != nil {
			p, err = nil, fmt.Errorf("compiler panicked: %v", x)
		}
	}()
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, err
	}
	return viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
}

// compileFlat compiles f as compileShared does, with flat views.
func compileFlat(f *lang.File) (*viewlet.Program, error) {
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, err
	}
	return viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded, FlatViews: true})
}

// partitionPlan returns f's partition plan (calculus.Partition).
func partitionPlan(f *lang.File) (*calculus.PartitionPlan, error) {
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, err
	}
	return calculus.Partition(f.Relations, qs), nil
}

// compareViews compares every view of the engine (got, in query order) with
// SQLite's.
func compareViews(f *lang.File, db *oracle.DB, got []runtime.View) error {
	if len(got) != len(f.Queries) {
		return fmt.Errorf("engine has %d views, the file %d queries", len(got), len(f.Queries))
	}
	var errs []error
	for i, q := range f.Queries {
		want, err := db.View(q)
		if err != nil {
			return err
		}
		if err := oracle.Compare(want, got[i], queryTol); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// oracleEngine forwards every event to the engine and records it in the
// SQLite oracle, comparing the views every queryCheckEvery (or every) events.
type oracleEngine struct {
	runtime.Engine
	db     *oracle.DB
	check  func() error
	events int
	checks int
	// deadline, if not zero, stops the replay with errBudget.
	deadline time.Time
	// limit, if not zero, stops the replay with errBudget after that many
	// events.
	limit int
	// every, if not zero, replaces queryCheckEvery.
	every int
}

func (e *oracleEngine) Apply(rel int, insert bool, fields [][]byte) error {
	if e.limit > 0 && e.events >= e.limit {
		return errBudget
	}
	r := e.Relations()[rel]
	tuple, err := viewlet.ParseTuple(r, fields)
	if err != nil {
		return err
	}
	if insert {
		err = e.db.Insert(r.Name, tuple)
	} else {
		err = e.db.Delete(r.Name, tuple)
	}
	if err != nil {
		return err
	}
	if err := e.Engine.Apply(rel, insert, fields); err != nil {
		return err
	}
	e.events++
	if !e.deadline.IsZero() && time.Now().After(e.deadline) {
		return errBudget
	}
	every := queryCheckEvery
	if e.every > 0 {
		every = e.every
	}
	if e.events%every == 0 {
		e.checks++
		if err := e.check(); err != nil {
			return fmt.Errorf("views differ after %d events: %w", e.events, err)
		}
	}
	return nil
}

// stackTop returns the first n lines of a stack trace.
func stackTop(stack []byte, n int) string {
	lines := strings.SplitN(string(stack), "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "\t…")
	}
	return strings.Join(lines, "\n")
}
