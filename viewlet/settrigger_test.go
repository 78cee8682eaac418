package viewlet_test

import (
	"fmt"
	"math"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

const rstSrc = `
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT SUM(r.A * t.D) FROM R r, S s, T t WHERE r.B = s.B AND s.C = t.C;
SELECT s.C, COUNT(*) FROM R r, S s WHERE r.B = s.B GROUP BY s.C;
`

// TestSetTriggerOverflow applies a batch whose 21st event overflows an INT
// sum with each policy: set-at-a-time, the interpreter undoes the batch's
// statements and fires the events one by one, so that the error and the
// views are those of the batch applied in order.
func TestSetTriggerOverflow(t *testing.T) {
	f, err := lang.Config{Dialect: lang.DBToaster}.Parse("rst.sql", []byte(rstSrc))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
	if err != nil {
		t.Fatal(err)
	}
	if p.SetTrigger("R") == nil {
		t.Fatal("R's triggers have no set-at-a-time form")
	}
	run := func(policy runtime.Policy) (*viewlet.Interp, error) {
		in := viewlet.NewInterp(p)
		for _, ev := range []struct {
			rel   string
			tuple []any
		}{{"S", []any{int64(0), int64(0)}}, {"T", []any{int64(0), int64(1)}}} {
			if err := in.Fire(ev.rel, true, ev.tuple); err != nil {
				t.Fatal(err)
			}
		}
		b := in.NewBatch()
		add := b.(interface{ AddTuple(string, bool, []any) }).AddTuple
		for i := range 20 {
			add("R", true, []any{int64(i), int64(0)})
		}
		add("R", true, []any{int64(math.MaxInt64), int64(0)})
		for i := range 5 {
			add("R", true, []any{int64(100 + i), int64(0)})
		}
		if policy == runtime.Incremental {
			runtime.InOrder(b)
		}
		return in, in.ApplyBatch(runtime.WithPolicy(b, policy))
	}
	want, werr := run(runtime.Incremental)
	if werr == nil {
		t.Fatal("in order: no overflow")
	}
	for _, policy := range []runtime.Policy{runtime.SetAtATime, runtime.Auto} {
		got, err := run(policy)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Errorf("%s: error %v, want %v", policy, err, werr)
		}
		if d := gocmp.Diff(want.Views(), got.Views()); d != "" {
			t.Errorf("%s: views differ from the batch in order:\n%s", policy, d)
		}
	}
}
