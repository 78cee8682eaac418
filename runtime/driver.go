package runtime

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	rt "runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// Main is the main function of a driver program for a generated package
// (toastgen run): it replays the engine's sources and prints its views on
// standard output. Flags:
//
//	-format table|json   output format (default table); see WriteTable, WriteJSON
//	-dir DIR             directory that relative source paths are resolved against
//	-changes             print every view change as a JSON line (WriteChangeJSON),
//	                     numbered by event, before the views
//	-snapshot FILE       write a snapshot of the engine to FILE at the end (and
//	-snapshot-every N    after every N events applied)
//	-resume FILE         restore the engine from the snapshot in FILE first and
//	                     skip the events it covers
//	-load DIR            apply the existing tables in DIR first, as one batch (Load)
//	-policy P            how that batch is applied: auto, incremental or set (Policy)
//	-workers N           run N partitions of the query on N goroutines (Workers),
//	                     when the engine is Partitioned; without -changes,
//	                     -snapshot and -resume
//
// Errors go to standard error and exit with status 1. Main parses the
// command line with the flag package's default set, so a driver may define
// flags of its own before calling it.
func Main(e Engine) {
	var opts RunOptions
	flag.StringVar(&opts.Format, "format", "table", "output `format`: table or json")
	flag.StringVar(&opts.Dir, "dir", "", "resolve relative source paths against `DIR` (default: the working directory)")
	flag.BoolVar(&opts.Changes, "changes", false, "print every view change as a JSON line before the views")
	flag.StringVar(&opts.Snapshot, "snapshot", "", "write a snapshot of the engine to `FILE` at the end (see -snapshot-every)")
	flag.Int64Var(&opts.SnapshotEvery, "snapshot-every", 0, "also write the snapshot after every `N` events applied")
	flag.StringVar(&opts.Resume, "resume", "", "restore the engine from the snapshot in `FILE` and skip the events it covers")
	flag.StringVar(&opts.Load, "load", "", "apply the existing tables in `DIR` first, as one batch")
	policy := flag.String("policy", "auto", "how -load's batch is applied: auto, incremental or set")
	workers := flag.Int("workers", 1, "run `N` partitions of the query on N goroutines")
	if !flag.Parsed() {
		flag.Parse()
	}
	if *workers > 1 {
		if opts.Changes || opts.Snapshot != "" || opts.Resume != "" {
			fmt.Fprintf(os.Stderr, "%s: -workers runs one engine per partition: -changes, -snapshot and -resume need one engine\n", programName())
			os.Exit(2)
		}
		w, err := partitions(e, *workers)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", programName(), err)
			os.Exit(1)
		}
		e = w
	}
	if p, ok := ParsePolicy(*policy); ok {
		opts.Policy = p
	} else {
		fmt.Fprintf(os.Stderr, "%s: -policy must be auto, incremental or set, got %q\n", programName(), *policy)
		os.Exit(2)
	}
	if isTerminal(os.Stderr) {
		opts.Progress = terminalProgress("replay")
	}
	if err := Run(e, opts, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", programName(), err)
		os.Exit(1)
	}
}

// RunChanges replays the sources of e (resolved against dir) event by
// event and writes each view change as a JSON line numbered by its event
// (WriteChangeJSON), then the views in format (table or json): what
// toastgen run -changes prints, for engines run in process.
func RunChanges(e Engine, format, dir string, w io.Writer) error {
	return Run(e, RunOptions{Format: format, Dir: dir, Changes: true}, w)
}

// BenchOptions configures Bench.
type BenchOptions struct {
	// Repeat is the number of passes over the stream events (at least 1).
	Repeat int
	// Dir resolves relative source paths, as in ReplayOptions.
	Dir string
	// New returns a fresh engine for the end-to-end measurement; if nil,
	// Bench skips it.
	New func() Engine
	// Progress, if set, reports the progress of reading the input, with
	// the phase ("collect" or "end-to-end") it belongs to.
	Progress func(phase string, done, total int)
	// CPUProfile, if set, receives a CPU profile (runtime/pprof's format)
	// of the timed trigger run only: not of reading, parsing or the
	// end-to-end replays.
	CPUProfile io.Writer
}

// BenchResult is what Bench measured.
type BenchResult struct {
	// Events is the number of events the timed trigger run applied.
	Events int
	// TriggerTime is the wall time of ApplyBatch.
	TriggerTime time.Duration
	// Allocs is the number of heap allocations during ApplyBatch.
	Allocs uint64
	// EndToEndEvents is the number of events read, parsed and applied by
	// the end-to-end runs (tables included), and EndToEndTime their total
	// wall time; both are zero when BenchOptions.New is nil.
	EndToEndEvents int
	EndToEndTime   time.Duration
	// PeakHeap is the largest heap in use (bytes of live and unused space in
	// in-use spans, like MemStats.HeapInuse) that Bench sampled. It includes
	// the event buffer (the batch of parsed events).
	PeakHeap uint64

	// EventsPerPass is the number of stream events in one pass over the
	// streams, Passes the number of passes (BenchOptions.Repeat); Events is
	// Passes·EventsPerPass plus the Passes−1 inverse passes.
	EventsPerPass, Passes int
	// Elapsed is the wall time of the whole of Bench: reading, the trigger
	// run and the end-to-end runs.
	Elapsed time.Duration
	// StateHeap is the peak heap of the engine state during the trigger
	// run, apart from the event buffer: the heap in use sampled during
	// ApplyBatch (or the live heap after it, if larger) minus BufferHeap and
	// minus the heap in use before Bench read anything.
	StateHeap uint64
	// BufferHeap is the size of the event buffer (a pass and, with
	// repetition, its inverse): the live heap after the trigger run minus
	// the live heap once the batches are dropped.
	BufferHeap uint64
	// LiveState is the live heap of the engine state after the trigger run
	// (garbage collected, without the event buffer), and MapEntries the
	// entries of its keyed maps then (a fused table's entry once), or −1
	// for an engine that does not count them (see EntryCounter).
	LiveState  uint64
	MapEntries int
	// Partitions is the number of engines that ran the triggers: 1, or
	// a Workers engine's partitions.
	Partitions int
}

// EventsPerSecond is the trigger throughput.
func (r BenchResult) EventsPerSecond() float64 { return perSecond(r.Events, r.TriggerTime) }

// NsPerEvent is the mean trigger time per event.
func (r BenchResult) NsPerEvent() float64 {
	if r.Events == 0 {
		return 0
	}
	return float64(r.TriggerTime.Nanoseconds()) / float64(r.Events)
}

// AllocsPerEvent is the mean number of heap allocations per event.
func (r BenchResult) AllocsPerEvent() float64 {
	if r.Events == 0 {
		return 0
	}
	return float64(r.Allocs) / float64(r.Events)
}

// EndToEndPerSecond is the throughput of reading, parsing and applying.
func (r BenchResult) EndToEndPerSecond() float64 {
	return perSecond(r.EndToEndEvents, r.EndToEndTime)
}

func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// WriteTo writes the result as five lines (scripts parse them: lines
// are only ever added, after these):
//
//	triggers: <events/s> events/s, <ns> ns/event, <allocs> allocs/event
//	end-to-end: <events/s> events/s
//	peak heap: <N> MiB
//	events: <n> per pass, <k> passes, <m> applied, elapsed: <duration>
//	state heap: <N> MiB, event buffer: <M> MiB
//	live state: <L> MiB, map entries: <E>, <B> bytes/entry
//	partitions: <P>
//
// The live state line is printed for engines that count their entries
// (EntryCounter) holding at least one, the partitions line for a run on
// several engines (Workers).
// peak heap includes the event buffer; state heap is the engine's state
// alone (see BenchResult.StateHeap). <m> counts the inverse passes too.
func (r BenchResult) WriteTo(w io.Writer) (int64, error) {
	e2e := "skipped"
	if r.EndToEndTime > 0 {
		e2e = fmt.Sprintf("%.0f events/s", r.EndToEndPerSecond())
	}
	n, err := fmt.Fprintf(w, "triggers: %.0f events/s, %.1f ns/event, %.2f allocs/event\nend-to-end: %s\npeak heap: %.1f MiB\n"+
		"events: %d per pass, %d passes, %d applied, elapsed: %s\nstate heap: %.1f MiB, event buffer: %.1f MiB\n",
		r.EventsPerSecond(), r.NsPerEvent(), r.AllocsPerEvent(), e2e, mib(r.PeakHeap),
		r.EventsPerPass, r.Passes, r.Events, r.Elapsed.Round(time.Millisecond), mib(r.StateHeap), mib(r.BufferHeap))
	if err == nil && r.MapEntries > 0 {
		var m int
		m, err = fmt.Fprintf(w, "live state: %.1f MiB, map entries: %d, %.0f bytes/entry\n",
			mib(r.LiveState), r.MapEntries, float64(r.LiveState)/float64(r.MapEntries))
		n += m
	}
	if err == nil && r.Partitions > 1 {
		var m int
		m, err = fmt.Fprintf(w, "partitions: %d\n", r.Partitions)
		n += m
	}
	return int64(n), err
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// benchJSON is the JSON form of a BenchResult (WriteJSON): the figures of
// WriteTo's lines, unrounded, heaps in bytes and times in nanoseconds,
// with the totals they derive from. Scripts parse it: fields are only
// ever added.
type benchJSON struct {
	TriggerEventsPerS     float64  `json:"trigger_events_per_s"`
	TriggerNsPerEvent     float64  `json:"trigger_ns_per_event"`
	TriggerAllocsPerEvent float64  `json:"trigger_allocs_per_event"`
	TriggerNs             int64    `json:"trigger_ns"`
	TriggerAllocs         uint64   `json:"trigger_allocs"`
	EndToEndEventsPerS    *float64 `json:"end_to_end_events_per_s"` // null: skipped
	EndToEndEvents        int      `json:"end_to_end_events"`
	EndToEndNs            int64    `json:"end_to_end_ns"`
	PeakHeapBytes         uint64   `json:"peak_heap_bytes"`
	EventsPerPass         int      `json:"events_per_pass"`
	Passes                int      `json:"passes"`
	EventsApplied         int      `json:"events_applied"`
	ElapsedNs             int64    `json:"elapsed_ns"`
	StateHeapBytes        uint64   `json:"state_heap_bytes"`
	EventBufferBytes      uint64   `json:"event_buffer_bytes"`
	LiveStateBytes        uint64   `json:"live_state_bytes"`
	MapEntries            *int     `json:"map_entries"` // null: not counted
	Partitions            int      `json:"partitions"`
}

// WriteJSON writes the result as one JSON object on one line:
//
//	trigger_events_per_s, trigger_ns_per_event, trigger_allocs_per_event
//	                        the triggers: line (trigger_ns, trigger_allocs: its totals)
//	end_to_end_events_per_s the end-to-end: line, null when skipped
//	                        (end_to_end_events, end_to_end_ns: its totals)
//	peak_heap_bytes         the peak heap: line
//	events_per_pass, passes, events_applied, elapsed_ns
//	                        the events: line
//	state_heap_bytes, event_buffer_bytes
//	                        the state heap: line
//	live_state_bytes, map_entries
//	                        the live state: line (map_entries null when the
//	                        engine does not count its entries)
//	partitions              the engines that ran the triggers (1, or Workers')
func (r BenchResult) WriteJSON(w io.Writer) error {
	j := benchJSON{
		TriggerEventsPerS:     r.EventsPerSecond(),
		TriggerNsPerEvent:     r.NsPerEvent(),
		TriggerAllocsPerEvent: r.AllocsPerEvent(),
		TriggerNs:             r.TriggerTime.Nanoseconds(),
		TriggerAllocs:         r.Allocs,
		EndToEndEvents:        r.EndToEndEvents,
		EndToEndNs:            r.EndToEndTime.Nanoseconds(),
		PeakHeapBytes:         r.PeakHeap,
		EventsPerPass:         r.EventsPerPass,
		Passes:                r.Passes,
		EventsApplied:         r.Events,
		ElapsedNs:             r.Elapsed.Nanoseconds(),
		StateHeapBytes:        r.StateHeap,
		EventBufferBytes:      r.BufferHeap,
		LiveStateBytes:        r.LiveState,
		Partitions:            max(r.Partitions, 1),
	}
	if r.MapEntries >= 0 {
		n := r.MapEntries
		j.MapEntries = &n
	}
	if r.EndToEndTime > 0 {
		e2e := r.EndToEndPerSecond()
		j.EndToEndEventsPerS = &e2e
	}
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// liveHeap collects garbage and returns the bytes of live heap objects.
func liveHeap() uint64 {
	rt.GC()
	var m rt.MemStats
	rt.ReadMemStats(&m)
	return m.HeapAlloc
}

// Bench measures e:
//
//  1. Untimed, it loads the static tables into e with Apply, then reads and
//     parses the stream events into a batch (NewBatch), and, when Repeat > 1,
//     their inverse into another (the events in reverse order, inserts and
//     deletes swapped), which returns the state to what the tables alone
//     give, so repetition does not grow the state.
//  2. It times e.ApplyBatch of the pass, then of the inverse and the pass
//     again Repeat−1 times (Repeat passes and Repeat−1 inverses, leaving e
//     in the state of one replay), and counts the heap allocations they
//     make. The events are parsed once, as an event source hands them over
//     one at a time: the trigger run does not stream a buffer of every
//     pass from memory (at a thousand passes of a cheap trigger, TPC-H Q6's,
//     that buffer's memory traffic was most of the time measured).
//  3. If opts.New is set, it times Repeat replays (Replay: read, parse and
//     apply everything, tables included), each into a fresh engine.
//
// Throughout, a sampler records the peak heap in use.
func Bench(e Engine, opts BenchOptions) (BenchResult, error) {
	start := time.Now()
	var res BenchResult
	k := max(opts.Repeat, 1)
	res.Passes = k
	progress := func(phase string) func(done, total int) {
		if opts.Progress == nil {
			return nil
		}
		return func(done, total int) { opts.Progress(phase, done, total) }
	}

	peak := startHeapSampler()
	defer peak.stop()
	base := liveHeap() // before any input is read

	// 1. Tables, then the stream events into a batch.
	rels := e.Relations()
	ropts := ReplayOptions{Dir: opts.Dir}
	tables, streams, err := openSources(rels, ropts)
	if err != nil {
		return res, err
	}
	if len(streams) == 0 {
		return res, errNoSources
	}
	var position func(string, int)
	if p, ok := e.(positioner); ok {
		position = p.notePosition
	}
	if _, err := drainTables(tables, e.Apply, position); err != nil {
		return res, err
	}
	b := InOrder(e.NewBatch())
	var log eventLog
	perPass, err := mergeStreams(streams, func(rel int, insert bool, fields [][]byte) error {
		if err := b.Add(rel, insert, fields); err != nil {
			return err
		}
		log.add(rel, insert, fields)
		return nil
	}, progress("collect"), nil)
	if err != nil {
		return res, err
	}
	res.EventsPerPass = perPass
	var inverse Batch
	if k > 1 {
		inverse = InOrder(e.NewBatch())
		if err := log.replay(inverse, true); err != nil {
			return res, err
		}
	}
	log = eventLog{}
	streams, tables = nil, nil

	// 2. Triggers.
	rt.GC()
	var m0, m1 rt.MemStats
	rt.ReadMemStats(&m0)
	peak.phase() // the trigger run's peak starts here
	if opts.CPUProfile != nil {
		if err := pprof.StartCPUProfile(opts.CPUProfile); err != nil {
			return res, err
		}
	}
	t0 := time.Now()
	applyErr := e.ApplyBatch(b)
	for range k - 1 {
		if applyErr != nil {
			break
		}
		if applyErr = e.ApplyBatch(inverse); applyErr == nil {
			applyErr = e.ApplyBatch(b)
		}
	}
	res.TriggerTime = time.Since(t0)
	if opts.CPUProfile != nil {
		pprof.StopCPUProfile()
	}
	if applyErr != nil {
		return res, applyErr
	}
	rt.ReadMemStats(&m1)
	peak.sample()
	trigPeak := peak.phase()
	res.Events = b.Len()
	if inverse != nil {
		res.Events += (k - 1) * (inverse.Len() + b.Len())
	}
	res.Allocs = m1.Mallocs - m0.Mallocs

	// The state apart from the buffer: drop the batch and measure again.
	withBatch := liveHeap()
	rt.KeepAlive(b) // b and inverse are live during the first measurement
	rt.KeepAlive(inverse)
	b, inverse = nil, nil
	withoutBatch := liveHeap()
	res.BufferHeap = sub(withBatch, withoutBatch)
	res.LiveState = sub(withoutBatch, base)
	res.MapEntries, res.Partitions = -1, 1
	if w, ok := e.(*Workers); ok {
		res.Partitions = w.Partitions()
	}
	if c, ok := e.(EntryCounter); ok {
		res.MapEntries = c.MapEntries()
	}
	res.StateHeap = sub(max(sub(trigPeak, res.BufferHeap), withoutBatch), base)

	// 3. End to end.
	if opts.New != nil {
		for range k {
			f := opts.New()
			rt.GC()
			t0 := time.Now()
			ro := ReplayOptions{Dir: opts.Dir, Progress: progress("end-to-end")}
			if p, ok := f.(positioner); ok {
				ro.position = p.notePosition
			}
			n, err := replay(f.Relations(), ro, f.Apply)
			if w, ok := f.(*Workers); ok && err == nil {
				err = w.Close() // the events still pending count
			}
			res.EndToEndTime += time.Since(t0)
			if err != nil {
				return res, err
			}
			res.EndToEndEvents += n
			peak.sample()
		}
	}
	res.PeakHeap = peak.stop()
	res.Elapsed = time.Since(start)
	return res, nil
}

// sub is a − b, or 0 when b > a.
func sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// eventLog records events compactly so that Bench can add them again.
type eventLog struct {
	rel    []int32
	insert []bool
	nf     []int32  // the number of fields of each event
	ends   []int32  // the end offset in data of each field
	data   []byte   // the fields' bytes, concatenated
	fields [][]byte // scratch for replay
}

func (l *eventLog) add(rel int, insert bool, fields [][]byte) {
	l.rel = append(l.rel, int32(rel))
	l.insert = append(l.insert, insert)
	l.nf = append(l.nf, int32(len(fields)))
	for _, f := range fields {
		l.data = append(l.data, f...)
		l.ends = append(l.ends, int32(len(l.data)))
	}
}

// replay adds the logged events to b, in order or (inverse) in reverse
// order with inserts and deletes swapped.
func (l *eventLog) replay(b Batch, inverse bool) error {
	n := len(l.rel)
	// starts[i] is the index in ends of event i's first field.
	starts := make([]int32, n+1)
	for i, c := range l.nf {
		starts[i+1] = starts[i] + c
	}
	for j := range n {
		i := j
		if inverse {
			i = n - 1 - j
		}
		l.fields = l.fields[:0]
		for f := starts[i]; f < starts[i+1]; f++ {
			from := int32(0)
			if f > 0 {
				from = l.ends[f-1]
			}
			l.fields = append(l.fields, l.data[from:l.ends[f]])
		}
		if err := b.Add(int(l.rel[i]), l.insert[i] != inverse, l.fields); err != nil {
			return err
		}
	}
	return nil
}

// heapSampler records the peak of the in-use heap from a goroutine that
// reads runtime/metrics (which neither stops the world nor allocates).
type heapSampler struct {
	mu       sync.Mutex
	max      uint64 // the peak over all phases
	phaseMax uint64 // the peak since the last call of phase
	samples  []metrics.Sample
	done     chan struct{}
	wg       sync.WaitGroup
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{
		samples: []metrics.Sample{
			{Name: "/memory/classes/heap/objects:bytes"},
			{Name: "/memory/classes/heap/unused:bytes"},
		},
		done: make(chan struct{}),
	}
	h.sample()
	h.wg.Go(func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.done:
				return
			case <-t.C:
				h.sample()
			}
		}
	})
	return h
}

func (h *heapSampler) sample() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sampleLocked()
}

func (h *heapSampler) sampleLocked() uint64 {
	metrics.Read(h.samples)
	var n uint64
	for _, s := range h.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			n += s.Value.Uint64()
		}
	}
	h.max = max(h.max, n)
	h.phaseMax = max(h.phaseMax, n)
	return n
}

// phase returns the peak since the previous call (or the start) and starts
// a new phase at the heap in use now.
func (h *heapSampler) phase() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.phaseMax
	h.phaseMax = 0
	h.sampleLocked()
	return p
}

// stop ends the sampler (once) and returns the peak.
func (h *heapSampler) stop() uint64 {
	select {
	case <-h.done:
	default:
		close(h.done)
		h.wg.Wait()
		h.sample()
	}
	return h.max
}

// BenchMain is the main function of a benchmark driver (toastgen bench). It
// runs Bench on newEngine() with New: newEngine and prints the result
// (BenchResult.WriteTo, or WriteJSON with -format json) on standard
// output. Flags:
//
//	-repeat K             passes over the streams (default 1)
//	-dir DIR              directory that relative source paths are resolved against
//	-format text|json     output format (default text)
//	-cpuprofile FILE      write a CPU profile of the trigger run to FILE
//	-workers N            run N partitions of the query on N goroutines (Workers)
//
// Progress goes to standard error when it is a terminal. Errors go to
// standard error and exit with status 1.
func BenchMain(newEngine func() Engine) {
	repeat := flag.Int("repeat", 1, "number of passes over the streams")
	dir := flag.String("dir", "", "resolve relative source paths against `DIR` (default: the working directory)")
	format := flag.String("format", "text", "output `format`: text or json")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the trigger run to `FILE`")
	workers := flag.Int("workers", 1, "run `N` partitions of the query on N goroutines")
	if !flag.Parsed() {
		flag.Parse()
	}
	if *workers > 1 {
		one := newEngine
		newEngine = func() Engine {
			w, err := partitions(one(), *workers)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", programName(), err)
				os.Exit(1)
			}
			return w
		}
	}
	if *repeat < 1 {
		fmt.Fprintf(os.Stderr, "%s: -repeat must be at least 1\n", programName())
		os.Exit(1)
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(os.Stderr, "%s: -format must be text or json, got %q\n", programName(), *format)
		os.Exit(1)
	}
	opts := BenchOptions{Repeat: *repeat, Dir: *dir, New: newEngine}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", programName(), err)
			os.Exit(1)
		}
		defer f.Close()
		opts.CPUProfile = f
	}
	if isTerminal(os.Stderr) {
		opts.Progress = func(phase string, done, total int) {
			terminalProgress(phase)(done, total)
		}
	}
	res, err := Bench(newEngine(), opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", programName(), err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	if *format == "json" {
		res.WriteJSON(w)
	} else {
		res.WriteTo(w)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", programName(), err)
		os.Exit(1)
	}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// terminalProgress returns a progress function that redraws one status line
// on standard error and clears it when done reaches total.
func terminalProgress(label string) func(done, total int) {
	return func(done, total int) {
		if done >= total {
			fmt.Fprint(os.Stderr, "\r\033[K")
			return
		}
		pct := 0
		if total > 0 {
			pct = done * 100 / total
		}
		fmt.Fprintf(os.Stderr, "\r%s: %d/%d lines (%d%%)\033[K", label, done, total, pct)
	}
}

func programName() string {
	if len(os.Args) > 0 && os.Args[0] != "" {
		return os.Args[0]
	}
	return "toastgen"
}

// partitions returns n partitions of e's query on n goroutines, or an
// error when e is not Partitioned.
func partitions(e Engine, n int) (*Workers, error) {
	pe, ok := e.(Partitioned)
	if !ok {
		return nil, fmt.Errorf("-workers %d: the engine (%T) is not partitioned: generate it with a partition plan (toastgen run -workers)", n, e)
	}
	return NewWorkers(pe, n)
}
