package runtime

import "sync"

// Guard shares an engine between one goroutine that applies events and
// any number that read views. A generated Engine is not safe for
// concurrent use — its triggers write maps that its accessors read — and
// stays unsynchronized for single-goroutine use at full speed; wrap it in
// a Guard to read it from HTTP handlers while a consumer feeds it:
//
//	g := runtime.NewGuard(sales.New())
//	go func() { // the writer
//		for batch := range batches {
//			g.Update(func(e *sales.Engine) error { return e.ApplyBatch(batch) })
//		}
//	}()
//	http.HandleFunc("/top", func(w http.ResponseWriter, r *http.Request) {
//		g.Read(func(e *sales.Engine) { json.NewEncoder(w).Encode(e.TopCustomers()) })
//	})
//
// Update runs alone; Reads run together, never during an Update, so a
// reader sees the views between two updates — consistent at the
// boundaries of whatever the writer applies in one Update (an event, a
// batch). Readers must not keep iterators (Rows), or the engine itself,
// past their Read: copy what they need (the sorted snapshot methods
// return fresh slices). A long Read delays the writer, and a writer that
// updates without pause can delay readers: apply events in batches.
type Guard[E any] struct {
	mu sync.RWMutex
	e  E
}

// NewGuard returns a Guard over e, which from then on must only be used
// through it.
func NewGuard[E any](e E) *Guard[E] { return &Guard[E]{e: e} }

// Update calls f with the engine, excluding every other Update and Read,
// and returns f's error.
func (g *Guard[E]) Update(f func(E) error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return f(g.e)
}

// Read calls f with the engine while no Update runs; Reads run
// concurrently with each other.
func (g *Guard[E]) Read(f func(E)) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	f(g.e)
}
