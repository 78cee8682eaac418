package kafka

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// testQuery joins two relations on their partition column B (nullable:
// NULL keys go to one partition and join nothing) and also groups one of
// them by it: a view merged by summing and one whose rows the partitions
// own; T joins on another column, so every task reads all of it (the
// plan broadcasts it).
const testQuery = `
CREATE STREAM R(A INT, B INT, D FLOAT);
CREATE STREAM S(B INT, C FLOAT, E INT);
CREATE STREAM T(A INT, F FLOAT);
SELECT r.A, SUM(r.D * s.C), COUNT(*), AVG(s.E) FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
SELECT s.B, COUNT(*), SUM(s.C), MAX(s.E) FROM S s WHERE s.E > 1 GROUP BY s.B;
SELECT COUNT(*) FROM R r WHERE EXISTS (SELECT 1 FROM S s WHERE s.B = r.B AND s.E < r.A);
SELECT r.B, SUM(t.F * r.D), COUNT(*) FROM R r, S s, T t WHERE r.B = s.B AND r.A = t.A GROUP BY r.B;
`

type testQueryEngine struct {
	f    *lang.File
	p    *viewlet.Program
	plan *calculus.PartitionPlan
}

func compileTestQuery(t *testing.T) testQueryEngine {
	t.Helper()
	f, err := lang.Config{Dialect: lang.SQL}.Parse("kafka.sql", []byte(testQuery))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	plan := calculus.Partition(f.Relations, qs)
	if !plan.Partitionable() {
		t.Fatalf("not partitionable:\n%s", plan)
	}
	t.Logf("plan:\n%s", plan)
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded, FlatViews: true})
	if err != nil {
		t.Fatal(err)
	}
	return testQueryEngine{f, p, plan}
}

func (q testQueryEngine) engine(t *testing.T) runtime.Partitioned {
	t.Helper()
	e, err := viewlet.NewPartitionedInterp(q.p, q.plan)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fieldsOf writes a generated tuple as the fields of a CSV source.
func fieldsOf(tuple []any) []string {
	out := make([]string, len(tuple))
	for i, v := range tuple {
		switch v := v.(type) {
		case nil:
			out[i] = `\N`
		case int64:
			out[i] = strconv.FormatInt(v, 10)
		case float64:
			out[i] = strconv.FormatFloat(v, 'g', -1, 64)
		case string:
			out[i] = v
		case runtime.Date:
			out[i] = v.String()
		default:
			panic(fmt.Sprintf("value %T", v))
		}
	}
	return out
}

// cluster is an in-process Kafka with the topics of the test query.
func cluster(t *testing.T, partitions int32, cfg Config) []string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1),
		kfake.SeedTopics(partitions, cfg.Prefix+"r", cfg.Prefix+"s"),
		kfake.SeedTopics(2, cfg.Prefix+"t"),
		kfake.SeedTopics(1, cfg.StateTopic(), cfg.ChangesTopic()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c.ListenAddrs()
}

// TestMembersExactlyOnce runs a random insert/delete stream through
// three members, one of which crashes in the middle of a transaction
// (which aborts) and is restarted, and a fourth that joins
// later (rebalances move the tasks with their states), while one member
// applies every polled batch twice and another aborts every third
// transaction. At the end of each phase the merged views must equal one
// engine fed the whole stream so far and SQLite recomputing the queries;
// a stale state written again to the state topic changes nothing.
func TestMembersExactlyOnce(t *testing.T) {
	began := time.Now()
	q := compileTestQuery(t)
	proto := q.engine(t)
	cfg := Config{Group: "g", Prefix: "t.", CommitEvery: 97,
		Opts: []kgo.Opt{kgo.HeartbeatInterval(100 * time.Millisecond), kgo.FetchMaxWait(50 * time.Millisecond)}}
	cfg.Brokers = cluster(t, 5, cfg)

	s := oracle.Generate(q.f, 7, 2400, 0.3, oracle.Domain{Ints: 9})
	db, err := oracle.Open(q.f)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	whole := viewlet.NewInterp(q.p)
	relIndex := map[string]int{}
	for i, r := range proto.Relations() {
		relIndex[r.Name] = i
	}

	producer, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	ends := map[string]int64{} // "topic:partition" → next offset
	produced := 0
	produce := func(n int) {
		t.Helper()
		var recs []*kgo.Record
		for _, ev := range s.Events[produced : produced+n] {
			fields := fieldsOf(ev.Tuple)
			rec, err := NewRecord(cfg, proto, relIndex[ev.Rel], ev.Insert, fields)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
			bs := make([][]byte, len(fields))
			for i, f := range fields {
				bs[i] = []byte(f)
			}
			if err := whole.Apply(relIndex[ev.Rel], ev.Insert, bs); err != nil {
				t.Fatal(err)
			}
			if ev.Insert {
				err = db.Insert(ev.Rel, ev.Tuple)
			} else {
				err = db.Delete(ev.Rel, ev.Tuple)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		produced += n
		for _, r := range producer.ProduceSync(context.Background(), recs...) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			src := sourceName(r.Record.Topic, r.Record.Partition)
			ends[src] = max(ends[src], r.Record.Offset+1)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	type running struct {
		m    *Member
		done chan struct{}
	}
	start := func(name string, hook func(*Member)) running {
		c := cfg
		c.Name = name
		m, err := NewMember(c, q.engine(t))
		if err != nil {
			t.Fatal(err)
		}
		if hook != nil {
			hook(m)
		}
		done := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done)
			if err := m.Run(ctx); err != nil && !errors.Is(err, errCrash) {
				errs <- fmt.Errorf("member %s: %w", name, err)
			}
			m.Close()
			st := m.stats
			t.Logf("member %s: %d records applied, %d redelivered skipped, %d commits, %d aborts, %d tasks restored",
				name, st.applied, st.redelivered, st.commits, st.aborts, st.restored)
		}()
		return running{m, done}
	}

	merger, err := NewMerger(cfg, proto)
	if err != nil {
		t.Fatal(err)
	}
	defer merger.Close()
	var mergedChanges int
	merger.OnChanges(func(runtime.Change) { mergedChanges++ })

	check := func(phase string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !covers(merger.Offsets(), ends) {
			select {
			case err := <-errs:
				t.Fatal(err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the merged views cover %v, not %v", phase, merger.Offsets(), ends)
			}
			pctx, pcancel := context.WithTimeout(ctx, 200*time.Millisecond)
			if err := merger.Poll(pctx); err != nil && pctx.Err() == nil {
				t.Fatal(err)
			}
			pcancel()
		}
		got, want := merger.Views(), whole.Views()
		for i, qq := range q.f.Queries {
			if err := oracle.Compare(want[i], got[i], 1e-9); err != nil {
				t.Fatalf("%s, %s: merged views differ from one engine: %v", phase, qq.Name, err)
			}
			sv, err := db.View(qq)
			if err != nil {
				t.Fatal(err)
			}
			if err := oracle.Compare(sv, got[i], 1e-9); err != nil {
				t.Fatalf("%s, %s: merged views differ from SQLite: %v", phase, qq.Name, err)
			}
		}
		t.Logf("%s: %d events, merged views equal (%d rows in view 1), after %v", phase, produced, len(got[0].Rows), time.Since(began).Round(time.Millisecond))
	}

	m1 := start("m1", nil)
	start("m2", func(m *Member) { m.deliverTwice = true })
	start("m3", func(m *Member) { m.abortEvery = 3 })
	produce(800)
	check("three members")

	// m1 crashes in the middle of a transaction, 100 records on.
	m1.m.crashAfter.Store(100)
	for crashed := false; !crashed; {
		if produced == 1600 {
			t.Fatal("m1 did not crash")
		}
		produce(100)
		select {
		case <-m1.done:
			crashed = true
		case <-time.After(200 * time.Millisecond):
		}
	}
	produce(1600 - produced)
	start("m1", nil)
	check("m1 crashed and restarted")

	start("m4", nil)
	produce(800)
	check("m4 joined")

	// A stale state, written again (a retried write from long ago),
	// changes nothing.
	stale := firstState(t, cfg)
	if _, err := producer.ProduceSync(ctx, stale).First(); err != nil {
		t.Fatal(err)
	}
	before := merger.Views()
	pctx, pcancel := context.WithTimeout(ctx, 500*time.Millisecond)
	_ = merger.Poll(pctx)
	pcancel()
	for i := range before {
		if err := oracle.Compare(before[i], merger.Views()[i], 0); err != nil {
			t.Fatalf("a stale state changed the merged views: %v", err)
		}
	}
	if mergedChanges == 0 {
		t.Error("the merger reported no change")
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// firstState reads the first record of the state topic.
func firstState(t *testing.T, cfg Config) *kgo.Record {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...), kgo.ConsumeTopics(cfg.StateTopic()),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		fs := cl.PollRecords(ctx, 1)
		if ctx.Err() != nil {
			t.Fatal("no state record")
		}
		if recs := fs.Records(); len(recs) > 0 {
			r := recs[0]
			return &kgo.Record{Topic: r.Topic, Key: r.Key, Value: r.Value}
		}
	}
}

func TestNewRecord(t *testing.T) {
	q := compileTestQuery(t)
	e := q.engine(t)
	cfg := Config{Prefix: "x."}
	for _, c := range []struct {
		fields []string
		insert bool
		key    string
	}{
		{[]string{"1", "+007", "2.5"}, true, "7"},
		{[]string{"1", `\N`, "2.5"}, false, `\N`},
		{[]string{"1", "7", "a,b"}, true, "7"},
	} {
		rec, err := NewRecord(cfg, e, 0, c.insert, c.fields)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Topic != "x.r" || string(rec.Key) != c.key {
			t.Errorf("%v: topic %s key %q, want x.r %q", c.fields, rec.Topic, rec.Key, c.key)
		}
		insert, fields, err := event(rec)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fields {
			got = append(got, string(f))
		}
		if insert != c.insert || strings.Join(got, "|") != strings.Join(c.fields, "|") {
			t.Errorf("%v: decoded %v %v", c.fields, insert, got)
		}
	}
	if _, err := NewRecord(cfg, e, 0, true, []string{"1", "x", "2"}); err == nil || !strings.Contains(err.Error(), "R.B") {
		t.Errorf("a partition column that does not parse: %v", err)
	}
}

// TestUnequalPartitions: topics of co-partitioned relations with unequal
// partition counts would not bring the events that join together; a
// member refuses to run.
func TestUnequalPartitions(t *testing.T) {
	q := compileTestQuery(t)
	cfg := Config{Group: "g", Name: "m", Prefix: "u."}
	c, err := kfake.NewCluster(kfake.NumBrokers(1),
		kfake.SeedTopics(3, "u.r", "u.t"), kfake.SeedTopics(2, "u.s"), kfake.SeedTopics(1, "u.state", "u.changes"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cfg.Brokers = c.ListenAddrs()
	m, err := NewMember(cfg, q.engine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Run(ctx); err == nil || !strings.Contains(err.Error(), "equal partition counts") {
		t.Errorf("Run: %v, want an error about partition counts", err)
	}
}

// TestBadKey: a record keyed otherwise than NewRecord keys it (here the
// raw text +7) would not meet the events it joins; the member stops with
// the record's position.
func TestBadKey(t *testing.T) {
	q := compileTestQuery(t)
	cfg := Config{Group: "g", Name: "m", Prefix: "k."}
	cfg.Brokers = cluster(t, 3, cfg)
	cl, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	rec := &kgo.Record{Topic: "k.r", Key: []byte("+7"), Value: []byte("1,+7,2.5")}
	if err := cl.ProduceSync(context.Background(), rec).FirstErr(); err != nil {
		t.Fatal(err)
	}
	m, err := NewMember(cfg, q.engine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Run(ctx); err == nil || !strings.Contains(err.Error(), `k.r partition`) || !strings.Contains(err.Error(), `not "7"`) {
		t.Errorf("Run: %v, want an error about the key at the record's position", err)
	}
}

// TestMergeMain: a member whose -exit-idle is shorter than a fetch stops
// only once it has read its input to the end; the merger of toastgen
// merge prints the views of the whole stream, though its -idle is shorter
// than its first fetch too; with -follow it prints the merged views'
// changes as JSON lines.
func TestMergeMain(t *testing.T) {
	q := compileTestQuery(t)
	proto := q.engine(t)
	cfg := Config{Group: "g", Name: "m", Prefix: "mm.", Opts: []kgo.Opt{kgo.FetchMaxWait(50 * time.Millisecond)}}
	cfg.Brokers = cluster(t, 3, cfg)
	cl, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	whole := viewlet.NewInterp(q.p)
	relIndex := map[string]int{}
	for i, r := range proto.Relations() {
		relIndex[r.Name] = i
	}
	var recs []*kgo.Record
	for _, ev := range oracle.Generate(q.f, 3, 300, 0.2, oracle.Domain{Ints: 5}).Events {
		fields := fieldsOf(ev.Tuple)
		rec, err := NewRecord(cfg, proto, relIndex[ev.Rel], ev.Insert, fields)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
		bs := make([][]byte, len(fields))
		for i, f := range fields {
			bs[i] = []byte(f)
		}
		if err := whole.Apply(relIndex[ev.Rel], ev.Insert, bs); err != nil {
			t.Fatal(err)
		}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	// Every fetch of the member waits 300 ms at the broker (it never has
	// the bytes asked for), longer than the member polls and idles.
	slow := cfg
	slow.Opts = append(slices.Clone(cfg.Opts), kgo.FetchMinBytes(1<<30), kgo.FetchMaxWait(300*time.Millisecond))
	m, err := NewMember(slow, q.engine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.exitIdle = time.Millisecond
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got, want strings.Builder
	if err := mergeMain(context.Background(), cfg, proto, "json", false, time.Microsecond, &got); err != nil {
		t.Fatal(err)
	}
	if err := runtime.WriteJSON(&want, whole.Views()); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("merged views\n%s\none engine's\n%s", got.String(), want.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var lines strings.Builder
	if err := mergeMain(ctx, cfg, proto, "json", true, time.Second, &lines); err != nil {
		t.Fatal(err)
	}
	n := strings.Count(lines.String(), "\n")
	if n == 0 || !strings.HasPrefix(lines.String(), `{"event":0,`) {
		t.Errorf("-follow printed %d lines:\n%.300s", n, lines.String())
	}
}

// TestTaskRestore checks that a member starts a task from the state
// that covers the group's committed offsets even before its client has
// fetched them (the client fetches a partition's offsets after the
// assignment callback, concurrently with the polls): a task started
// empty, or from an older state, while the consumer resumes from the
// committed offsets would never apply the records in between.
func TestTaskRestore(t *testing.T) {
	q := compileTestQuery(t)
	proto := q.engine(t)
	cfg := Config{Group: "g", Name: "a", Prefix: "tr.", CommitEvery: 50, Opts: []kgo.Opt{kgo.FetchMaxWait(50 * time.Millisecond)}}
	cfg.Brokers = cluster(t, 3, cfg)
	cl, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	relIndex := map[string]int{}
	for i, r := range proto.Relations() {
		relIndex[r.Name] = i
	}
	var recs []*kgo.Record
	for _, ev := range oracle.Generate(q.f, 5, 300, 0.2, oracle.Domain{Ints: 5}).Events {
		rec, err := NewRecord(cfg, proto, relIndex[ev.Rel], ev.Insert, fieldsOf(ev.Tuple))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	ends := map[string]int64{}
	for _, r := range cl.ProduceSync(context.Background(), recs...) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		src := sourceName(r.Record.Topic, r.Record.Partition)
		ends[src] = max(ends[src], r.Record.Offset+1)
	}
	a, err := NewMember(cfg, q.engine(t))
	if err != nil {
		t.Fatal(err)
	}
	a.exitIdle = 100 * time.Millisecond
	err = a.Run(context.Background())
	a.Close()
	if err != nil {
		t.Fatal(err)
	}

	// A second member of the group starts every task before it polls.
	cfg.Name = "b"
	b, err := NewMember(cfg, q.engine(t))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b.mu.Lock()
	defer b.mu.Unlock()
	for p := range int32(3) {
		task, err := b.task(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, topic := range b.topics {
			src := sourceName(topic, p)
			if task.next[src] != ends[src] {
				t.Errorf("task %d starts at %s offset %d, not %d, the offset committed", p, src, task.next[src], ends[src])
			}
		}
	}
	if b.stats.restored != 3 {
		t.Errorf("%d tasks restored, not 3", b.stats.restored)
	}
}

// TestCoverage checks the offsets that merged views claim to cover: a
// partitioned topic's partition as far as its task read, a broadcast
// partition as far as the task furthest behind read it — 0 when a task's
// state holds none of it yet (a task that has read no customer: its views
// lack every customer, whatever the other tasks read).
func TestCoverage(t *testing.T) {
	broadcast := map[string]bool{"q.t": true}
	cases := []struct {
		name  string
		nexts []map[string]int64
		want  map[string]int64
	}{
		{"every task read the broadcast partitions",
			[]map[string]int64{{"q.r:0": 5, "q.t:0": 3, "q.t:1": 4}, {"q.r:1": 7, "q.t:0": 2, "q.t:1": 9}},
			map[string]int64{"q.r:0": 5, "q.r:1": 7, "q.t:0": 2, "q.t:1": 4}},
		{"a task read none of a broadcast partition",
			[]map[string]int64{{"q.r:0": 5, "q.t:0": 3, "q.t:1": 4}, {"q.r:1": 7, "q.t:1": 9}},
			map[string]int64{"q.r:0": 5, "q.r:1": 7, "q.t:0": 0, "q.t:1": 4}},
		{"a task read no broadcast record",
			[]map[string]int64{{"q.r:0": 5}, {"q.r:1": 7, "q.t:0": 6}},
			map[string]int64{"q.r:0": 5, "q.r:1": 7, "q.t:0": 0}},
		{"one task", []map[string]int64{{"q.r:0": 5, "q.t:0": 6}}, map[string]int64{"q.r:0": 5, "q.t:0": 6}},
		{"no task", nil, map[string]int64{}},
	}
	for _, c := range cases {
		if got := covered(c.nexts, broadcast); !maps.Equal(got, c.want) {
			t.Errorf("%s: covered = %v, want %v", c.name, got, c.want)
		}
	}
}
