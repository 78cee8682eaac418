package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestCLIWorkers: run -workers prints the views one engine prints; a
// query that is not partitionable runs on one engine with a note; bench
// -workers says how many engines ran; flags that need one engine are
// usage errors.
func TestCLIWorkers(t *testing.T) {
	root := repoRoot(t)
	usage := [][]string{
		{"run", "-workers", "0", "examples/tpch/q3.sql"},
		{"run", "-workers", "2", "-changes", "examples/tpch/q3.sql"},
		{"run", "-workers", "2", "-snapshot", "s", "examples/tpch/q3.sql"},
		{"run", "-workers", "2", "-resume", "s", "examples/tpch/q3.sql"},
		{"bench", "-workers", "-1", "examples/tpch/q3.sql"},
	}
	for _, args := range usage {
		if _, stderr, code := runCLI(t, root, "", nil, args...); code != 2 || !strings.Contains(stderr, "-workers") {
			t.Errorf("toastgen %s: exit status %d, want 2 and a message about -workers; stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
	// The interpreter runs on workers too (viewlet.PartitionedInterp).
	one, stderr, code := runCLI(t, root, "", nil, "run", "-engine", "interp", "-format", "json", "examples/tpch/q1.sql")
	three, stderr3, code3 := runCLI(t, root, "", nil, "run", "-engine", "interp", "-workers", "3", "-format", "json", "examples/tpch/q1.sql")
	if code != 0 || code3 != 0 || one != three || stderr3 != "" {
		t.Errorf("run -engine interp -workers 3: exit status %d, %d; stderr %q, %q; views\n%s\none engine's\n%s", code3, code, stderr3, stderr, three, one)
	}
	if testing.Short() {
		t.Skip("-short: not building the generated packages")
	}
	for _, q := range []string{"examples/tpch/q3.sql", "examples/finance/vwap.sql"} {
		one, stderr, code := runCLI(t, root, "", nil, "run", "-format", "json", q)
		if code != 0 {
			t.Fatalf("run %s: exit status %d\n%s", q, code, stderr)
		}
		three, stderr, code := runCLI(t, root, "", nil, "run", "-workers", "3", "-format", "json", q)
		if code != 0 {
			t.Fatalf("run -workers 3 %s: exit status %d\n%s", q, code, stderr)
		}
		if three != one {
			t.Errorf("run -workers 3 %s:\n%s\nrun:\n%s", q, three, one)
		}
		note := strings.Contains(stderr, "not partitionable")
		if want := strings.Contains(q, "vwap"); note != want {
			t.Errorf("run -workers 3 %s: a note on standard error %v, want %v: %q", q, note, want, stderr)
		}
	}
	out, stderr, code := runCLI(t, root, "", nil, "bench", "-workers", "2", "examples/tpch/q3.sql")
	if code != 0 || !regexp.MustCompile(`(?m)^partitions: 2$`).MatchString(out) || !strings.HasPrefix(out, "triggers: ") {
		t.Errorf("bench -workers 2: exit status %d, output\n%s\nstderr %q", code, out, stderr)
	}
}
