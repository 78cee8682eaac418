package kafka

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/toastgen/toastgen/runtime"
)

// A Merger keeps the views of the whole stream: it reads the tasks'
// committed states from the state topic and merges their engines' views
// (runtime.Partitioned.MergeViews). Poll reads; Views, Offsets and the
// change callback may be used from other goroutines.
type Merger struct {
	proto  runtime.Partitioned
	states *stateReader
	// broadcast holds the topics of the broadcast relations: every task
	// reads them.
	broadcast map[string]bool

	mu       sync.Mutex
	views    []runtime.View
	offsets  map[string]int64
	tasks    int
	onChange func(runtime.Change)
}

// NewMerger returns a merger of the states of e's query's tasks under
// cfg (which needs no group or name).
func NewMerger(cfg Config, e runtime.Partitioned) (*Merger, error) {
	states, err := newStateReader(cfg, e, true)
	if err != nil {
		return nil, err
	}
	m := &Merger{proto: e, states: states, broadcast: map[string]bool{}}
	for i, r := range e.Relations() {
		if e.PartitionColumns()[i] == runtime.Broadcast {
			m.broadcast[cfg.Topic(r)] = true
		}
	}
	m.views, err = m.merge()
	if err != nil {
		states.close()
		return nil, err
	}
	return m, nil
}

// Poll reads the state records there are, waiting for one until ctx
// ends, and merges the views again when a task's state changed; the
// change callback (OnChanges) gets the merged views' changes.
func (m *Merger) Poll(ctx context.Context) error {
	changed, err := m.states.poll(ctx)
	if err != nil || !changed {
		return err
	}
	views, err := m.merge()
	if err != nil {
		return err
	}
	nexts := make([]map[string]int64, 0, len(m.states.latest))
	for _, st := range m.states.latest {
		nexts = append(nexts, st.next)
	}
	offsets := covered(nexts, m.broadcast)
	m.mu.Lock()
	old, f := m.views, m.onChange
	m.views, m.offsets, m.tasks = views, offsets, len(m.states.latest)
	m.mu.Unlock()
	if f != nil {
		runtime.DiffViews(old, views, f)
	}
	return nil
}

// covered returns the offsets that views merged from tasks whose states
// hold next offsets nexts cover (see Offsets): per partition of a
// partitioned topic its task's, per partition of a broadcast topic the
// least of every task's, 0 for a task whose state holds none of it yet.
func covered(nexts []map[string]int64, broadcast map[string]bool) map[string]int64 {
	bsrcs := map[string]bool{}
	for _, next := range nexts {
		for src := range next {
			if topic, _, _ := strings.Cut(src, ":"); broadcast[topic] {
				bsrcs[src] = true
			}
		}
	}
	offsets := map[string]int64{}
	for _, next := range nexts {
		for src, o := range next {
			if old, ok := offsets[src]; !bsrcs[src] && (!ok || o < old) {
				offsets[src] = o
			}
		}
		for src := range bsrcs {
			if old, ok := offsets[src]; !ok || next[src] < old {
				offsets[src] = next[src]
			}
		}
	}
	return offsets
}

// CatchUp reads the state topic up to its end at the call: afterwards the
// views merge every state committed before the call (a Poll whose wait
// ends before the first records arrive says nothing of that).
func (m *Merger) CatchUp(ctx context.Context) error {
	ends, err := endOffsets(ctx, m.states.cl, []string{m.states.topic})
	if err != nil {
		return err
	}
	for !readTo(m.states.read, ends) {
		if err := m.Poll(ctx); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// merge merges the tasks' last states.
func (m *Merger) merge() ([]runtime.View, error) {
	parts := make([]runtime.Partitioned, 0, len(m.states.latest))
	for _, p := range slices.Sorted(maps.Keys(m.states.latest)) {
		parts = append(parts, m.states.latest[p].e)
	}
	if len(parts) == 0 {
		parts = append(parts, m.proto.NewPartition())
	}
	return m.proto.MergeViews(parts)
}

// Tasks returns how many tasks' states the views merge.
func (m *Merger) Tasks() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tasks
}

// Views returns the merged views after the last Poll (shared: callers
// must not change them).
func (m *Merger) Views() []runtime.View {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.views
}

// Offsets returns, per input partition ("topic:partition"), the next
// offset that the merged views do not cover: they are the views of the
// records below these offsets, each counted once, when every task has
// read its broadcast topics as far (for a broadcast partition it is the
// least offset of the tasks', 0 for a task whose state holds none of it).
func (m *Merger) Offsets() map[string]int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.offsets)
}

// OnChanges makes Poll call f with every row change of the merged views
// (nil: no calls).
func (m *Merger) OnChanges(f func(runtime.Change)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onChange = f
}

// Close closes the merger's client.
func (m *Merger) Close() { m.states.close() }
