// Package benchtable measures every TPC-H and finance example on the
// standard DBToaster data (../shared/data/dbtoaster) with toastgen bench
// and prints one table: the figures of the performance work's closing
// notes, taken in one sitting. It runs only when TOASTGEN_BENCHTABLE is
// set (to the number of passes, -repeat), as it takes minutes:
//
//	TOASTGEN_BENCHTABLE=5 go test -v -run TestTable ./internal/benchtable
//
// With TOASTGEN_BENCHTABLE_BASE set to another toastgen binary (an older
// build), each query runs on both, alternating, and the table gains their
// ratio; the base runs the queries without their PRIMARY KEY declarations
// (older builds predate them; keys are hints that change no result).
// TOASTGEN_BENCHTABLE_RUNS (default 3) runs of each; the table
// shows medians. TOASTGEN_BENCHTABLE_QUERIES (q1,q3,vwap, …) picks queries.
// TOASTGEN_BENCHTABLE_DIALECT=sql measures the queries in dialect sql
// (nullable columns, SQL's NULL semantics: toastgen's default) instead of
// DBToaster's dialect, the one its comparison with DBToaster uses.
package benchtable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// result is the part of toastgen bench -format json the table shows.
type result struct {
	Triggers float64  `json:"trigger_events_per_s"`
	Allocs   float64  `json:"trigger_allocs_per_event"`
	EndToEnd *float64 `json:"end_to_end_events_per_s"`
	Events   int      `json:"events_per_pass"`
}

func TestTable(t *testing.T) {
	repeat := os.Getenv("TOASTGEN_BENCHTABLE")
	if repeat == "" {
		t.Skip("set TOASTGEN_BENCHTABLE=passes to measure the examples")
	}
	dialect := "dbtoaster"
	if d := os.Getenv("TOASTGEN_BENCHTABLE_DIALECT"); d != "" {
		dialect = d
	}
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("TOASTGEN_BENCHTABLE_RUNS")); err == nil && n > 0 {
		runs = n
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(root, "..", "shared", "data", "dbtoaster")
	if _, err := os.Stat(data); err != nil {
		t.Skipf("no DBToaster data beside the repository: %v", err)
	}
	tool := filepath.Join(t.TempDir(), "toastgen")
	build := exec.Command("go", "build", "-o", tool, "./cmd/toastgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	base := os.Getenv("TOASTGEN_BENCHTABLE_BASE")
	// The queries, their FROM FILE paths pointed at the standard data.
	type query struct{ name, path, basePath string }
	var queries []query
	dir := t.TempDir()
	add := func(glob, from, to string) {
		files, _ := filepath.Glob(filepath.Join(root, glob))
		slices.Sort(files)
		for _, f := range files {
			if strings.HasSuffix(f, "_limit.sql") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(f), ".sql")
			out := filepath.Join(dir, name+".sql")
			if err := os.WriteFile(out, bytes.ReplaceAll(src, []byte(from), []byte(to)), 0o644); err != nil {
				t.Fatal(err)
			}
			src = bytes.ReplaceAll(src, []byte(from), []byte(to))
			baseOut := filepath.Join(dir, name+"_base.sql")
			if err := os.WriteFile(baseOut, withoutKeys(src), 0o644); err != nil {
				t.Fatal(err)
			}
			queries = append(queries, query{name, out, baseOut})
		}
	}
	add("examples/tpch/q*.sql", "examples/tpch/data/", filepath.Join(data, "tpch", "standard")+"/")
	add("examples/finance/*.sql", "examples/finance/data/finance.csv", filepath.Join(data, "finance", "standard", "finance.csv"))
	if pick := os.Getenv("TOASTGEN_BENCHTABLE_QUERIES"); pick != "" {
		want := strings.Split(pick, ",")
		queries = slices.DeleteFunc(queries, func(q query) bool { return !slices.Contains(want, q.name) })
	}
	bench := func(bin, path string) (result, error) {
		cmd := exec.Command(bin, "bench", "-dialect", dialect, "-format", "json", "-repeat", repeat, path)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return result{}, fmt.Errorf("%s: %v", filepath.Base(path), err)
		}
		var r result
		if err := json.Unmarshal(out, &r); err != nil {
			return result{}, fmt.Errorf("%s: %v: %s", filepath.Base(path), err, out)
		}
		return r, nil
	}
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "dialect %s, passes %s, medians of %d runs\n\n| query | events/pass | triggers events/s | allocs/event | end-to-end events/s |", dialect, repeat, runs)
	if base != "" {
		b.WriteString(" base triggers events/s | ratio |")
	}
	b.WriteString("\n|---|---|---|---|---|")
	if base != "" {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	for _, q := range queries {
		var trig, e2e, alloc, old []float64
		events := 0
		for range runs {
			if base != "" {
				r, err := bench(base, q.basePath)
				if err != nil {
					t.Error(err)
					break
				}
				old = append(old, r.Triggers)
			}
			r, err := bench(tool, q.path)
			if err != nil {
				t.Error(err)
				break
			}
			trig, alloc = append(trig, r.Triggers), append(alloc, r.Allocs)
			if r.EndToEnd != nil {
				e2e = append(e2e, *r.EndToEnd)
			}
			events = r.Events
		}
		if len(trig) < runs {
			continue
		}
		e := "—"
		if len(e2e) > 0 {
			e = fmt.Sprintf("%.3g", median(e2e))
		}
		fmt.Fprintf(&b, "| %s | %d | %.3g | %.3f | %s |", q.name, events, median(trig), median(alloc), e)
		if base != "" {
			fmt.Fprintf(&b, " %.3g | %.2f× |", median(old), median(trig)/median(old))
		}
		b.WriteString("\n")
	}
	t.Log("\n" + b.String())
}

var (
	tableKey  = regexp.MustCompile(`(?i),\s*PRIMARY\s+KEY\s*\([^)]*\)`)
	columnKey = regexp.MustCompile(`(?i)\s+PRIMARY\s+KEY\b`)
)

// withoutKeys removes the PRIMARY KEY declarations of a query file.
func withoutKeys(src []byte) []byte {
	return columnKey.ReplaceAll(tableKey.ReplaceAll(src, nil), nil)
}
