// Package treescale measures factorized views (view trees) against flat
// views with toastgen bench as the number of join partners per key grows,
// and prints one table: per-event cost and state for each plan. It runs
// only when TOASTGEN_TREESCALE lists the partner counts, as the flat plan
// takes minutes at the larger ones:
//
//	TOASTGEN_TREESCALE=10,100,1000 go test -v -run TestTreeScale ./internal/treescale
//
// Each stream inserts TOASTGEN_TREESCALE_EVENTS tuples (default 40,000)
// into R(a, b), S(a, c) and T(a, d) in turn, with keys a drawn so that each
// key has about that many partners in every relation, then deletes a tenth
// of them again. The flat plan is skipped where its view would exceed
// TOASTGEN_TREESCALE_MAXROWS rows (default 20 million).
package treescale

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// result is the part of toastgen bench -format json the table shows.
type result struct {
	Triggers  float64 `json:"trigger_events_per_s"`
	NsPer     float64 `json:"trigger_ns_per_event"`
	Allocs    float64 `json:"trigger_allocs_per_event"`
	Events    int     `json:"events_per_pass"`
	LiveState uint64  `json:"live_state_bytes"`
}

// queries are the views measured, over R(a, b), S(a, c), T(a, d); rows
// estimates a view's flat size from the number of keys and partners.
var queries = []struct {
	name, sql string
	rows      func(keys, partners int) int
}{
	{"list2", "SELECT r.a, r.b, s.c FROM r, s WHERE r.a = s.a;", func(k, p int) int { return k * p * p }},
	{"sum2", "SELECT r.a, r.b, SUM(s.c) AS total FROM r, s WHERE r.a = s.a GROUP BY r.a, r.b;", func(k, p int) int { return k * p }},
	{"list3", "SELECT r.a, r.b, s.c, t.d FROM r, s, t WHERE r.a = s.a AND s.a = t.a;", func(k, p int) int { return k * p * p * p }},
}

func TestTreeScale(t *testing.T) {
	spec := os.Getenv("TOASTGEN_TREESCALE")
	if spec == "" {
		t.Skip("set TOASTGEN_TREESCALE=10,100,1000 to measure factorized views at those partner counts")
	}
	events := envInt(t, "TOASTGEN_TREESCALE_EVENTS", 40000)
	maxRows := envInt(t, "TOASTGEN_TREESCALE_MAXROWS", 20_000_000)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tool := filepath.Join(dir, "toastgen")
	build := exec.Command("go", "build", "-o", tool, "./cmd/toastgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var b strings.Builder
	b.WriteString("| query | partners | events | plan | triggers events/s | ns/event | allocs/event | live state MiB |\n|---|---|---|---|---|---|---|---|\n")
	for _, ps := range strings.Split(spec, ",") {
		partners, err := strconv.Atoi(ps)
		if err != nil || partners < 1 {
			t.Fatalf("TOASTGEN_TREESCALE: %q", ps)
		}
		keys := max(1, events/(3*partners))
		data := filepath.Join(dir, "p"+ps)
		writeStream(t, data, events, keys)
		for _, q := range queries {
			src := fmt.Sprintf("CREATE STREAM r (a INT NOT NULL, b INT NOT NULL) FROM FILE '%[1]s/r.csv' LINE DELIMITED CSV (deletions := 'true');\n"+
				"CREATE STREAM s (a INT NOT NULL, c INT NOT NULL) FROM FILE '%[1]s/s.csv' LINE DELIMITED CSV (deletions := 'true');\n"+
				"CREATE STREAM t (a INT NOT NULL, d INT NOT NULL) FROM FILE '%[1]s/t.csv' LINE DELIMITED CSV (deletions := 'true');\n%[2]s\n", data, q.sql)
			path := filepath.Join(data, q.name+".sql")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, plan := range []string{"tree", "flat"} {
				if plan == "flat" && q.rows(keys, partners) > maxRows {
					fmt.Fprintf(&b, "| %s | %d | %d | flat | skipped: ~%d rows | | | |\n", q.name, partners, events, q.rows(keys, partners))
					continue
				}
				args := []string{"bench", "-format", "json", "-repeat", "5", path}
				if plan == "flat" {
					args = append([]string{"bench", "-flat-views"}, args[1:]...)
				}
				out, err := exec.Command(tool, args...).Output()
				if err != nil {
					t.Errorf("%s %s at %d partners: %v", q.name, plan, partners, err)
					continue
				}
				var r result
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatalf("%s: %v: %s", q.name, err, out)
				}
				fmt.Fprintf(&b, "| %s | %d | %d | %s | %.3g | %.0f | %.2f | %.1f |\n", q.name, partners, r.Events, plan, r.Triggers, r.NsPer, r.Allocs, float64(r.LiveState)/(1<<20))
			}
		}
	}
	t.Log("\n" + b.String())
}

// writeStream writes r.csv, s.csv and t.csv in DBToaster's deletions
// format (seq,op,columns…): events/3 inserts each over keys 0…keys−1, the
// relations in turn, then a tenth of each relation's tuples deleted.
func writeStream(t *testing.T, dir string, events, keys int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for j, rel := range []string{"r", "s", "t"} {
		f, err := os.Create(filepath.Join(dir, rel+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		n := events / 3
		tuples := make([][2]int, n)
		for i := range tuples {
			tuples[i] = [2]int{rng.Intn(keys), i}
			fmt.Fprintf(w, "%d,1,%d,%d\n", 3*i+j, tuples[i][0], tuples[i][1])
		}
		for i := 0; i < n; i += 10 {
			fmt.Fprintf(w, "%d,0,%d,%d\n", 3*(n+i)+j, tuples[i][0], tuples[i][1])
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s: %q", name, s)
	}
	return n
}
