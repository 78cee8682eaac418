package gentest

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// Tol is the relative tolerance of float comparisons (see oracle.Compare).
const Tol = 1e-9

// Event is one recorded event: the fields are copies, in schema order.
type Event struct {
	Rel    int
	Insert bool
	Fields [][]byte
}

// Record replays the sources of rels (resolved against dir) and returns
// their events in replay order.
func Record(rels []runtime.Relation, dir string) ([]Event, error) {
	r := &recorder{rels: rels}
	if err := runtime.Replay(r, runtime.ReplayOptions{Dir: dir}); err != nil {
		return nil, err
	}
	return r.events, nil
}

// RoundTrip returns the events of e's example data (sources resolved
// against RepoRoot) followed by their inverse: a stream that ends where it
// starts, failing tb when the data cannot be read.
func RoundTrip(tb testing.TB, e runtime.Engine) []Event {
	tb.Helper()
	evs, err := Record(e.Relations(), RepoRoot)
	if err != nil {
		tb.Fatal(err)
	}
	return append(evs, Inverse(evs)...)
}

// Inverse returns the events that undo evs: evs in reverse order with
// inserts and deletes swapped.
func Inverse(evs []Event) []Event {
	out := make([]Event, len(evs))
	for i, e := range evs {
		e.Insert = !e.Insert
		out[len(evs)-1-i] = e
	}
	return out
}

// recorder is an Engine that only records the events it is given.
type recorder struct {
	rels   []runtime.Relation
	events []Event
}

func (r *recorder) Relations() []runtime.Relation { return r.rels }

func (r *recorder) Apply(rel int, insert bool, fields [][]byte) error {
	r.events = append(r.events, Event{rel, insert, cloneFields(fields)})
	return nil
}

// cloneFields deep-copies fields, which sources reuse between events.
func cloneFields(fields [][]byte) [][]byte {
	cp := make([][]byte, len(fields))
	for i, f := range fields {
		cp[i] = slices.Clone(f)
	}
	return cp
}

func (r *recorder) NewBatch() runtime.Batch { panic("gentest: recorder has no batches") }
func (r *recorder) ApplyBatch(runtime.Batch) error {
	panic("gentest: recorder has no batches")
}
func (r *recorder) Views() []runtime.View { return nil }

// Oracle is a runtime.Engine over SQLite (package lang/oracle): it keeps the
// base relations of a query file in tables and recomputes every view from
// scratch when asked. It is slow and only meant as the reference.
type Oracle struct {
	f    *lang.File
	db   *oracle.DB
	rels []runtime.Relation
}

// NewOracle opens an in-memory SQLite database for the relations of f. The
// caller closes it.
func NewOracle(f *lang.File) (*Oracle, error) {
	db, err := oracle.Open(f)
	if err != nil {
		return nil, err
	}
	return &Oracle{f: f, db: db, rels: viewlet.RuntimeRelations(f.Relations)}, nil
}

// Close releases the database.
func (o *Oracle) Close() error { return o.db.Close() }

// Relations implements runtime.Engine.
func (o *Oracle) Relations() []runtime.Relation { return o.rels }

// Apply implements runtime.Engine: it inserts or deletes one row. Deleting
// an absent row is an error (SQLite holds bags, not Z-sets).
func (o *Oracle) Apply(rel int, insert bool, fields [][]byte) error {
	r := o.rels[rel]
	t, err := viewlet.ParseTuple(r, fields)
	if err != nil {
		return err
	}
	if insert {
		return o.db.Insert(r.Name, t)
	}
	return o.db.Delete(r.Name, t)
}

// NewBatch implements runtime.Engine.
func (o *Oracle) NewBatch() runtime.Batch { return &oracleBatch{o: o} }

// ApplyBatch implements runtime.Engine; it stops at the first error.
func (o *Oracle) ApplyBatch(b runtime.Batch) error {
	for _, e := range b.(*oracleBatch).events {
		if err := o.Apply(e.Rel, e.Insert, e.Fields); err != nil {
			return err
		}
	}
	return nil
}

// Views implements runtime.Engine; it panics if SQLite fails.
func (o *Oracle) Views() []runtime.View {
	var out []runtime.View
	for _, q := range o.f.Queries {
		v, err := o.db.View(q)
		if err != nil {
			panic(err)
		}
		out = append(out, v)
	}
	return out
}

type oracleBatch struct {
	o      *Oracle
	events []Event
}

func (b *oracleBatch) Add(rel int, insert bool, fields [][]byte) error {
	if _, err := viewlet.ParseTuple(b.o.rels[rel], fields); err != nil {
		return err
	}
	b.events = append(b.events, Event{rel, insert, cloneFields(fields)})
	return nil
}

func (b *oracleBatch) Len() int { return len(b.events) }

// WithRelations returns e with its relation descriptions (and so its
// sources) replaced by rels, which must have the same names and columns in
// the same order. It runs a compiled package over other data files than the
// ones its query names, e.g. the same query over a larger data set.
func WithRelations(e runtime.Engine, rels []runtime.Relation) (runtime.Engine, error) {
	have := e.Relations()
	if len(have) != len(rels) {
		return nil, fmt.Errorf("engine has %d relations, want %d", len(have), len(rels))
	}
	for i := range have {
		if have[i].Name != rels[i].Name || !slices.Equal(have[i].Columns, rels[i].Columns) {
			return nil, fmt.Errorf("relation %d: engine has %s%v, want %s%v",
				i, have[i].Name, have[i].Columns, rels[i].Name, rels[i].Columns)
		}
	}
	return relEngine{e, rels}, nil
}

type relEngine struct {
	runtime.Engine
	rels []runtime.Relation
}

func (e relEngine) Relations() []runtime.Relation { return e.rels }

// CompareViews reports the first difference between the views of want and
// got (oracle.Compare with tolerance Tol), or nil.
func CompareViews(want, got []runtime.View) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d views want, %d got", len(want), len(got))
	}
	for i := range want {
		if err := oracle.Compare(want[i], got[i], Tol); err != nil {
			return err
		}
	}
	return nil
}

// Named is an engine with a name for messages.
type Named struct {
	Name   string
	Engine runtime.Engine
}

// Lockstep applies evs to every engine, one event at a time, and after
// every `every` events and after the last one checks that the views of
// every engine but the first equal those of the first (the reference). It
// returns the first error, naming the event it follows.
func Lockstep(engines []Named, evs []Event, every int) error {
	check := func(i int) error {
		want := engines[0].Engine.Views()
		for _, e := range engines[1:] {
			if err := CompareViews(want, e.Engine.Views()); err != nil {
				return fmt.Errorf("after event %d of %d: %s differs from %s: %v", i+1, len(evs), e.Name, engines[0].Name, err)
			}
		}
		return nil
	}
	for i, ev := range evs {
		for _, e := range engines {
			if err := e.Engine.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
				return fmt.Errorf("event %d of %d: %s: %v", i+1, len(evs), e.Name, err)
			}
		}
		if every > 0 && (i+1)%every == 0 {
			if err := check(i); err != nil {
				return err
			}
		}
	}
	return check(len(evs) - 1)
}

// CheckReplay replays the example data of the package in the working
// directory (see ReadSpec) through gen, the package's engine, through the
// viewlet interpreter of the same Program and through SQLite, comparing
// their views every `every` events and at the end; then it applies the
// inverse of the stream (every event undone, in reverse order) the same
// way, which exercises the delete triggers and must bring every view back
// to that of an empty database.
func CheckReplay(t *testing.T, gen runtime.Engine, every int) {
	t.Helper()
	f, p := Compile(t)
	CheckEngines(t, f, p, gen, RepoRoot, every)
}

// Compile reads the spec of the package in the working directory and
// compiles its query file, failing tb on an error.
func Compile(tb testing.TB) (*lang.File, *viewlet.Program) {
	tb.Helper()
	spec, err := ReadSpec(".")
	if err != nil {
		tb.Fatal(err)
	}
	f, p, err := spec.Compile()
	if err != nil {
		tb.Fatal(err)
	}
	return f, p
}

// Relocate returns a copy of rels whose sources read the file of the same
// base name in dir, with deletions := 'true' when deletions is set (the
// format of DBToaster's *_del data sets).
func Relocate(rels []runtime.Relation, dir string, deletions bool) []runtime.Relation {
	out := slices.Clone(rels)
	for i, r := range out {
		if r.Source == nil {
			continue
		}
		src := *r.Source
		src.Path = filepath.Join(dir, filepath.Base(src.Path))
		src.Params = maps.Clone(src.Params)
		if deletions {
			if src.Params == nil {
				src.Params = map[string]string{}
			}
			src.Params["deletions"] = "true"
		}
		out[i].Source = &src
	}
	return out
}

// CheckEngines is CheckReplay for an explicit query file f, its Program p,
// an engine gen compiled from it, and the directory that relative sources
// are resolved against.
func CheckEngines(t *testing.T, f *lang.File, p *viewlet.Program, gen runtime.Engine, dir string, every int) {
	t.Helper()
	o, err := NewOracle(f)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	evs, err := Record(gen.Relations(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) == 0 {
		t.Fatal("the sources have no events")
	}
	inserts := 0
	for _, e := range evs {
		if e.Insert {
			inserts++
		}
	}
	t.Logf("%d events (%d inserts, %d deletes)", len(evs), inserts, len(evs)-inserts)
	engines := []Named{{"sqlite", o}, {"generated", gen}, {"interp", viewlet.NewInterp(p)}}
	if err := Lockstep(engines, evs, every); err != nil {
		t.Fatalf("replay: %v", err)
	}
	final := o.Views()
	rows := 0
	for _, v := range final {
		rows += len(v.Rows)
	}
	t.Logf("final views: %d rows", rows)
	if err := Lockstep(engines, Inverse(evs), every); err != nil {
		t.Fatalf("inverse replay: %v", err)
	}
	fresh, err := NewOracle(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if err := CompareViews(fresh.Views(), gen.Views()); err != nil {
		t.Fatalf("after the inverse replay the generated engine is not empty: %v", err)
	}
}
