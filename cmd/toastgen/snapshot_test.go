package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLISnapshotResume: a run over the first part of each TPC-H source
// writes a snapshot (-snapshot, -snapshot-every); a run resumed from it
// over the whole sources (-resume) skips the events it covers and prints
// the views of a run that never stopped — on either engine, from a
// snapshot of either engine, its change lines numbered as in the whole
// run. A snapshot of another query, a damaged one or one that covers more
// events than the sources hold is an error.
func TestCLISnapshotResume(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	// The first 300 lines of each source: the streams merge by line
	// number, so these are the first events of the whole replay.
	part := filepath.Join(tmp, "part")
	for _, rel := range []string{"customer", "orders", "lineitem"} {
		data := readFile(t, filepath.Join(root, "examples/tpch/data", rel+".csv"))
		lines := strings.SplitAfter(data, "\n")
		cut := strings.Join(lines[:min(len(lines), 300)], "")
		dst := filepath.Join(part, "examples/tpch/data", rel+".csv")
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, []byte(cut), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const q3 = "examples/tpch/q3.sql"
	whole := toastgen(t, "run", "-engine", "interp", "-format", "json", q3)
	wholeChanges := toastgen(t, "run", "-engine", "interp", "-changes", q3)
	for _, from := range []string{"go", "interp"} {
		snap := filepath.Join(tmp, from+".snap")
		out, stderr, code := runCLI(t, root, "", nil, "run", "-engine", from, "-data", part, "-snapshot", snap, "-snapshot-every", "500", "-format", "json", q3)
		if code != 0 {
			t.Fatalf("run -snapshot on %s: exit %d: %s", from, code, stderr)
		}
		if out == whole {
			t.Fatal("the partial data give the whole views: the test cuts nothing")
		}
		for _, to := range []string{"go", "interp"} {
			if got := toastgen(t, "run", "-engine", to, "-resume", snap, "-format", "json", q3); got != whole {
				t.Errorf("resumed on %s from a snapshot of %s: views differ from the uninterrupted run's:\n%s\nwant\n%s", to, from, got, whole)
			}
		}
		// The change lines of the resumed run are the uninterrupted run's
		// after the snapshot's events, numbered alike.
		got := toastgen(t, "run", "-engine", from, "-resume", snap, "-changes", q3)
		if !strings.HasSuffix(wholeChanges, got) || !strings.Contains(got, `{"event":`) {
			t.Errorf("resumed -changes on %s: not the tail of the uninterrupted run's lines:\n%.2000s", from, got)
		}
	}
	bad := filepath.Join(tmp, "bad.snap")
	data := readFile(t, filepath.Join(tmp, "go.snap"))
	// The middle byte flipped (set to a fixed value, it may already hold it).
	mid := len(data) / 2
	flipped := data[:mid] + string([]byte{data[mid] ^ 0xff}) + data[mid+1:]
	for _, c := range []struct {
		name, data, query, want string
	}{
		{"another query", data, "examples/tpch/q6.sql", "the compiled queries differ"},
		{"another depth", data, "-depth=1 " + q3, "the compiled queries differ"},
		{"cut short", data[:len(data)/2], q3, "truncated"},
		{"a byte changed", flipped, q3, "snapshot: byte"},
		{"not a snapshot", "hello", q3, "not a toastgen snapshot"},
	} {
		if err := os.WriteFile(bad, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, engine := range []string{"go", "interp"} {
			args := []string{"run", "-engine", engine, "-resume", bad}
			args = append(args, strings.Fields(c.query)...)
			_, stderr, code := runCLI(t, root, "", nil, args...)
			if code != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "panic") {
				t.Errorf("%s on %s: exit %d, stderr %q; want exit 1 and %q", c.name, engine, code, stderr, c.want)
			}
		}
	}
	// A snapshot of the whole data resumed over the partial data covers
	// more events than the sources hold.
	full := filepath.Join(tmp, "full.snap")
	toastgen(t, "run", "-engine", "interp", "-snapshot", full, q3)
	_, stderr, code := runCLI(t, root, "", nil, "run", "-engine", "interp", "-data", part, "-resume", full, q3)
	if code != 1 || !strings.Contains(stderr, "the snapshot covers") {
		t.Errorf("resuming over fewer events: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, root, "", nil, "run", "-snapshot-every", "10", q3); code != 2 || !strings.Contains(stderr, "-snapshot-every needs -snapshot") {
		t.Errorf("-snapshot-every alone: exit %d, stderr %q", code, stderr)
	}
}
