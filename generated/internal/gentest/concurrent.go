package gentest

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toastgen/toastgen/runtime"
)

// CheckConcurrent shares an engine of the package through a runtime.Guard
// between one writer and several readers: the writer applies the example
// data and then its inverse, again and again, in batches of a few events,
// while the readers read every view (Views, which goes through each view's
// accessors) as fast as they can. Every read must equal the views at some
// batch boundary — computed first on another engine, single-threaded — so
// a reader never sees a batch half applied; under go test -race the run
// also proves the reads free of data races.
func CheckConcurrent(t *testing.T, newEngine func() runtime.Engine, rounds int) {
	t.Helper()
	e := newEngine()
	evs := RoundTrip(t, e)
	const size = 3 // events per batch
	var batches []runtime.Batch
	for i := 0; i < len(evs); i += size {
		b := e.NewBatch()
		for _, ev := range evs[i:min(i+size, len(evs))] {
			if err := b.Add(ev.Rel, ev.Insert, ev.Fields); err != nil {
				t.Fatal(err)
			}
		}
		batches = append(batches, b)
	}
	// The states at batch boundaries, on a fresh engine of the package.
	boundaries := map[string]bool{}
	ref := newEngine()
	var buf bytes.Buffer
	encode := func(vs []runtime.View) string {
		buf.Reset()
		runtime.WriteJSON(&buf, vs)
		return buf.String()
	}
	boundaries[encode(ref.Views())] = true
	for _, b := range batches {
		if err := ref.ApplyBatch(b); err != nil {
			t.Fatal(err)
		}
		boundaries[encode(ref.Views())] = true
	}

	g := runtime.NewGuard(e)
	var done atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b bytes.Buffer
			for !done.Load() {
				var vs []runtime.View
				g.Read(func(e runtime.Engine) { vs = e.Views() })
				b.Reset()
				runtime.WriteJSON(&b, vs)
				if !boundaries[b.String()] {
					select {
					case errs <- b.String():
					default:
					}
					return
				}
				reads.Add(1)
			}
		}()
	}
	for range rounds {
		for _, b := range batches {
			if err := g.Update(func(e runtime.Engine) error { return e.ApplyBatch(b) }); err != nil {
				t.Fatal(err)
			}
		}
	}
	done.Store(true)
	wg.Wait()
	close(errs)
	for s := range errs {
		t.Fatalf("a reader saw views that are no batch boundary's:\n%s", s)
	}
	t.Logf("%d batches applied, %d reads", rounds*len(batches), reads.Load())
}
