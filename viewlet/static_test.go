package viewlet_test

import (
	"bytes"
	"errors"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// TestStaticTables: in dialect dbtoaster a TABLE is static — an event on
// it after the first stream event is rejected (runtime.ErrStaticTable),
// the views as before, a batch holding one rejected whole, and a restored
// engine rejects it too if its snapshot counts a stream event; in dialect
// sql the same events are maintained.
func TestStaticTables(t *testing.T) {
	const src = "CREATE TABLE N(K int, G int);\nCREATE STREAM R(A int, K int);\nSELECT N.G, SUM(R.A) FROM R, N WHERE R.K = N.K GROUP BY N.G;\n"
	compile := func(d lang.Dialect) *viewlet.Program {
		f, err := lang.Config{Dialect: d}.Parse("static.sql", []byte(src))
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
		return p
	}
	i64 := func(v int64) any { return v }
	fire := func(in *viewlet.Interp, rel string, vals ...int64) error {
		var tuple []any
		for _, v := range vals {
			tuple = append(tuple, i64(v))
		}
		return in.Fire(rel, true, tuple)
	}
	// Dialect dbtoaster.
	p := compile(lang.DBToaster)
	if !p.StaticTables {
		t.Fatal("dialect dbtoaster: the program's tables are not static")
	}
	in := viewlet.NewInterp(p)
	for _, err := range []error{fire(in, "N", 1, 10), fire(in, "R", 5, 1)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	before := in.Views()
	err := fire(in, "N", 1, 20)
	if !errors.Is(err, runtime.ErrStaticTable) {
		t.Fatalf("a table event after a stream event: %v, want ErrStaticTable", err)
	}
	if d := gocmp.Diff(before, in.Views()); d != "" {
		t.Errorf("the rejected event changed the views (-before +after):\n%s", d)
	}
	b := in.NewBatch()
	add := b.(interface{ AddTuple(string, bool, []any) }).AddTuple
	add("R", true, []any{i64(6), i64(1)})
	add("N", true, []any{i64(1), i64(30)})
	if err := in.ApplyBatch(b); !errors.Is(err, runtime.ErrStaticTable) {
		t.Fatalf("a batch with a table event after a stream event: %v, want ErrStaticTable", err)
	}
	if d := gocmp.Diff(before, in.Views()); d != "" {
		t.Errorf("the rejected batch changed the views (-before +after):\n%s", d)
	}
	// A snapshot that counts a stream event restores an engine that
	// rejects table events; one that counts only table events does not.
	for _, tt := range []struct {
		sources []runtime.SourceCount
		reject  bool
	}{
		{[]runtime.SourceCount{{Relation: "N", Events: 1}, {Relation: "R", Events: 1}}, true},
		{[]runtime.SourceCount{{Relation: "N", Events: 1}, {Relation: "R", Events: 0}}, false},
		{nil, true},
	} {
		var buf bytes.Buffer
		if err := in.WriteSnapshot(&buf, tt.sources...); err != nil {
			t.Fatal(err)
		}
		r := viewlet.NewInterp(p)
		if _, err := r.RestoreSnapshot(&buf); err != nil {
			t.Fatal(err)
		}
		if err := fire(r, "N", 2, 10); errors.Is(err, runtime.ErrStaticTable) != tt.reject {
			t.Errorf("restored from a snapshot of counts %v: a table event gives %v, want rejected %v", tt.sources, err, tt.reject)
		}
	}
	// Dialect sql: the table changes like a stream.
	p = compile(lang.SQL)
	if p.StaticTables {
		t.Fatal("dialect sql: the program's tables are static")
	}
	in = viewlet.NewInterp(p)
	for _, err := range []error{fire(in, "N", 1, 10), fire(in, "R", 5, 1), fire(in, "N", 1, 20), fire(in, "R", 7, 1)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := in.Views()[0].Rows
	want := [][]any{{i64(10), i64(12)}, {i64(20), i64(12)}}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("dialect sql views (-want +got):\n%s", d)
	}
}
