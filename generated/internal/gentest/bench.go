package gentest

import (
	"fmt"
	"os"
	"path/filepath"
	rt "runtime"
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/runtime"
)

// BenchTriggers measures the triggers of the engines newEngine returns, on
// the example data of the package (sources resolved against RepoRoot).
//
// Outside the timed loop it records the events once and adds them to one
// batch of a fresh engine followed by their inverse (the events in reverse
// order, inserts and deletes swapped), so every iteration applies the
// stream and undoes it and the state returns to empty; one untimed warm-up
// iteration grows the maps to their working size and checks that the views
// are those of a fresh engine afterwards. Each iteration then applies the
// whole batch. Besides ns/op (per batch), it reports
//
//	ns/event       mean trigger time per event
//	events/s       trigger throughput
//	allocs/event   heap allocations per event (runtime.MemStats.Mallocs)
func BenchTriggers(b *testing.B, newEngine func() runtime.Engine) {
	e := newEngine()
	evs, err := Record(e.Relations(), RepoRoot)
	if err != nil {
		b.Fatal(err)
	}
	batch := runtime.InOrder(e.NewBatch())
	for _, ev := range append(evs, Inverse(evs)...) {
		if err := batch.Add(ev.Rel, ev.Insert, ev.Fields); err != nil {
			b.Fatal(err)
		}
	}
	if err := e.ApplyBatch(batch); err != nil {
		b.Fatal(err)
	}
	if err := CompareViews(newEngine().Views(), e.Views()); err != nil {
		b.Fatalf("the batch and its inverse do not return the engine to empty: %v", err)
	}
	events := float64(batch.Len())

	b.ReportAllocs()
	rt.GC()
	var m0, m1 rt.MemStats
	rt.ReadMemStats(&m0)
	n := 0
	for b.Loop() {
		if err := e.ApplyBatch(batch); err != nil {
			b.Fatal(err)
		}
		n++
	}
	rt.ReadMemStats(&m1)
	total := float64(n) * events
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/event")
	b.ReportMetric(total/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/total, "allocs/event")
}

// BenchBatches measures ApplyBatch on the example data and its inverse cut
// into batches of size events, consolidated (as ApplyBatch applies a batch)
// and in order (InOrder), reporting ns/event and allocs/event: the cost or
// the gain of consolidating. The batches are built outside the timed loop.
func BenchBatches(b *testing.B, newEngine func() runtime.Engine, sizes []int) {
	e := newEngine()
	evs := RoundTrip(b, e)
	for _, size := range sizes {
		for _, mode := range []string{"consolidated", "inorder"} {
			b.Run(fmt.Sprintf("size=%d/%s", size, mode), func(b *testing.B) {
				e := newEngine()
				var batches []runtime.Batch
				for i := 0; i < len(evs); i += size {
					bt := e.NewBatch()
					if mode == "inorder" {
						runtime.InOrder(bt)
					}
					for _, ev := range evs[i:min(i+size, len(evs))] {
						if err := bt.Add(ev.Rel, ev.Insert, ev.Fields); err != nil {
							b.Fatal(err)
						}
					}
					batches = append(batches, bt)
				}
				b.ReportAllocs()
				var m0, m1 rt.MemStats
				rt.ReadMemStats(&m0)
				n := 0
				for b.Loop() {
					for _, bt := range batches {
						if err := e.ApplyBatch(bt); err != nil {
							b.Fatal(err)
						}
					}
					n++
				}
				rt.ReadMemStats(&m1)
				total := float64(n) * float64(len(evs))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/event")
				b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/total, "allocs/event")
			})
		}
	}
}

// TPCHKeys are the key columns of the TPC-H relations that ShiftedCopies
// shifts: orders, customers, parts and suppliers.
var TPCHKeys = map[string][]int{
	"LINEITEM": {0, 1, 2}, "ORDERS": {0, 1}, "CUSTOMER": {0}, "PARTSUPP": {0, 1}, "PART": {0}, "SUPPLIER": {0},
}

// ShiftedCopies returns copies of evs (copy c for c in [from, from+n)),
// each with the key columns keys of its relations (by name, see TPCHKeys)
// shifted by c·10,000,000: disjoint copies of the same data, as toastgen
// bench's -copies makes them.
func ShiftedCopies(tb testing.TB, rels []runtime.Relation, evs []Event, keys map[string][]int, from, n int) []Event {
	var out []Event
	for c := from; c < from+n; c++ {
		for _, ev := range evs {
			fields := ev.Fields
			if c > 0 {
				fields = make([][]byte, len(ev.Fields))
				copy(fields, ev.Fields)
				for _, col := range keys[rels[ev.Rel].Name] {
					if col >= len(fields) {
						continue
					}
					k, err := strconv.ParseInt(string(fields[col]), 10, 64)
					if err != nil {
						tb.Fatal(err)
					}
					fields[col] = strconv.AppendInt(nil, k+int64(c)*10_000_000, 10)
				}
			}
			out = append(out, Event{Rel: ev.Rel, Insert: ev.Insert, Fields: fields})
		}
	}
	return out
}

// BenchPolicies measures ApplyBatch under each policy (runtime.Policy) and
// batch size: an engine holding the events base applies the events work in
// batches of each size, then their inverse in batches of the same size
// (which brings it back to base). ns/event is the time per event of work
// and its inverse; the state's size is reported as entries.
func BenchPolicies(b *testing.B, newEngine func() runtime.Engine, base, work []Event, sizes []int) {
	inverse := Inverse(work)
	for _, size := range sizes {
		for _, p := range []runtime.Policy{runtime.Incremental, runtime.SetAtATime, runtime.Auto} {
			b.Run(fmt.Sprintf("size=%d/%s", size, p), func(b *testing.B) {
				e := newEngine()
				for _, ev := range base {
					if err := e.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
						b.Fatal(err)
					}
				}
				entries := 0
				if c, ok := e.(runtime.EntryCounter); ok {
					entries = c.MapEntries()
				}
				var batches []runtime.Batch
				for _, evs := range [][]Event{work, inverse} {
					for i := 0; i < len(evs); i += size {
						bt := e.NewBatch()
						for _, ev := range evs[i:min(i+size, len(evs))] {
							if err := bt.Add(ev.Rel, ev.Insert, ev.Fields); err != nil {
								b.Fatal(err)
							}
						}
						batches = append(batches, runtime.WithPolicy(bt, p))
					}
				}
				b.ReportAllocs()
				var m0, m1 rt.MemStats
				rt.ReadMemStats(&m0)
				n := 0
				for b.Loop() {
					for _, bt := range batches {
						if err := e.ApplyBatch(bt); err != nil {
							b.Fatal(err)
						}
					}
					n++
				}
				rt.ReadMemStats(&m1)
				total := float64(n) * float64(2*len(work))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/event")
				b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/total, "allocs/event")
				b.ReportMetric(float64(entries), "entries")
			})
		}
	}
}

// StandardTPCH records the events of DBToaster's standard TPC-H data
// (../shared/data/dbtoaster/tpch/standard beside the repository) for the
// relations rels; the benchmark is skipped when the data are missing.
func StandardTPCH(b *testing.B, rels []runtime.Relation) []Event {
	dir := filepath.Join(RepoRoot, "..", "shared", "data", "dbtoaster", "tpch", "standard")
	if _, err := os.Stat(dir); err != nil {
		b.Skip(err)
	}
	all, err := Record(Relocate(rels, dir, false), "")
	if err != nil {
		b.Fatal(err)
	}
	var evs []Event // those of the relations the queries read
	for _, ev := range all {
		if !rels[ev.Rel].Unread {
			evs = append(evs, ev)
		}
	}
	return evs
}
