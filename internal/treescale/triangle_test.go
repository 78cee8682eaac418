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

// TestTriangleScale measures the triangle count, kept by the heavy/light
// kernel and by the delta plan (-flat-views), on streams of growing size
// that load hubs into every relation and then toggle tuples touching them,
// in R, S and T in turn — the updates that cost a delta plan O(N):
//
//	TOASTGEN_TRISCALE=3000,12000,48000 go test -v -run TestTriangleScale ./internal/treescale
//
// Each size N loads N tuples (R(i, 0), R(0, i) and the same in S and T for
// i up to N/6), then inserts and deletes again N tuples (0, 0), (0, k)
// and (k, 0).
func TestTriangleScale(t *testing.T) {
	spec := os.Getenv("TOASTGEN_TRISCALE")
	if spec == "" {
		t.Skip("set TOASTGEN_TRISCALE=3000,12000,48000 to measure triangle counting at those sizes")
	}
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
	b.WriteString("| N | events | plan | triggers events/s | ns/event | live state MiB |\n|---|---|---|---|---|---|\n")
	for _, ns := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(ns)
		if err != nil || n < 6 {
			t.Fatalf("TOASTGEN_TRISCALE: %q", ns)
		}
		data := filepath.Join(dir, "n"+ns)
		writeHubs(t, data, n)
		src := fmt.Sprintf("CREATE STREAM r (a INT NOT NULL, b INT NOT NULL) FROM FILE '%[1]s/r.csv' LINE DELIMITED CSV (deletions := 'true');\n"+
			"CREATE STREAM s (b INT NOT NULL, c INT NOT NULL) FROM FILE '%[1]s/s.csv' LINE DELIMITED CSV (deletions := 'true');\n"+
			"CREATE STREAM t (c INT NOT NULL, a INT NOT NULL) FROM FILE '%[1]s/t.csv' LINE DELIMITED CSV (deletions := 'true');\n"+
			"SELECT COUNT(*) FROM r, s, t WHERE r.b = s.b AND s.c = t.c AND t.a = r.a;\n", data)
		path := filepath.Join(data, "triangle.sql")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, plan := range []string{"kernel", "delta"} {
			args := []string{"bench", "-format", "json", "-repeat", "1", path}
			if plan == "delta" {
				args = []string{"bench", "-flat-views", "-format", "json", "-repeat", "1", path}
			}
			out, err := exec.Command(tool, args...).Output()
			if err != nil {
				t.Errorf("N %d %s: %v", n, plan, err)
				continue
			}
			var r result
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			fmt.Fprintf(&b, "| %d | %d | %s | %.3g | %.0f | %.1f |\n", n, r.Events, plan, r.Triggers, r.NsPer, float64(r.LiveState)/(1<<20))
		}
	}
	t.Log("\n" + b.String())
}

// writeHubs writes the stream of TestTriangleScale in DBToaster's
// deletions format (seq,op,columns…).
func writeHubs(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	var ws [3]*bufio.Writer
	for j, rel := range []string{"r", "s", "t"} {
		f, err := os.Create(filepath.Join(dir, rel+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ws[j] = bufio.NewWriter(f)
	}
	seq := 0
	emit := func(j, op, u, v int) {
		fmt.Fprintf(ws[j], "%d,%d,%d,%d\n", seq, op, u, v)
		seq++
	}
	hub := n / 6
	for i := 1; i <= hub; i++ {
		for j := range 3 {
			emit(j, 1, i, 0)
			emit(j, 1, 0, i)
		}
	}
	for i := range n / 2 {
		j := i % 3
		u, v := 0, 0
		switch k := 1 + rng.Intn(hub); rng.Intn(3) {
		case 1:
			u = k
		case 2:
			v = k
		}
		emit(j, 1, u, v)
		emit(j, 0, u, v)
	}
	for _, w := range ws {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
}
