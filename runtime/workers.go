package runtime

import (
	"errors"
	"fmt"
	"math"
	"sync"
)

// Partitioned engines. When a query file's partition plan
// (calculus.Partition) splits its work, a generated package compiled
// with that plan (codegen.Options.Partition) implements Partitioned: per
// relation a partition column or broadcast, fresh engines of the same
// query, and the merge of several engines' views. Workers runs N such
// engines on N goroutines behind the Engine interface: each event goes to
// the engine its partition column's value hashes to (a broadcast
// relation's to all), in batches, and Views merges the engines' views.

// Broadcast is the partition column of a relation whose events every
// partition gets (PartitionColumns).
const Broadcast = -1

// Partitioned is an engine whose query's work N engines can share.
type Partitioned interface {
	Engine
	// PartitionColumns returns, per relation (in the order of
	// Relations), the index of the column whose value decides the
	// partition of its events, or Broadcast.
	PartitionColumns() []int
	// NewPartition returns a new, empty engine of the same query.
	NewPartition() Partitioned
	// MergeViews returns the views of the union of the partitions' events
	// (parts: engines of this query, each given the events of one
	// partition and those of the broadcast relations), computed from the
	// sum of their view maps. The parts are not changed.
	MergeViews(parts []Partitioned) ([]View, error)
}

// workersChunk is how many events Workers gathers before handing them to
// the engines: large enough that a channel send per worker is noise.
const workersChunk = 4096

// Workers is an Engine that runs n partitions of a Partitioned engine's
// query on n goroutines. Apply routes each event by its partition column
// (parsed as its column type, so that equal values written differently,
// such as 7 and +7, meet in one partition; NULL goes to the first) into
// the partition's pending batch, and hands the batches to the goroutines
// every workersChunk events; they apply them event by event while the
// next chunk is routed. ApplyBatch applies a batch of NewBatch at once on
// all goroutines and waits. Views waits for the pending events and
// returns the merged views. An error of a partition's triggers (an INT
// overflow) is returned by the next Apply, ApplyBatch or Err; a field
// that does not parse is returned by the Apply that routes it.
type Workers struct {
	parts   []Partitioned
	rels    []Relation
	cols    []int
	pending []Batch // per partition: events routed, not yet handed over
	routed  int     // events in pending
	in      []chan Batch
	busy    sync.WaitGroup // batches handed over, not yet applied
	mu      sync.Mutex
	err     error // the first error of a partition's triggers
	stop    sync.Once
}

// NewWorkers returns n partitions of e's query (e, which must be new,
// being the first) running on n goroutines. Close stops the goroutines.
func NewWorkers(e Partitioned, n int) (*Workers, error) {
	if n < 1 {
		return nil, fmt.Errorf("workers: need at least one partition, got %d", n)
	}
	cols := e.PartitionColumns()
	rels := e.Relations()
	if len(cols) != len(rels) {
		return nil, fmt.Errorf("workers: %d partition columns for %d relations", len(cols), len(rels))
	}
	for i, c := range cols {
		if c != Broadcast && (c < 0 || c >= len(rels[i].Columns)) {
			return nil, fmt.Errorf("workers: relation %s has no column %d", rels[i].Name, c)
		}
	}
	w := &Workers{rels: rels, cols: cols}
	for i := range n {
		p := e
		if i > 0 {
			p = e.NewPartition()
		}
		w.parts = append(w.parts, p)
		w.pending = append(w.pending, InOrder(p.NewBatch()))
		ch := make(chan Batch, 1)
		w.in = append(w.in, ch)
		go w.work(p, ch)
	}
	return w, nil
}

// work applies the batches handed to one partition, in order.
func (w *Workers) work(p Partitioned, in <-chan Batch) {
	for b := range in {
		if w.Err() == nil {
			if err := p.ApplyBatch(b); err != nil {
				w.fail(err)
			}
		}
		w.busy.Done()
	}
}

func (w *Workers) fail(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

// Err returns the first error of a partition's triggers.
func (w *Workers) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Partitions returns the number of partitions.
func (w *Workers) Partitions() int { return len(w.parts) }

// Relations returns the query's relations.
func (w *Workers) Relations() []Relation { return w.rels }

// Apply routes one event to its partition (a broadcast relation's to
// every partition).
func (w *Workers) Apply(rel int, insert bool, fields [][]byte) error {
	if err := w.Err(); err != nil {
		return err
	}
	if rel < 0 || rel >= len(w.rels) {
		return fmt.Errorf("workers: no relation %d", rel)
	}
	if err := w.route(w.pending, rel, insert, fields); err != nil {
		return err
	}
	if w.routed++; w.routed >= workersChunk {
		w.handOver()
	}
	return nil
}

// route adds the event to the batch of its partition in bs.
func (w *Workers) route(bs []Batch, rel int, insert bool, fields [][]byte) error {
	c := w.cols[rel]
	if c == Broadcast {
		for _, b := range bs {
			if err := b.Add(rel, insert, fields); err != nil {
				return err
			}
		}
		return nil
	}
	if c >= len(fields) {
		// The batch reports the missing field.
		return bs[0].Add(rel, insert, fields)
	}
	return bs[partitionOf(w.rels[rel].Columns[c], fields[c], len(bs))].Add(rel, insert, fields)
}

// handOver gives every partition its pending events.
func (w *Workers) handOver() {
	for i, b := range w.pending {
		if b.Len() == 0 {
			continue
		}
		w.busy.Add(1)
		w.in[i] <- b
		w.pending[i] = InOrder(w.parts[i].NewBatch())
	}
	w.routed = 0
}

// wait hands over the pending events and waits until every partition has
// applied what it was given.
func (w *Workers) wait() error {
	w.handOver()
	w.busy.Wait()
	return w.Err()
}

// NewBatch returns a batch that routes its events to the partitions.
func (w *Workers) NewBatch() Batch {
	b := &workersBatch{w: w}
	for _, p := range w.parts {
		b.parts = append(b.parts, p.NewBatch())
	}
	return b
}

// ApplyBatch applies a batch of NewBatch on every partition at once,
// after the events Apply routed before it.
func (w *Workers) ApplyBatch(b Batch) error {
	wb, ok := b.(*workersBatch)
	if !ok || wb.w != w {
		return errors.New("workers: ApplyBatch of a batch that is not this engine's")
	}
	if err := w.wait(); err != nil {
		return err
	}
	for i, pb := range wb.parts {
		if pb.Len() > 0 {
			w.busy.Add(1)
			w.in[i] <- pb
		}
	}
	w.busy.Wait()
	return w.Err()
}

// Views waits for the events routed so far and returns the partitions'
// merged views (nil after an error: see Err).
func (w *Workers) Views() []View {
	if w.wait() != nil {
		return nil
	}
	vs, err := w.parts[0].MergeViews(w.parts)
	if err != nil {
		w.fail(err)
		return nil
	}
	return vs
}

// MapEntries returns the number of entries of the partitions' keyed maps.
func (w *Workers) MapEntries() int {
	_ = w.wait()
	n := 0
	for _, p := range w.parts {
		if c, ok := p.(EntryCounter); ok {
			n += c.MapEntries()
		}
	}
	return n
}

// Close waits for the pending events and stops the goroutines; the
// Workers must not be used after.
func (w *Workers) Close() error {
	err := w.wait()
	w.stop.Do(func() {
		for _, ch := range w.in {
			close(ch)
		}
	})
	return err
}

// workersBatch is a batch of Workers: one batch per partition.
type workersBatch struct {
	w     *Workers
	parts []Batch
	n     int
}

func (b *workersBatch) Add(rel int, insert bool, fields [][]byte) error {
	if rel < 0 || rel >= len(b.w.rels) {
		return fmt.Errorf("workers: no relation %d", rel)
	}
	if err := b.w.route(b.parts, rel, insert, fields); err != nil {
		return err
	}
	b.n++
	return nil
}

// Len is the number of events added (a broadcast event counts once).
func (b *workersBatch) Len() int { return b.n }

// InOrder marks every partition's batch to be applied event by event.
func (b *workersBatch) InOrder() {
	for _, p := range b.parts {
		InOrder(p)
	}
}

// SetPolicy sets the policy of every partition's batch.
func (b *workersBatch) SetPolicy(p Policy) {
	for _, pb := range b.parts {
		WithPolicy(pb, p)
	}
}

// partitionOf returns the partition, of n, of a field of column c: a hash
// of its parsed value, so that the values a join equates meet. A field
// that is NULL or does not parse goes to partition 0 (the batch reports
// the latter).
func partitionOf(c Column, f []byte, n int) int {
	if n == 1 || c.Nullable && IsNullField(f, c.Type) {
		return 0
	}
	var h uint64
	switch c.Type {
	case Int:
		v, err := ParseInt(f)
		if err != nil {
			return 0
		}
		h = mix64(uint64(v))
	case Float:
		v, err := ParseFloat(f)
		if err != nil {
			return 0
		}
		// An integral value hashes as the INT it equals (an INT column
		// may be equated with a FLOAT one); -0 is 0.
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			h = mix64(uint64(int64(v)))
		} else {
			h = mix64(math.Float64bits(v))
		}
	case DateType:
		v, err := ParseDate(f)
		if err != nil {
			return 0
		}
		h = mix64(uint64(v))
	default:
		h = 14695981039346656037 // FNV-1a
		for _, b := range f {
			h = (h ^ uint64(b)) * 1099511628211
		}
		h = mix64(h)
	}
	return int(h % uint64(n))
}

// mix64 is SplitMix64's finalizer: consecutive keys spread evenly.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
