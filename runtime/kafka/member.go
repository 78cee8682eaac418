package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/toastgen/toastgen/runtime"
)

// A Member is one process of a consumer group that maintains a query's
// views on Kafka: it runs an engine per task (a partition number of the
// input topics) assigned to it and commits their states with the
// consumer offsets, exactly once (see the package doc).
type Member struct {
	cfg    Config
	proto  runtime.Partitioned
	topics []string // the partitioned relations' input topics
	cols   []int    // per relation, its partition column (runtime.Broadcast: none)
	// keyed gives the partition of a key as Kafka's default partitioner
	// does, over nparts partitions (checkTopics).
	keyed  kgo.TopicPartitioner
	nparts int
	relOf  map[string]int // input topic → relation index
	sess   *kgo.GroupTransactSession
	states *stateReader
	// bcast reads the broadcast relations' topics (nil: none), every
	// partition, from the start and only forward; blog keeps the records
	// read, in order, so that a task restored from an older state or
	// rolled back applies those it has not (broadcast relations are
	// small: dimension tables).
	bcast   *kgo.Client
	btopics []string
	blog    []*kgo.Record

	mu       sync.Mutex // guards tasks and assigned against the rebalance callbacks
	tasks    map[int32]*task
	assigned map[int32]bool // the partition numbers assigned to this member
	// read is, per input partition ("topic:partition") this member reads,
	// the offset after the last record polled, transaction markers
	// included: with exitIdle, the member stops only once it has read
	// each to its end.
	read map[string]int64

	exitIdle time.Duration // Run returns once no record has arrived for this long (0: never)

	// Test hooks: apply every polled batch twice (a redelivery); abort
	// every n-th transaction instead of committing it.
	deliverTwice bool
	abortEvery   int
	crashAfter   atomic.Int64 // when set, stop (the transaction open) once that many more records are applied
	txns         int
	stats        memberStats
}

// memberStats counts what a member did (the tests read them).
type memberStats struct {
	applied, redelivered int // records applied; skipped, as applied before
	commits, aborts      int // transactions
	restored             int // tasks restored from the state topic
}

// errCrash stops a member in the middle of a transaction (a test hook).
var errCrash = errors.New("crashed")

// endTimeout bounds the end of a transaction once the member stops.
const endTimeout = 10 * time.Second

// A task is the engine of one partition number and what it has applied.
type task struct {
	part      int32
	e         runtime.Partitioned
	next      map[string]int64 // "topic:partition" → next offset to apply
	committed []byte           // the snapshot last committed (nil: none, the engine starts empty)
	pending   []byte           // the snapshot published in the open transaction
	changes   []runtime.Change // since the last publication
	dirty     bool             // applied records since the last publication
}

// NewMember returns a member of group cfg.Group that maintains the views
// of e's query (e itself is only the prototype of the tasks' engines).
// Its tasks read the broadcast relations' topics in full.
func NewMember(cfg Config, e runtime.Partitioned) (*Member, error) {
	if cfg.Name == "" || cfg.Group == "" {
		return nil, errors.New("kafka: a member needs a group and a name")
	}
	if _, ok := e.NewPartition().(runtime.Snapshotter); !ok {
		return nil, fmt.Errorf("kafka: the engine (%T) does not write snapshots", e)
	}
	m := &Member{cfg: cfg, proto: e, relOf: map[string]int{}, tasks: map[int32]*task{}, assigned: map[int32]bool{}, read: map[string]int64{},
		cols: e.PartitionColumns(), keyed: kgo.StickyKeyPartitioner(nil).ForTopic("")}
	for i, r := range e.Relations() {
		if r.Unread {
			continue
		}
		m.relOf[cfg.Topic(r)] = i
		if e.PartitionColumns()[i] == runtime.Broadcast {
			m.btopics = append(m.btopics, cfg.Topic(r))
		} else {
			m.topics = append(m.topics, cfg.Topic(r))
		}
	}
	if len(m.topics) == 0 {
		return nil, errors.New("kafka: the query's partition plan partitions no relation: it runs on one engine")
	}
	states, err := newStateReader(cfg, e, false)
	if err != nil {
		return nil, err
	}
	m.states = states
	if len(m.btopics) > 0 {
		m.bcast, err = kgo.NewClient(append([]kgo.Opt{
			kgo.SeedBrokers(cfg.Brokers...),
			kgo.ConsumeTopics(m.btopics...),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
			kgo.FetchIsolationLevel(kgo.ReadCommitted()),
			kgo.KeepControlRecords(),
		}, cfg.Opts...)...)
		if err != nil {
			states.close()
			return nil, err
		}
	}
	drop := func(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, ps := range lost {
			for _, p := range ps {
				delete(m.tasks, p)
				delete(m.assigned, p)
				for _, topic := range m.topics {
					delete(m.read, sourceName(topic, p))
				}
			}
		}
	}
	assign := func(_ context.Context, _ *kgo.Client, got map[string][]int32) {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, ps := range got {
			for _, p := range ps {
				m.assigned[p] = true
			}
		}
	}
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(cfg.Brokers...),
		kgo.ConsumerGroup(cfg.Group),
		kgo.ConsumeTopics(m.topics...),
		kgo.TransactionalID(cfg.Group + "." + cfg.Name),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.KeepControlRecords(),           // see read
		kgo.Balancers(kgo.RangeBalancer()), // partition p of every topic to one member
		kgo.BlockRebalanceOnPoll(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.OnPartitionsAssigned(assign),
		kgo.OnPartitionsRevoked(drop),
		kgo.OnPartitionsLost(drop),
	}, cfg.Opts...)
	sess, err := kgo.NewGroupTransactSession(opts...)
	if err != nil {
		states.close()
		if m.bcast != nil {
			m.bcast.Close()
		}
		return nil, err
	}
	m.sess = sess
	return m, nil
}

// Run consumes, applies and commits until ctx ends (it then returns
// nil) or an error: a record that is not an event of its relation, an
// engine error, a Kafka error. The open transaction is aborted.
func (m *Member) Run(ctx context.Context) error {
	if err := m.checkTopics(ctx); err != nil {
		return err
	}
	last := time.Now()            // of the last record
	var lastPartitioned time.Time // of the last record of a partitioned topic
	for {
		// With broadcast topics the group's poll waits briefly, so that
		// their records do not wait for a partitioned one.
		pctx, cancel := ctx, context.CancelFunc(func() {})
		switch {
		case m.bcast != nil:
			pctx, cancel = context.WithTimeout(ctx, broadcastWait)
		case m.exitIdle > 0:
			pctx, cancel = context.WithTimeout(ctx, m.exitIdle)
		}
		fs := m.sess.PollRecords(pctx, m.cfg.commitEvery())
		cancel()
		if ctx.Err() != nil || fs.IsClientClosed() {
			return nil
		}
		err := fetchErr(fs)
		var bs kgo.Fetches
		if m.bcast != nil && err == nil {
			bctx, cancel := context.WithTimeout(ctx, time.Millisecond)
			bs = m.bcast.PollRecords(bctx, m.cfg.commitEvery())
			cancel()
			err = fetchErr(bs)
		}
		m.mu.Lock()
		noteRead(m.read, fs)
		noteRead(m.read, bs)
		m.mu.Unlock()
		if err != nil {
			m.sess.AllowRebalance()
			return err
		}
		if err := m.startTasks(ctx); err != nil {
			m.sess.AllowRebalance()
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if events(fs) == 0 {
			// Broadcast records alone are applied at once but
			// committed with the next partitioned batch, or once the
			// partitioned topics have been quiet for broadcastQuiet: a
			// transaction that commits no consumer offset holds the
			// next one for 500 ms (see the package doc).
			if events(bs) > 0 {
				last = time.Now()
				m.mu.Lock()
				err := m.applyBroadcast(bs)
				m.mu.Unlock()
				if err != nil {
					m.sess.AllowRebalance()
					return err
				}
			}
			if !m.uncommitted() || time.Since(lastPartitioned) < broadcastQuiet {
				m.sess.AllowRebalance()
				if m.exitIdle > 0 && time.Since(last) >= m.exitIdle && !m.uncommitted() {
					drained, err := m.drained(ctx)
					if err != nil || drained {
						return err
					}
					last = time.Now() // idle, but not at the end: a fetch is slow
				}
				continue
			}
			bs = nil
		} else {
			last, lastPartitioned = time.Now(), time.Now()
		}
		if err := m.transact(ctx, fs, bs); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// checkTopics checks that the partitioned topics exist and have equal
// partition counts: otherwise the events that join would not meet in one
// task, and the views would be silently wrong.
func (m *Member) checkTopics(ctx context.Context) error {
	req := kmsg.NewPtrMetadataRequest()
	for _, topic := range m.topics {
		t := kmsg.NewMetadataRequestTopic()
		t.Topic = kmsg.StringPtr(topic)
		req.Topics = append(req.Topics, t)
	}
	resp, err := req.RequestWith(ctx, m.sess.Client())
	if err != nil {
		return fmt.Errorf("kafka: reading the topics' metadata: %w", err)
	}
	counts := map[string]int{}
	for _, t := range resp.Topics {
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
			return fmt.Errorf("kafka: topic %s: %w", *t.Topic, err)
		}
		counts[*t.Topic] = len(t.Partitions)
	}
	for _, topic := range m.topics {
		if n, first := counts[topic], counts[m.topics[0]]; n != first {
			return fmt.Errorf("kafka: topic %s has %d partitions and %s %d: the topics of partitioned relations must have equal partition counts", topic, n, m.topics[0], first)
		}
	}
	m.nparts = counts[m.topics[0]]
	return nil
}

// broadcastQuiet is how long a member keeps broadcast records applied
// but not committed while no partitioned record arrives.
const broadcastQuiet = 500 * time.Millisecond

// broadcastWait is how long a member with broadcast topics waits for
// partitioned records before it looks at the broadcast ones.
const broadcastWait = 100 * time.Millisecond

// fetchErr returns the first error of fs but the end of a poll's wait.
func fetchErr(fs kgo.Fetches) (err error) {
	fs.EachError(func(topic string, p int32, e error) {
		if err == nil && !errors.Is(e, context.DeadlineExceeded) && !errors.Is(e, context.Canceled) {
			err = fmt.Errorf("kafka: reading %s partition %d: %w", topic, p, e)
		}
	})
	return err
}

// transact applies one polled batch (fs of the partitioned topics, bs of
// the broadcast ones) and commits it with the tasks' states, or rolls
// the tasks back when the transaction aborts.
func (m *Member) transact(ctx context.Context, fs, bs kgo.Fetches) error {
	defer m.sess.AllowRebalance()
	if err := m.sess.Begin(); err != nil {
		return err
	}
	m.mu.Lock()
	err := m.applyBroadcast(bs)
	if err == nil {
		err = m.apply(ctx, fs)
	}
	if err == nil && m.deliverTwice {
		if err = m.applyBroadcast(bs); err == nil {
			err = m.apply(ctx, fs)
		}
	}
	var recs []*kgo.Record
	if err == nil {
		recs, err = m.publication()
	}
	m.mu.Unlock()
	if err == nil {
		err = m.sess.ProduceSync(ctx, recs...).FirstErr()
	}
	m.txns++
	try := kgo.TryCommit
	if err != nil || m.abortEvery > 0 && m.txns%m.abortEvery == 0 {
		try = kgo.TryAbort
	}
	// End even when ctx has ended: an open transaction would hold the
	// task's offsets until the broker times it out.
	endCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endTimeout)
	defer cancel()
	if ctx.Err() != nil {
		try = kgo.TryAbort
	}
	committed, endErr := m.sess.End(endCtx, try)
	m.mu.Lock()
	defer m.mu.Unlock()
	if committed {
		m.stats.commits++
		for _, t := range m.tasks {
			if t.pending != nil {
				t.committed, t.pending = t.pending, nil
			}
		}
		return errors.Join(err, endErr)
	}
	m.stats.aborts++
	// Aborted: the session rewinds the consumer to the committed
	// offsets, so every task goes back to its committed state, and what
	// was read of the partitioned topics is read again.
	for src := range m.read {
		if topic, _, _ := strings.Cut(src, ":"); slices.Contains(m.topics, topic) {
			delete(m.read, src)
		}
	}
	for _, t := range m.tasks {
		rerr := t.rollback(m.proto)
		if rerr == nil {
			rerr = m.catchUp(t)
		}
		if rerr != nil && err == nil {
			err = rerr
		}
	}
	return errors.Join(err, endErr)
}

// apply applies the records of fs to their tasks.
func (m *Member) apply(ctx context.Context, fs kgo.Fetches) error {
	var err error
	fs.EachRecord(func(r *kgo.Record) {
		if err != nil || r.Attrs.IsControl() {
			return
		}
		rel, ok := m.relOf[r.Topic]
		if !ok || !slices.Contains(m.topics, r.Topic) {
			return
		}
		var t *task
		if t, err = m.task(ctx, r.Partition); err != nil {
			return
		}
		err = m.applyTo(t, rel, r)
	})
	return err
}

// applyBroadcast applies the records of bs to every task.
func (m *Member) applyBroadcast(bs kgo.Fetches) error {
	var err error
	order := slices.Sorted(maps.Keys(m.tasks)) // the tasks do not change in the batch
	bs.EachRecord(func(r *kgo.Record) {
		if err != nil || r.Attrs.IsControl() {
			return
		}
		m.blog = append(m.blog, r)
		for _, p := range order {
			if err = m.applyTo(m.tasks[p], m.relOf[r.Topic], r); err != nil {
				return
			}
		}
	})
	return err
}

// applyTo applies record r, an event of relation rel, to task t unless
// t has applied it before.
func (m *Member) applyTo(t *task, rel int, r *kgo.Record) error {
	src := sourceName(r.Topic, r.Partition)
	if next, ok := t.next[src]; ok && r.Offset < next {
		m.stats.redelivered++
		return nil // applied before: a redelivery
	}
	insert, fields, err := event(r)
	if err == nil {
		err = m.checkKey(rel, r, fields)
	}
	if err == nil {
		err = t.e.Apply(rel, insert, fields)
	}
	if err != nil {
		return fmt.Errorf("kafka: %s partition %d offset %d: %w", r.Topic, r.Partition, r.Offset, err)
	}
	t.next[src] = r.Offset + 1
	t.dirty = true
	m.stats.applied++
	if m.crashAfter.Load() > 0 && m.crashAfter.Add(-1) == 0 {
		return errCrash
	}
	return nil
}

// startTasks starts the tasks assigned that are not running: a task
// must read the broadcast records even while its partitions have none.
func (m *Member) startTasks(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range slices.Sorted(maps.Keys(m.assigned)) {
		if _, err := m.task(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// uncommitted reports whether a task applied records outside a
// transaction (broadcast records alone, or catchUp after a restore or a
// rollback): its state is yet to be committed.
func (m *Member) uncommitted() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.tasks {
		if t.dirty {
			return true
		}
	}
	return false
}

// drained reports whether the member has read every partition it reads
// to its end: the partitions of the partitioned topics assigned to it
// (from the group's committed offset, if above what it read) and every
// partition of the broadcast topics.
func (m *Member) drained(ctx context.Context) (bool, error) {
	ends, err := endOffsets(ctx, m.sess.Client(), append(slices.Clone(m.topics), m.btopics...))
	if err != nil {
		return false, err
	}
	committed := m.sess.Client().CommittedOffsets()
	m.mu.Lock()
	defer m.mu.Unlock()
	for src := range ends {
		topic, part, _ := strings.Cut(src, ":") // topic names have no ':'
		if !slices.Contains(m.topics, topic) {
			continue // broadcast: every partition
		}
		n, _ := strconv.Atoi(part)
		if !m.assigned[int32(n)] {
			delete(ends, src)
		} else if o, ok := committed[topic][int32(n)]; ok && o.Offset > m.read[src] {
			m.read[src] = o.Offset
		}
	}
	return readTo(m.read, ends), nil
}

// events counts the records of fs that are events (not transaction
// markers).
func events(fs kgo.Fetches) int {
	n := 0
	fs.EachRecord(func(r *kgo.Record) {
		if !r.Attrs.IsControl() {
			n++
		}
	})
	return n
}

// checkKey checks that a record of a partitioned relation is keyed and
// partitioned as NewRecord and Kafka's default partitioner do: events
// that join must meet in one task.
func (m *Member) checkKey(rel int, r *kgo.Record, fields [][]byte) error {
	col := m.cols[rel]
	if col == runtime.Broadcast || col >= len(fields) {
		return nil
	}
	key, ok := runtime.PartitionKey(m.proto.Relations()[rel].Columns[col], fields[col])
	if !ok {
		return nil // the engine reports the field
	}
	if !bytes.Equal(key, r.Key) {
		return fmt.Errorf("the record's key is %q, not %q, the canonical text of its partition column (kafka.NewRecord)", r.Key, key)
	}
	if p := m.keyed.Partition(&kgo.Record{Key: key}, m.nparts); m.nparts > 0 && p != int(r.Partition) {
		return fmt.Errorf("key %q is in partition %d, not %d, where Kafka's default partitioner puts it", key, r.Partition, p)
	}
	return nil
}

// catchUp applies to task t the broadcast records read that it has not
// applied.
func (m *Member) catchUp(t *task) error {
	for _, r := range m.blog {
		if err := m.applyTo(t, m.relOf[r.Topic], r); err != nil {
			return err
		}
	}
	return nil
}

// task returns the task of partition p, restoring it first if this
// member has not run it since it was assigned.
func (m *Member) task(ctx context.Context, p int32) (*task, error) {
	if t := m.tasks[p]; t != nil {
		return t, nil
	}
	t := &task{part: p}
	// The consumer resumes from the group's committed offsets: the
	// task's state must cover them (see committedOffsets).
	want, err := committedOffsets(ctx, m.sess.Client(), m.cfg.Group, m.topics, p)
	if err != nil {
		return nil, err
	}
	if len(want) > 0 {
		st, err := m.states.await(ctx, p, want)
		if err != nil {
			return nil, err
		}
		t.committed = st.raw
		m.stats.restored++
	}
	if err := t.rollback(m.proto); err != nil {
		return nil, err
	}
	m.tasks[p] = t
	if err := m.catchUp(t); err != nil {
		return nil, err
	}
	return t, nil
}

// rollback puts the task back to its committed state.
func (t *task) rollback(proto runtime.Partitioned) error {
	t.changes, t.pending, t.dirty = nil, nil, false
	if t.committed == nil {
		t.e, t.next = proto.NewPartition(), map[string]int64{}
	} else {
		st, err := restore(proto, t.committed)
		if err != nil {
			return fmt.Errorf("kafka: task %d: %w", t.part, err)
		}
		t.e, t.next = st.e, st.next
	}
	if cs, ok := t.e.(runtime.ChangeStreamer); ok {
		cs.OnChanges(func(c runtime.Change) { t.changes = append(t.changes, c) })
	}
	return nil
}

// publication returns the records of the open transaction: per task that
// applied records, its view changes and its snapshot.
func (m *Member) publication() ([]*kgo.Record, error) {
	var recs []*kgo.Record
	parts := make([]int32, 0, len(m.tasks))
	for p, t := range m.tasks {
		if t.dirty {
			parts = append(parts, p)
		}
	}
	slices.Sort(parts)
	for _, p := range parts {
		t := m.tasks[p]
		key := []byte(strconv.Itoa(int(p)))
		for _, c := range t.changes {
			var b bytes.Buffer
			if err := runtime.WriteChangeJSON(&b, 0, c); err != nil {
				return nil, err
			}
			recs = append(recs, &kgo.Record{Topic: m.cfg.ChangesTopic(), Key: key, Value: bytes.TrimSuffix(b.Bytes(), []byte("\n"))})
		}
		sources := make([]runtime.SourceCount, 0, len(t.next))
		for src, o := range t.next {
			sources = append(sources, runtime.SourceCount{Relation: src, Events: o})
		}
		slices.SortFunc(sources, func(a, b runtime.SourceCount) int { return strings.Compare(a.Relation, b.Relation) })
		var snap bytes.Buffer
		if err := t.e.(runtime.Snapshotter).WriteSnapshot(&snap, sources...); err != nil {
			return nil, fmt.Errorf("kafka: task %d: %w", p, err)
		}
		t.pending = snap.Bytes()
		t.changes, t.dirty = nil, false
		recs = append(recs, &kgo.Record{Topic: m.cfg.StateTopic(), Key: key, Value: t.pending})
	}
	return recs, nil
}

// Close leaves the group and closes the member's clients; an open
// transaction is aborted.
func (m *Member) Close() {
	m.sess.CloseAllowingRebalance() // with BlockRebalanceOnPoll, Close would wait for AllowRebalance
	m.states.close()
	if m.bcast != nil {
		m.bcast.Close()
	}
}
