package rst_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toastgen/toastgen/generated/rst"
	"github.com/toastgen/toastgen/runtime"
)

// TestSetAtATimeOverflow applies a batch whose 21st event overflows the
// INT sum: set-at-a-time, the batch's sums overflow, the statements are
// undone and the events fired one by one, so that, as in order, the first
// 20 events are applied, the 21st is rejected and the batch stops there.
func TestSetAtATimeOverflow(t *testing.T) {
	batch := func(e *rst.Engine, p runtime.Policy) *rst.Batch {
		var b rst.Batch
		for i := range 20 {
			b.InsertR(int64(i), int64(0))
		}
		b.InsertR(int64(math.MaxInt64), int64(0))
		for i := range 5 {
			b.InsertR(int64(100+i), int64(0))
		}
		b.SetPolicy(p)
		if p == runtime.Incremental {
			b.InOrder()
		}
		return &b
	}
	run := func(p runtime.Policy) (*rst.Engine, error) {
		e := rst.New()
		if err := e.InsertS(int64(0), int64(0)); err != nil {
			t.Fatal(err)
		}
		if err := e.InsertT(int64(0), int64(1)); err != nil {
			t.Fatal(err)
		}
		return e, e.ApplyBatch(batch(e, p))
	}
	want, werr := run(runtime.Incremental)
	if !errors.Is(werr, runtime.ErrOverflow) {
		t.Fatalf("in order: %v, want an overflow", werr)
	}
	for _, p := range []runtime.Policy{runtime.SetAtATime, runtime.Auto} {
		got, err := run(p)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("%s: error %v, want %v", p, err, werr)
		}
		if d := cmp.Diff(want.Views(), got.Views()); d != "" {
			t.Errorf("%s: views differ from the batch in order (-in order +%s):\n%s", p, p, d)
		}
	}
}
