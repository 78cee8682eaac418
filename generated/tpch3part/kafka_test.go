package tpch3part_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch3part"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/runtime/kafka"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, tpch3part.New(), 10)
}

// event is one event of the example data.
type event struct {
	rel    int
	insert bool
	fields []string
}

// recorder is the engine runtime.Replay feeds to read the example data.
type recorder struct {
	runtime.Partitioned
	events []event
}

func (r *recorder) Apply(rel int, insert bool, fields [][]byte) error {
	fs := make([]string, len(fields))
	for i, f := range fields {
		fs[i] = string(f)
	}
	r.events = append(r.events, event{rel, insert, fs})
	return nil
}

// exampleEvents returns the example data's events, passes times, the keys
// of pass k shifted by k·10⁷ (orderkey and custkey: the passes join only
// among themselves, so the state grows with them).
func exampleEvents(t testing.TB, passes int) []event {
	rec := &recorder{Partitioned: tpch3part.New()}
	if err := runtime.Replay(rec, runtime.ReplayOptions{Dir: gentest.RepoRoot}); err != nil {
		t.Fatal(err)
	}
	shifted := map[string][]int{"LINEITEM": {0}, "ORDERS": {0, 1}, "CUSTOMER": {0}}
	rels := rec.Relations()
	var out []event
	for k := range passes {
		for _, ev := range rec.events {
			fs := slices.Clone(ev.fields)
			for _, c := range shifted[rels[ev.rel].Name] {
				n, err := strconv.ParseInt(fs[c], 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				fs[c] = strconv.FormatInt(n+int64(k)*10_000_000, 10)
			}
			out = append(out, event{ev.rel, ev.insert, fs})
		}
	}
	return out
}

// kafkaRun is one run of the query on an in-process Kafka.
type kafkaRun struct {
	cfg    kafka.Config
	client *kgo.Client
	ends   map[string]int64 // "topic:partition" → next offset produced
}

func newKafkaRun(t testing.TB, partitions int32) *kafkaRun {
	cfg := kafka.Config{Group: "q3", Prefix: "q3.", Opts: []kgo.Opt{kgo.HeartbeatInterval(100 * time.Millisecond), kgo.FetchMaxWait(20 * time.Millisecond)}}
	c, err := kfake.NewCluster(kfake.NumBrokers(1),
		kfake.SeedTopics(partitions, "q3.lineitem", "q3.orders"),
		kfake.SeedTopics(1, "q3.customer", "q3.state", "q3.changes"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	cfg.Brokers = c.ListenAddrs()
	cl, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...), kgo.ProducerLinger(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &kafkaRun{cfg: cfg, client: cl, ends: map[string]int64{}}
}

// produce publishes events and waits for their acknowledgements.
func (r *kafkaRun) produce(t testing.TB, events []event) {
	e := tpch3part.New()
	recs := make([]*kgo.Record, len(events))
	for i, ev := range events {
		rec, err := kafka.NewRecord(r.cfg, e, ev.rel, ev.insert, ev.fields)
		if err != nil {
			t.Fatal(err)
		}
		recs[i] = rec
	}
	for _, res := range r.client.ProduceSync(context.Background(), recs...) {
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		src := fmt.Sprintf("%s:%d", res.Record.Topic, res.Record.Partition)
		r.ends[src] = max(r.ends[src], res.Record.Offset+1)
	}
}

// members starts n members; stop stops them and reports their errors.
func (r *kafkaRun) members(t testing.TB, n int) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		cfg := r.cfg
		cfg.Name = fmt.Sprint("m", i)
		m, err := kafka.NewMember(cfg, tpch3part.New())
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer m.Close()
			if err := m.Run(ctx); err != nil {
				errs <- err
			}
		}()
	}
	return func() {
		cancel()
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}

// await polls the merger until its views cover every offset produced.
func (r *kafkaRun) await(t testing.TB, m *kafka.Merger) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got := m.Offsets()
		done := true
		for src, end := range r.ends {
			if got[src] < end {
				done = false
			}
		}
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the merged views cover %v, not %v", got, r.ends)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		if err := m.Poll(ctx); err != nil && ctx.Err() == nil {
			t.Fatal(err)
		}
		cancel()
	}
}

// TestKafka runs the example data, three passes, through two members on
// three partitions and checks the merged views against one engine's.
func TestKafka(t *testing.T) {
	events := exampleEvents(t, 3)
	r := newKafkaRun(t, 3)
	r.produce(t, events)
	stop := r.members(t, 2)
	defer stop()
	m, err := kafka.NewMerger(r.cfg, tpch3part.New())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r.await(t, m)
	one := tpch3part.New()
	for _, ev := range events {
		fs := make([][]byte, len(ev.fields))
		for i, f := range ev.fields {
			fs[i] = []byte(f)
		}
		if err := one.Apply(ev.rel, ev.insert, fs); err != nil {
			t.Fatal(err)
		}
	}
	want, got := one.Views(), m.Views()
	for i := range want {
		if err := oracle.Compare(want[i], got[i], 1e-12); err != nil {
			t.Fatal(err)
		}
	}
	if len(got[0].Rows) == 0 {
		t.Fatal("the merged view is empty")
	}
}

// BenchmarkKafka measures TPC-H Q3 on an in-process Kafka (kfake, four
// partitions): 1, 2 and 4 members, once their group has formed on one
// pass of the example data, apply 39 more passes with shifted keys
// (about 29,000 events) as they are produced, until a merger's views
// cover them all (events/s, overall and per member); then,
// with the members idle, single lineitem events are produced one at a
// time and the time until the merged views cover each is the merge lag
// (median, ms). The machine's cores, the broker and the members share
// them all.
func BenchmarkKafka(b *testing.B) {
	events := exampleEvents(b, 40)
	warmUp := len(events) / 40
	var line []event // lineitem events of a pass no other event joins
	for _, ev := range exampleEvents(b, 41)[len(events):] {
		if ev.rel == 0 && len(line) < 15 {
			line = append(line, ev)
		}
	}
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) {
			var elapsed time.Duration
			var lags []time.Duration
			for range b.N {
				r := newKafkaRun(b, 4)
				m, err := kafka.NewMerger(r.cfg, tpch3part.New())
				if err != nil {
					b.Fatal(err)
				}
				// The group forms on a first pass; then the rest is
				// produced and applied, both timed.
				stop := r.members(b, n)
				r.produce(b, events[:warmUp])
				r.await(b, m)
				start := time.Now()
				r.produce(b, events[warmUp:])
				r.await(b, m)
				elapsed += time.Since(start)
				for _, ev := range line {
					at := time.Now()
					r.produce(b, []event{ev})
					r.await(b, m)
					lags = append(lags, time.Since(at))
				}
				stop()
				m.Close()
			}
			slices.Sort(lags)
			perSec := float64((len(events)-warmUp)*b.N) / elapsed.Seconds()
			b.ReportMetric(perSec, "events/s")
			b.ReportMetric(perSec/float64(n), "events/s/member")
			b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "merge-lag-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}
