package kafka

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/toastgen/toastgen/runtime"
)

// A taskState is the last state of a task read from the state topic: its
// snapshot, restored into an engine (a merger's reader only), and the
// input offsets it covers.
type taskState struct {
	raw  []byte
	e    runtime.Partitioned
	next map[string]int64 // "topic:partition" → the next offset to apply
}

// sourceName names input partition p of topic in a snapshot's sources.
func sourceName(topic string, p int32) string { return topic + ":" + strconv.Itoa(int(p)) }

// covers reports whether next covers at least what old does: every
// offset of old is in next and not below.
func covers(next, old map[string]int64) bool {
	for src, o := range old {
		if n, ok := next[src]; !ok || n < o {
			return false
		}
	}
	return true
}

// stateReader reads the state topic from its start, read committed,
// keeping the last state of each task. A record that covers less than
// the state it would replace (a stale write) is ignored.
type stateReader struct {
	cl     *kgo.Client
	topic  string
	proto  runtime.Partitioned
	latest map[int32]*taskState
	// read is, per partition of the state topic, the offset after the
	// last record read, transaction markers included (the client keeps
	// them for this): the last stable offset once all is read.
	read map[string]int64
	// engines: restore each state into an engine (a merger); a member's
	// reader reads only the offsets, and restores the tasks it runs.
	engines bool
}

func newStateReader(c Config, proto runtime.Partitioned, engines bool) (*stateReader, error) {
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(c.Brokers...),
		kgo.ConsumeTopics(c.StateTopic()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.KeepControlRecords(),
	}, c.Opts...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	return &stateReader{cl: cl, topic: c.StateTopic(), proto: proto, latest: map[int32]*taskState{}, read: map[string]int64{}, engines: engines}, nil
}

// poll reads the state records that are there, waiting for one until ctx
// ends, and reports whether a task's state changed.
func (s *stateReader) poll(ctx context.Context) (changed bool, err error) {
	fs := s.cl.PollFetches(ctx)
	if fs.IsClientClosed() {
		return false, kgo.ErrClientClosed
	}
	fs.EachError(func(topic string, p int32, e error) {
		if err == nil && ctx.Err() == nil {
			err = fmt.Errorf("kafka: reading %s partition %d: %w", topic, p, e)
		}
	})
	if err != nil {
		return false, err
	}
	noteRead(s.read, fs)
	fs.EachRecord(func(r *kgo.Record) {
		if err != nil || r.Attrs.IsControl() { // a transaction's marker
			return
		}
		var c bool
		c, err = s.add(r)
		changed = changed || c
	})
	return changed, err
}

// add reads one state record.
func (s *stateReader) add(r *kgo.Record) (bool, error) {
	p, err := strconv.ParseInt(string(r.Key), 10, 32)
	if err != nil || p < 0 {
		return false, fmt.Errorf("kafka: %s offset %d: key %q is not a partition number", r.Topic, r.Offset, r.Key)
	}
	var st *taskState
	if s.engines {
		st, err = restore(s.proto, r.Value)
	} else {
		st, err = offsetsOf(r.Value)
	}
	if err != nil {
		return false, fmt.Errorf("kafka: %s offset %d (task %d): %w", r.Topic, r.Offset, p, err)
	}
	if old := s.latest[int32(p)]; old != nil && !covers(st.next, old.next) {
		return false, nil // stale: an older state written again
	}
	s.latest[int32(p)] = st
	return true, nil
}

// offsetsOf returns the state of snapshot raw without an engine: the
// offsets it covers.
func offsetsOf(raw []byte) (*taskState, error) {
	h, err := runtime.ReadSnapshotHeader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return &taskState{raw: raw, next: sourceOffsets(h.Sources)}, nil
}

func sourceOffsets(sources []runtime.SourceCount) map[string]int64 {
	next := make(map[string]int64, len(sources))
	for _, sc := range sources {
		next[sc.Relation] = sc.Events
	}
	return next
}

// restore returns a new engine of proto's query holding snapshot raw.
func restore(proto runtime.Partitioned, raw []byte) (*taskState, error) {
	e := proto.NewPartition()
	snap, ok := e.(runtime.Snapshotter)
	if !ok {
		return nil, fmt.Errorf("the engine (%T) does not restore snapshots", e)
	}
	sources, err := snap.RestoreSnapshot(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	return &taskState{raw: raw, e: e, next: sourceOffsets(sources)}, nil
}

// stateWait bounds how long a member reads the state topic for the state
// of a task assigned to it.
const stateWait = 2 * time.Minute

// await returns the state of task p that covers the offsets want, reading
// the topic until it holds one (at most stateWait).
func (s *stateReader) await(ctx context.Context, p int32, want map[string]int64) (*taskState, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, stateWait)
	defer cancel()
	for {
		if st := s.latest[p]; st != nil && covers(st.next, want) {
			return st, nil
		}
		if _, err := s.poll(ctx); err != nil {
			return nil, err
		}
		if err := parent.Err(); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("kafka: the state topic holds no state of task %d covering the group's committed offsets %v after %v (was it deleted, or written under another prefix?)", p, want, stateWait)
		}
	}
}

func (s *stateReader) close() { s.cl.Close() }
