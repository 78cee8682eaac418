package viewlet

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// chooseFor runs ChooseDepth on a query file of the repository, sampling
// its FROM FILE data (the first max events).
func chooseFor(t *testing.T, path string, d lang.Dialect, max int) DepthChoice {
	t.Helper()
	f, err := lang.Config{Dialect: d}.ParseFile("../" + path)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	return ChooseDepth(func(depth int) (*Program, error) {
		return Compile(f, qs, Options{Depth: depth})
	}, func(e runtime.Engine) error {
		return runtime.Replay(e, runtime.ReplayOptions{Dir: ".."})
	}, max)
}

func TestChooseDepth(t *testing.T) {
	tests := []struct {
		path   string
		max    int
		depth  int
		reason string
	}{
		// An eight-way join: its materialized deltas cost far more than
		// joining each event with the stored relations.
		{"examples/tpch/q8.sql", 2000, 1, "first-order IVM did 0."},
		// Three joins whose deltas are cheap lookups.
		{"examples/tpch/q3.sql", 2000, Unbounded, "preferred at ≤ 0.5×"},
		// Too few events to tell.
		{"examples/tpch/q8.sql", 100, Unbounded, "too small"},
		{"examples/simple/rst.sql", 2000, Unbounded, "a sample of 30 events is too small"},
	}
	for _, tt := range tests {
		c := chooseFor(t, tt.path, lang.DBToaster, tt.max)
		if c.Depth != tt.depth || !strings.Contains(c.Reason, tt.reason) {
			t.Errorf("%s (%d events): depth %d (%s), want %d (%s)", tt.path, tt.max, c.Depth, c.Reason, tt.depth, tt.reason)
		}
		if len(c.Costs) != 2 || c.Costs[0].Depth != Unbounded || c.Costs[1].Depth != 1 {
			t.Errorf("%s: costs %+v", tt.path, c.Costs)
		}
	}
	// A candidate that fails keeps full depth.
	c := ChooseDepth(func(depth int) (*Program, error) {
		if depth == 1 {
			return nil, errors.New("no")
		}
		return &Program{}, nil
	}, func(runtime.Engine) error { return nil }, 100)
	if c.Depth != Unbounded || c.Costs[1].Err == nil {
		t.Errorf("failing candidate: %+v", c)
	}
}

// TestChooseDepthCoverage: a sample that holds the events of one stream
// only (a relation loaded first) keeps full depth, whatever the work.
func TestChooseDepthCoverage(t *testing.T) {
	dir := t.TempDir()
	var r, s strings.Builder
	for i := range 800 {
		fmt.Fprintf(&r, "%d|1|%d|%d\n", i, i%7, i%5)
		fmt.Fprintf(&s, "%d|1|%d|%d\n", 800+i, i%5, i%3)
	}
	for name, data := range map[string]string{"r.csv": r.String(), "s.csv": s.String(), "q.sql": `
CREATE STREAM R(A int, B int) FROM FILE 'r.csv' LINE DELIMITED CSV (delimiter := '|', deletions := 'true');
CREATE STREAM S(B int, C int) FROM FILE 's.csv' LINE DELIMITED CSV (delimiter := '|', deletions := 'true');
SELECT r.A, SUM(s.C) FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := lang.Config{Dialect: lang.DBToaster}.ParseFile(filepath.Join(dir, "q.sql"))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	compile := func(depth int) (*Program, error) { return Compile(f, qs, Options{Depth: depth}) }
	replay := func(e runtime.Engine) error { return runtime.Replay(e, runtime.ReplayOptions{Dir: dir}) }
	if c := ChooseDepth(compile, replay, 700); c.Depth != Unbounded || !strings.Contains(c.Reason, "hold none of S") {
		t.Errorf("R's events only: depth %d (%s)", c.Depth, c.Reason)
	}
	if c := ChooseDepth(compile, replay, 1600); strings.Contains(c.Reason, "hold none") {
		t.Errorf("both streams sampled: %s", c.Reason)
	}
}

// TestChooseDepthBudget: a program whose events each visit every stored
// entry (a nested sum compared per row of a growing map, re-evaluated in
// full at both depths here) stops sampling once its work reaches
// SampleWork, and the other depth replays the same events: the choice
// takes seconds, not minutes, and compares like with like.
func TestChooseDepthBudget(t *testing.T) {
	f, err := lang.Config{Dialect: lang.SQL}.Parse("q.sql", []byte(`
CREATE STREAM R(A int, B int);
SELECT r1.A, SUM(r1.B) FROM R r1 WHERE (SELECT SUM(r2.B) FROM R r2 WHERE r2.A > r1.A AND r2.B <> r1.B) > 3 GROUP BY r1.A;
`))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	compile := func(depth int) (*Program, error) { return Compile(f, qs, Options{Depth: depth}) }
	replay := func(e runtime.Engine) error {
		for i := 0; ; i++ {
			fields := [][]byte{fmt.Appendf(nil, "%d", i), fmt.Appendf(nil, "%d", i%13)}
			if err := e.Apply(0, true, fields); err != nil {
				return err
			}
		}
	}
	c := ChooseDepth(compile, replay, 1_000_000)
	full, first := c.Costs[0], c.Costs[1]
	if full.Err != nil || first.Err != nil {
		t.Fatalf("costs %+v", c.Costs)
	}
	if full.Events >= 1_000_000 || full.Work*float64(full.Events) < SampleWork {
		t.Errorf("full depth replayed %d events, %.0f work each: the budget did not stop it", full.Events, full.Work)
	}
	if first.Events > full.Events {
		t.Errorf("first-order IVM replayed %d events, full depth %d", first.Events, full.Events)
	}
	t.Logf("%s; costs %+v", c.Reason, c.Costs)
}
