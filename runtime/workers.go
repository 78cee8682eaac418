package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Partitioned engines. When a query file's partition plan
// (calculus.Partition) splits its work, a generated package compiled
// with that plan (codegen.Options.Partition) implements Partitioned: per
// relation a partition column or broadcast, fresh engines of the same
// query, and the merge of several engines' views. Workers runs N such
// engines on N goroutines behind the Engine interface: each event goes to
// the engine its partition column's value is assigned to (a broadcast
// relation's to all), in chunks, and Views merges the engines' views.

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
// (partitionOf: its value parsed as its column type, so that equal values
// written differently, such as 7 and +7, meet in one partition): it
// copies the event's fields into the partition's pending chunk and hands
// the chunks to the goroutines every workersChunk events, which parse
// and apply them event by event while the next chunk is routed. A field
// that does not parse or an INT overflow stops the run: the error (of
// the first partition that meets one, positioned at its file and line
// when Replay feeds the events) is returned by a later Apply, by
// ApplyBatch, or by Err after Views. ApplyBatch applies a batch of
// NewBatch (parsed when added) on all goroutines at once and waits.
// Views waits for the pending events and returns the merged views.
type Workers struct {
	parts   []Partitioned
	rels    []Relation
	cols    []int
	pending []*rawEvents // per partition: events routed, not yet handed over
	free    []chan *rawEvents
	routed  int // events in pending
	in      []chan work
	busy    sync.WaitGroup // work handed over, not yet done
	mu      sync.Mutex
	err     error       // the first error of a partition
	failed  atomic.Bool // err is set (read per event, without the lock)
	stop    sync.Once
	// The position of the event Apply routes (notePosition), and each
	// relation's file (written under mu: partitions read it).
	at   string
	line int
	path []string
	// dealt: the partition of each value dealt out (partitionOf).
	dealt map[uint64]int32
}

// work is what a partition's goroutine is handed: raw events to parse
// and apply (Apply's), or a parsed batch (ApplyBatch's).
type work struct {
	raw   *rawEvents
	batch Batch
}

// rawEvents are events as fields, copied out of the reader's buffers.
type rawEvents struct {
	rel   []int32
	ins   []bool
	line  []int32
	first []int32 // per event: its first field's index in ends
	ends  []int32 // per field: its end in data
	data  []byte
}

func (r *rawEvents) add(rel int, insert bool, fields [][]byte, line int) {
	r.rel = append(r.rel, int32(rel))
	r.ins = append(r.ins, insert)
	r.line = append(r.line, int32(line))
	r.first = append(r.first, int32(len(r.ends)))
	// One growth of each slice, then plain copies: the router's cost per
	// event is most of what Workers adds.
	at, size := len(r.data), len(r.data)
	for _, f := range fields {
		size += len(f)
	}
	r.data = slices.Grow(r.data, size-at)[:size]
	k := len(r.ends)
	r.ends = slices.Grow(r.ends, len(fields))[:k+len(fields)]
	for i, f := range fields {
		at += copy(r.data[at:], f)
		r.ends[k+i] = int32(at)
	}
}

func (r *rawEvents) reset() {
	r.rel, r.ins, r.line, r.first, r.ends, r.data = r.rel[:0], r.ins[:0], r.line[:0], r.first[:0], r.ends[:0], r.data[:0]
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
	w := &Workers{rels: rels, cols: cols, path: make([]string, len(rels)), dealt: map[uint64]int32{}}
	for i := range n {
		p := e
		if i > 0 {
			p = e.NewPartition()
		}
		w.parts = append(w.parts, p)
		w.pending = append(w.pending, &rawEvents{})
		w.free = append(w.free, make(chan *rawEvents, 2))
		ch := make(chan work, 1)
		w.in = append(w.in, ch)
		go w.work(p, ch, w.free[i])
	}
	return w, nil
}

// work applies what partition p is handed, in order, and passes the
// chunks it is done with to free.
func (w *Workers) work(p Partitioned, in <-chan work, free chan<- *rawEvents) {
	var fields [][]byte
	for wk := range in {
		if wk.batch != nil {
			if w.Err() == nil {
				if err := p.ApplyBatch(wk.batch); err != nil {
					w.fail(err)
				}
			}
			w.busy.Done()
			continue
		}
		r := wk.raw
		for j := 0; j < len(r.rel) && w.Err() == nil; j++ {
			from, to := r.first[j], int32(len(r.ends))
			if j+1 < len(r.first) {
				to = r.first[j+1]
			}
			fields = fields[:0]
			start := int32(0)
			if from > 0 {
				start = r.ends[from-1]
			}
			for _, end := range r.ends[from:to] {
				fields = append(fields, r.data[start:end:end])
				start = end
			}
			if err := p.Apply(int(r.rel[j]), r.ins[j], fields); err != nil {
				if path := w.pathOf(int(r.rel[j])); path != "" {
					err = positionError(path, int(r.line[j]), err)
				}
				w.fail(err)
			}
		}
		r.reset()
		select {
		case free <- r:
		default:
		}
		w.busy.Done()
	}
}

func (w *Workers) pathOf(rel int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.path[rel]
}

// notePosition records the file and line of the next event Apply routes.
func (w *Workers) notePosition(path string, line int) {
	w.at, w.line = path, line
}

func (w *Workers) fail(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
		w.failed.Store(true)
	}
	w.mu.Unlock()
}

// Err returns the first error of a partition.
func (w *Workers) Err() error {
	if !w.failed.Load() {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Partitions returns the number of partitions.
func (w *Workers) Partitions() int { return len(w.parts) }

// Relations returns the query's relations.
func (w *Workers) Relations() []Relation { return w.rels }

// Apply routes one event to its partition (a broadcast relation's to
// every partition); the partition parses and applies it later.
func (w *Workers) Apply(rel int, insert bool, fields [][]byte) error {
	if err := w.Err(); err != nil {
		return err
	}
	if rel < 0 || rel >= len(w.rels) {
		return fmt.Errorf("workers: no relation %d", rel)
	}
	if w.at != "" && w.path[rel] == "" { // a relation has one file
		w.mu.Lock()
		w.path[rel] = w.at
		w.mu.Unlock()
	}
	if p := w.route(rel, fields); p >= 0 {
		w.pending[p].add(rel, insert, fields, w.line)
	} else {
		for _, r := range w.pending {
			r.add(rel, insert, fields, w.line)
		}
	}
	if w.routed++; w.routed >= workersChunk {
		w.handOver()
	}
	return nil
}

// handOver gives every partition its pending events.
func (w *Workers) handOver() {
	for i, r := range w.pending {
		if len(r.rel) == 0 {
			continue
		}
		w.busy.Add(1)
		w.in[i] <- work{raw: r}
		select {
		case w.pending[i] = <-w.free[i]:
		default:
			w.pending[i] = &rawEvents{}
		}
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
			w.in[i] <- work{batch: pb}
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
	targets := b.parts
	if p := b.w.route(rel, fields); p >= 0 {
		targets = b.parts[p : p+1]
	}
	for _, pb := range targets {
		if err := pb.Add(rel, insert, fields); err != nil {
			return err
		}
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

// route returns the partition of an event of relation rel, or -1 when
// every partition gets it (a broadcast relation). An event without its
// partition column goes to the first, whose engine reports it.
func (w *Workers) route(rel int, fields [][]byte) int {
	switch c := w.cols[rel]; {
	case c == Broadcast:
		return -1
	case c >= len(fields):
		return 0
	default:
		return w.partitionOf(rel, fields[c])
	}
}

// workersDealt is how many distinct partition values Workers deals out
// in turn before it hashes the others: a partition column of a few values
// (ten brokers, 25 nations) hashed to two partitions is often split 8 to
// 2; dealt in order of appearance, it is split 5 to 5.
const workersDealt = 1 << 12

// partitionOf returns the partition of an event of relation rel whose
// partition column holds field f. The first workersDealt distinct values
// are dealt to the partitions in turn as they appear, the others go by
// their hash; a field that is NULL or does not parse goes to the first
// (its engine reports the latter).
func (w *Workers) partitionOf(rel int, f []byte) int {
	n := len(w.parts)
	h, ok := keyHash(w.rels[rel].Columns[w.cols[rel]], f)
	if n == 1 || !ok {
		return 0
	}
	if p, ok := w.dealt[h]; ok {
		return int(p)
	}
	if len(w.dealt) < workersDealt {
		p := len(w.dealt) % n
		w.dealt[h] = int32(p)
		return p
	}
	return int(h % uint64(n))
}

// keyHash returns a hash of the value of a field of column c, parsed as
// its type, so that the values a join equates (7 and +7; 7 and 7.0 in a
// FLOAT column; -0 and 0) hash alike; ok is false for NULL and for a
// field that does not parse.
func keyHash(c Column, f []byte) (h uint64, ok bool) {
	if c.Nullable && IsNullField(f, c.Type) {
		return 0, false
	}
	switch c.Type {
	case Int:
		v, err := ParseInt(f)
		if err != nil {
			return 0, false
		}
		return mix64(uint64(v)), true
	case Float:
		v, err := ParseFloat(f)
		if err != nil {
			return 0, false
		}
		// An integral value hashes as the INT it equals (an INT column
		// may be equated with a FLOAT one); -0 is 0.
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			return mix64(uint64(int64(v))), true
		}
		return mix64(math.Float64bits(v)), true
	case DateType:
		v, err := ParseDate(f)
		if err != nil {
			return 0, false
		}
		return mix64(uint64(v)), true
	}
	h = 14695981039346656037 // FNV-1a
	for _, b := range f {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return mix64(h), true
}

// PartitionKey returns the canonical text of a field of column c, the
// key under which a producer publishes an event whose partition column
// holds it (runtime/kafka): the values a join equates are written alike,
// as keyHash hashes them alike — an INT in decimal without sign or zeros
// that do not count, an integral FLOAT as the INT it equals, another
// FLOAT in the shortest form that reads back to it, a DATE as
// yyyy-mm-dd, a STRING as it is. NULL is `\N`. ok is false for a field
// that does not parse.
func PartitionKey(c Column, f []byte) (key []byte, ok bool) {
	if c.Nullable && IsNullField(f, c.Type) {
		return []byte(`\N`), true
	}
	switch c.Type {
	case Int:
		v, err := ParseInt(f)
		if err != nil {
			return nil, false
		}
		return strconv.AppendInt(nil, v, 10), true
	case Float:
		v, err := ParseFloat(f)
		if err != nil {
			return nil, false
		}
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			return strconv.AppendInt(nil, int64(v), 10), true
		}
		return strconv.AppendFloat(nil, v, 'g', -1, 64), true
	case DateType:
		v, err := ParseDate(f)
		if err != nil {
			return nil, false
		}
		return []byte(v.String()), true
	}
	return bytes.Clone(f), true
}

// mix64 is SplitMix64's finalizer: consecutive keys spread evenly.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
