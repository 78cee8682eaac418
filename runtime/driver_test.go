package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.csv": "1,2\n3,4\n1,2\n"})
	e := newFake(csvRel("R", true, "A:i B:i", "r.csv", nil))
	var b bytes.Buffer
	if err := Run(e, RunOptions{Format: "json", Dir: dir}, &b); err != nil {
		t.Fatal(err)
	}
	want := `{"views":[{"name":"R","keys":["TUPLE"],"values":["COUNT"],"columns":[{"name":"TUPLE","key":0},{"name":"COUNT","value":0}],"rows":[["1|2",2],["3|4",1]]}]}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
	if err := Run(e, RunOptions{Format: "xml", Dir: dir}, &b); err == nil {
		t.Error("-format xml accepted")
	}
}

func TestBench(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.csv": "1|1|1|2\n2|1|3|4\n3|0|1|2\n",
		"t.csv": "9\n",
	})
	rels := func() []Relation {
		return []Relation{
			csvRel("R", true, "A:i B:i", "r.csv", map[string]string{"delimiter": "|", "deletions": "true"}),
			csvRel("T", false, "C:i", "t.csv", nil),
		}
	}
	e := newFake(rels()...)
	var fresh []*fakeEngine
	res, err := Bench(e, BenchOptions{Repeat: 3, Dir: dir, New: func() Engine {
		f := newFake(rels()...)
		fresh = append(fresh, f)
		return f
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Table once, then pass, inverse, pass, inverse, pass.
	checkEvents(t, e.events, []string{
		"T +9",
		"R +1|2", "R +3|4", "R -1|2",
		"R +1|2", "R -3|4", "R -1|2",
		"R +1|2", "R +3|4", "R -1|2",
		"R +1|2", "R -3|4", "R -1|2",
		"R +1|2", "R +3|4", "R -1|2",
	})
	if res.Events != 15 || len(fresh) != 3 || res.EndToEndEvents != 12 {
		t.Errorf("result %+v with %d fresh engines", res, len(fresh))
	}
	if res.TriggerTime <= 0 || res.EndToEndTime <= 0 || res.PeakHeap == 0 {
		t.Errorf("result %+v", res)
	}
	if res.EventsPerPass != 3 || res.Passes != 3 || res.Elapsed < res.TriggerTime+res.EndToEndTime {
		t.Errorf("result %+v", res)
	}
	var b bytes.Buffer
	res.WriteTo(&b)
	// Scripts parse these lines: the first three are the historical format,
	// which must not change; later lines may only be added.
	formats := []string{
		`triggers: [0-9]+ events/s, [0-9]+\.[0-9] ns/event, [0-9]+\.[0-9]{2} allocs/event`,
		`end-to-end: [0-9]+ events/s`,
		`peak heap: [0-9]+\.[0-9] MiB`,
		`events: 3 per pass, 3 passes, 15 applied, elapsed: [0-9.]+(ms|s|µs)`,
		`state heap: [0-9]+\.[0-9] MiB, event buffer: [0-9]+\.[0-9] MiB`,
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(formats) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(formats), b.String())
	}
	for i, f := range formats {
		if !regexp.MustCompile("^" + f + "$").MatchString(lines[i]) {
			t.Errorf("line %d: %q does not match %q", i+1, lines[i], f)
		}
	}
}

// TestBenchJSON checks WriteJSON: one line, one object holding every
// figure of WriteTo's lines under its documented name.
// TestBenchCPUProfile: -cpuprofile writes a profile (gzipped protobuf) of
// the trigger run.
func TestBenchCPUProfile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.csv": "1|2\n3|4\n"})
	e := newFake(csvRel("R", true, "A:i B:i", "r.csv", map[string]string{"delimiter": "|"}))
	var prof bytes.Buffer
	if _, err := Bench(e, BenchOptions{Repeat: 2, Dir: dir, CPUProfile: &prof}); err != nil {
		t.Fatal(err)
	}
	if b := prof.Bytes(); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("no gzipped profile: %d bytes", len(b))
	}
}

func TestBenchJSON(t *testing.T) {
	res := BenchResult{
		Events: 15, TriggerTime: 3 * time.Millisecond, Allocs: 30,
		EndToEndEvents: 12, EndToEndTime: 4 * time.Millisecond,
		PeakHeap: 3 << 20, EventsPerPass: 3, Passes: 3, Elapsed: 9 * time.Millisecond,
		StateHeap: 1 << 20, BufferHeap: 2 << 20, LiveState: 1 << 19, MapEntries: 1000,
	}
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 1 || !strings.HasSuffix(b.String(), "\n") {
		t.Errorf("%d lines, want one: %q", n, b.String())
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"trigger_events_per_s":     5000.0,
		"trigger_ns_per_event":     200000.0,
		"trigger_allocs_per_event": 2.0,
		"trigger_ns":               3e6,
		"trigger_allocs":           30.0,
		"end_to_end_events_per_s":  3000.0,
		"end_to_end_events":        12.0,
		"end_to_end_ns":            4e6,
		"peak_heap_bytes":          float64(3 << 20),
		"events_per_pass":          3.0,
		"passes":                   3.0,
		"events_applied":           15.0,
		"elapsed_ns":               9e6,
		"state_heap_bytes":         float64(1 << 20),
		"event_buffer_bytes":       float64(2 << 20),
		"live_state_bytes":         float64(1 << 19),
		"map_entries":              1000.0,
		"partitions":               1.0, // a BenchResult of one engine leaves it 0
	}
	if !maps.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	// Without an end-to-end run (BenchOptions.New nil) its rate is null,
	// as the text says "skipped".
	res.EndToEndEvents, res.EndToEndTime = 0, 0
	b.Reset()
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"end_to_end_events_per_s":null`) {
		t.Errorf("skipped end-to-end run: %s", b.String())
	}
	// An engine that does not count its entries: null.
	res.MapEntries = -1
	b.Reset()
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"map_entries":null`) {
		t.Errorf("uncounted entries: %s", b.String())
	}
}

// bufferEngine keeps no state: its batch holds the events' bytes, so a
// bench of it measures the buffer alone.
type bufferEngine struct{ rels []Relation }

type bufferBatch struct{ data [][]byte }

func (e *bufferEngine) Relations() []Relation           { return e.rels }
func (e *bufferEngine) Apply(int, bool, [][]byte) error { return nil }
func (e *bufferEngine) NewBatch() Batch                 { return &bufferBatch{} }
func (e *bufferEngine) ApplyBatch(Batch) error          { return nil }
func (e *bufferEngine) Views() []View                   { return nil }
func (b *bufferBatch) Len() int                         { return len(b.data) }
func (b *bufferBatch) Add(rel int, insert bool, f [][]byte) error {
	b.data = append(b.data, bytes.Clone(bytes.Join(f, nil)))
	return nil
}

// TestBenchStateHeap checks that the state heap leaves out the event
// buffer: an engine without state over 200k events has a buffer of
// megabytes and a state heap of almost nothing (heap in use counts some free span space), while the peak heap
// includes the buffer.
func TestBenchStateHeap(t *testing.T) {
	var data strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&data, "%d,%d\n", i, i*7)
	}
	dir := writeFiles(t, map[string]string{"r.csv": data.String()})
	e := &bufferEngine{rels: []Relation{csvRel("R", true, "A:i B:i", "r.csv", nil)}}
	res, err := Bench(e, BenchOptions{Repeat: 1, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	const mb = 1 << 20
	if res.BufferHeap < 4*mb || res.PeakHeap < res.BufferHeap || res.StateHeap > res.BufferHeap/4 {
		t.Errorf("buffer %.1f MiB, peak %.1f MiB, state %.1f MiB: want a buffer of at least 4 MiB in the peak and a state under a quarter of the buffer",
			mib(res.BufferHeap), mib(res.PeakHeap), mib(res.StateHeap))
	}
	if res.EventsPerPass != 200_000 || res.Events != 200_000 {
		t.Errorf("result %+v", res)
	}
}

// TestSourcesEmbedded checks that Sources holds exactly the package's
// non-test Go files and those of its kafka subpackage.
func TestSourcesEmbedded(t *testing.T) {
	var want []string
	files, _ := filepath.Glob("*.go")
	kafka, _ := filepath.Glob("kafka/*.go")
	for _, f := range append(files, kafka...) {
		if !strings.HasSuffix(f, "_test.go") {
			want = append(want, f)
		}
	}
	var got []string
	fs.WalkDir(Sources, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, path)
		}
		return err
	})
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("embedded %v, want %v: update the //go:embed line in embed.go", got, want)
	}
	data, _ := fs.ReadFile(Sources, "engine.go")
	disk, _ := os.ReadFile("engine.go")
	if !bytes.Equal(data, disk) {
		t.Error("embedded engine.go differs from the file")
	}
}

// sumEngine is an Engine whose triggers do not allocate.
type sumEngine struct {
	fakeEngine
	sum float64
}

type sumBatch struct{ vals []float64 }

func (b *sumBatch) Add(rel int, insert bool, fields [][]byte) error {
	v, err := ParseFloat(fields[0])
	if err != nil {
		return NewColumnError("A", Float, fields[0])
	}
	if !insert {
		v = -v
	}
	b.vals = append(b.vals, v)
	return nil
}

func (b *sumBatch) Len() int { return len(b.vals) }

func (e *sumEngine) NewBatch() Batch { return &sumBatch{} }

func (e *sumEngine) ApplyBatch(b Batch) error {
	for _, v := range b.(*sumBatch).vals {
		e.sum += v
	}
	return nil
}

func TestBenchAllocs(t *testing.T) {
	var sb strings.Builder
	for i := range 100000 {
		sb.WriteString(strconv.Itoa(i%1000) + ".5\n")
	}
	dir := writeFiles(t, map[string]string{"r.csv": sb.String()})
	e := &sumEngine{fakeEngine: *newFake(csvRel("R", true, "A:f", "r.csv", nil))}
	res, err := Bench(e, BenchOptions{Repeat: 2, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 300000 || res.AllocsPerEvent() > 0.001 {
		t.Errorf("%d events, %v allocs/event", res.Events, res.AllocsPerEvent())
	}
	// pass, inverse, pass: the state of one pass, 100 × (0.5 + … + 999.5).
	if e.sum != 5e7 {
		t.Errorf("sum %v, want 5e7", e.sum)
	}
	if res.EndToEndTime != 0 {
		t.Error("end-to-end ran without New")
	}
}
