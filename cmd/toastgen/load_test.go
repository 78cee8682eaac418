package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCLILoad splits TPC-H Q3's data: the first part of each source is a
// directory of existing tables (-load), the rest the stream. Under every
// policy and on both engines, the views must be those of the whole data
// replayed, FLOAT sums up to rounding (set-at-a-time adds them in another
// order). Misuse is a usage error.
func TestCLILoad(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	tables, rest := filepath.Join(tmp, "tables"), filepath.Join(tmp, "rest")
	for _, rel := range []string{"customer", "orders", "lineitem"} {
		lines := strings.SplitAfter(readFile(t, filepath.Join(root, "examples/tpch/data", rel+".csv")), "\n")
		cut := len(lines) * 2 / 3
		for _, f := range []struct{ path, data string }{
			{filepath.Join(tables, rel+".csv"), strings.Join(lines[:cut], "")},
			{filepath.Join(rest, "examples/tpch/data", rel+".csv"), strings.Join(lines[cut:], "")},
		} {
			if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.path, []byte(f.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	const q3 = "examples/tpch/q3.sql"
	whole := toastgen(t, "run", "-engine", "interp", "-format", "json", q3)
	part := toastgen(t, "run", "-engine", "interp", "-format", "json", "-data", rest, q3)
	if sameJSON(t, part, whole) {
		t.Fatal("the stream alone gives the whole views: the test loads nothing")
	}
	for _, engine := range []string{"go", "interp"} {
		for _, policy := range []string{"auto", "incremental", "set"} {
			got := toastgen(t, "run", "-engine", engine, "-load", tables, "-policy", policy, "-data", rest, "-format", "json", q3)
			if !sameJSON(t, got, whole) {
				t.Errorf("-load on %s, -policy %s: views differ from the whole replay's:\n%s\nwant\n%s", engine, policy, got, whole)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-policy", "lazy"}, "-policy must be auto, incremental or set"},
		{[]string{"-load", tables, "-resume", filepath.Join(tmp, "x.snap")}, "-load and -resume exclude each other"},
		{[]string{"-load", filepath.Join(tmp, "missing")}, "-load"},
	} {
		args := append(append([]string{"run", "-engine", "interp"}, c.args...), q3)
		_, stderr, code := runCLI(t, root, "", nil, args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "panic") {
			t.Errorf("toastgen %s: exit %d, stderr %q; want an error containing %q", strings.Join(args, " "), code, stderr, c.want)
		}
	}
}

// sameJSON reports whether two outputs of run -format json are equal but
// for float rounding (relative 1e-9).
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v in %s", err, a)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return closeJSON(x, y)
}

func closeJSON(x, y any) bool {
	switch x := x.(type) {
	case float64:
		y, ok := y.(float64)
		return ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !closeJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k := range x {
			if !closeJSON(x[k], y[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x, y)
}
