package gentest

import (
	"fmt"
	rt "runtime"
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
