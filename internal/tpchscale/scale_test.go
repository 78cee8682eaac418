// Package tpchscale measures TPC-H queries on generated data of growing
// size (internal/tpchgen: slices of scale factor 1 with deletes) with
// toastgen bench, and prints one table: per-event cost and state memory
// as the data grow. It runs only when TOASTGEN_SCALE lists the fractions
// of scale factor 1 to generate, as it takes minutes:
//
//	TOASTGEN_SCALE=0.01,0.1,1 go test -v -run TestScale ./internal/tpchscale
//
// TOASTGEN_SCALE_DIR keeps the generated data between runs (a directory
// per fraction); TOASTGEN_SCALE_QUERIES (q1,q3, …) picks queries;
// TOASTGEN_SCALE_DEPTH passes -depth (default auto, whose sample of a
// large stream may hold only the dimensions loaded first: pass -1 to
// compare one plan across sizes); TOASTGEN_SCALE_WORKERS (1,2, …) runs
// each query with each -workers count, alternating, the table gaining a
// workers column.
package tpchscale

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/internal/tpchgen"
)

// result is the part of toastgen bench -format json the table shows.
type result struct {
	Triggers  float64  `json:"trigger_events_per_s"`
	NsPer     float64  `json:"trigger_ns_per_event"`
	Allocs    float64  `json:"trigger_allocs_per_event"`
	EndToEnd  *float64 `json:"end_to_end_events_per_s"`
	Events    int      `json:"events_per_pass"`
	StateHeap uint64   `json:"state_heap_bytes"`
	LiveState uint64   `json:"live_state_bytes"`
	Entries   *int64   `json:"map_entries"`
}

func TestScale(t *testing.T) {
	fracs := os.Getenv("TOASTGEN_SCALE")
	if fracs == "" {
		t.Skip("set TOASTGEN_SCALE=0.01,0.1,1 to measure TPC-H at those fractions of scale factor 1")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tool := filepath.Join(t.TempDir(), "toastgen")
	build := exec.Command("go", "build", "-o", tool, "./cmd/toastgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	queries := []string{"q1", "q3", "q5", "q10", "q18", "q21"}
	if pick := os.Getenv("TOASTGEN_SCALE_QUERIES"); pick != "" {
		queries = strings.Split(pick, ",")
	}
	dataRoot := os.Getenv("TOASTGEN_SCALE_DIR")
	if dataRoot == "" {
		dataRoot = t.TempDir()
	}
	var b strings.Builder
	workers := []string{"1"}
	if w := os.Getenv("TOASTGEN_SCALE_WORKERS"); w != "" {
		workers = strings.Split(w, ",")
	}
	b.WriteString("| query | SF | workers | events | triggers events/s | ns/event | end-to-end events/s | peak state MiB | live state MiB | map entries | bytes/entry |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	rows := map[string][]string{}
	for _, frac := range strings.Split(fracs, ",") {
		var f float64
		if _, err := fmt.Sscan(frac, &f); err != nil {
			t.Fatalf("TOASTGEN_SCALE: %v", err)
		}
		dir := filepath.Join(dataRoot, "sf"+frac)
		if _, err := os.Stat(filepath.Join(dir, "lineitem.csv")); err != nil {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			n, err := tpchgen.Generate(dir, tpchgen.Options{Fraction: f, DeleteFrac: 0.1, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("SF %s: %v", frac, n)
		}
		for _, q := range queries {
			src, err := os.ReadFile(filepath.Join(root, "examples", "tpch", q+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			src = bytes.ReplaceAll(src, []byte("examples/tpch/data/"), []byte(dir+"/"))
			src = bytes.ReplaceAll(src, []byte("(delimiter := '|')"), []byte("(delimiter := '|', deletions := 'true')"))
			path := filepath.Join(dir, q+".sql")
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			depth := os.Getenv("TOASTGEN_SCALE_DEPTH")
			if depth == "" {
				depth = "auto"
			}
			for _, nw := range workers {
				cmd := exec.Command(tool, "bench", "-dialect", "dbtoaster", "-depth", depth, "-format", "json", "-repeat", "1", "-workers", nw, path)
				cmd.Dir = root
				out, err := cmd.Output()
				if err != nil {
					t.Errorf("%s at SF %s: %v", q, frac, err)
					continue
				}
				var r result
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatalf("%s: %v: %s", q, err, out)
				}
				e2e, entries, per := "—", "—", "—"
				if r.EndToEnd != nil {
					e2e = fmt.Sprintf("%.3g", *r.EndToEnd)
				}
				if r.Entries != nil && *r.Entries > 0 {
					entries = fmt.Sprint(*r.Entries)
					per = fmt.Sprintf("%.0f", float64(r.LiveState)/float64(*r.Entries))
				}
				rows[q] = append(rows[q], fmt.Sprintf("| %s | %s | %s | %d | %.3g | %.0f | %s | %.1f | %.1f | %s | %s |\n",
					q, frac, nw, r.Events, r.Triggers, r.NsPer, e2e, float64(r.StateHeap)/(1<<20), float64(r.LiveState)/(1<<20), entries, per))
			}
		}
	}
	for _, q := range queries {
		for _, row := range rows[q] {
			b.WriteString(row)
		}
	}
	t.Log("\n" + b.String())
}
