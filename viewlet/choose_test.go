package viewlet

import (
	"errors"
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
	}, func(e runtime.Engine) (int, error) {
		s := &sampler{Engine: e, max: max}
		err := runtime.Replay(s, runtime.ReplayOptions{Dir: ".."})
		return s.n, err
	})
}

type sampler struct {
	runtime.Engine
	n, max int
}

func (s *sampler) Apply(rel int, insert bool, f [][]byte) error {
	if s.n >= s.max {
		return ErrSampleDone
	}
	s.n++
	return s.Engine.Apply(rel, insert, f)
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
	}, func(runtime.Engine) (int, error) { return 0, nil })
	if c.Depth != Unbounded || c.Costs[1].Err == nil {
		t.Errorf("failing candidate: %+v", c)
	}
}
