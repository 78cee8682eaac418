package runtime

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// RunOptions configures Run: what toastgen run does.
type RunOptions struct {
	Format  string // of the views: table or json
	Dir     string // against which relative source paths are resolved
	Changes bool   // write every view change as a JSON line first (WriteChangeJSON)
	// Snapshot, when set, names the file Run writes the engine's snapshot
	// to (a Snapshotter's) when the replay ends and, with SnapshotEvery
	// > 0, after every SnapshotEvery events applied. The file is replaced
	// whole (written beside it, then renamed), so that a run stopped while
	// writing leaves the last snapshot.
	Snapshot      string
	SnapshotEvery int64
	// Resume, when set, names a snapshot the engine is restored from before
	// the replay; the events of each relation it covers (the first so many
	// of its source) are read but not applied.
	Resume string
	// Load, when set, names a directory of existing tables: before the
	// replay, the rows of every relation whose source file (by its base
	// name) is there are applied as one batch under Policy (Load).
	Load     string
	Policy   Policy
	Progress func(done, total int) // see ReplayOptions
}

// Run replays the sources of e as opts say and writes its views to w.
// With Changes, change lines are numbered by the event's position in the
// whole replay, the events a resumed snapshot covers included.
func Run(e Engine, opts RunOptions, w io.Writer) error {
	var write func(io.Writer, []View) error
	switch opts.Format {
	case "table", "":
		write = WriteTable
	case "json":
		write = WriteJSON
	default:
		return fmt.Errorf("-format must be table or json, got %q", opts.Format)
	}
	if opts.SnapshotEvery < 0 {
		return fmt.Errorf("-snapshot-every must not be negative, got %d", opts.SnapshotEvery)
	}
	if opts.SnapshotEvery > 0 && opts.Snapshot == "" {
		return fmt.Errorf("-snapshot-every needs -snapshot FILE")
	}
	rels := e.Relations()
	d := &runDriver{Engine: e, opts: opts, covered: make([]int64, len(rels)), skip: make([]int64, len(rels))}
	if opts.Snapshot != "" || opts.Resume != "" {
		ss, ok := e.(Snapshotter)
		if !ok {
			return fmt.Errorf("the engine (%T) does not write snapshots", e)
		}
		d.snap = ss
	}
	if opts.Resume != "" && opts.Load != "" {
		return fmt.Errorf("-load and -resume exclude each other: a snapshot holds the state the tables would load")
	}
	if opts.Resume != "" {
		if err := d.resume(rels); err != nil {
			return err
		}
	}
	if opts.Load != "" {
		if _, err := Load(e, opts.Load, opts.Policy); err != nil {
			return err
		}
	}
	bw := bufio.NewWriter(w)
	if opts.Changes {
		cs, ok := e.(ChangeStreamer)
		if !ok {
			return fmt.Errorf("-changes: the engine (%T) does not report changes", e)
		}
		cs.OnChanges(func(c Change) {
			if d.err == nil {
				d.err = WriteChangeJSON(bw, int(d.n), c)
			}
		})
		defer cs.OnChanges(nil)
	}
	if err := Replay(d, ReplayOptions{Dir: opts.Dir, Progress: opts.Progress}); err != nil {
		return err
	}
	if d.err != nil {
		return d.err
	}
	for i, n := range d.skip {
		if n > 0 {
			return fmt.Errorf("-resume %s: the snapshot covers %d events of %s, its source has %d", opts.Resume, d.covered[i], rels[i].Name, d.covered[i]-n)
		}
	}
	if opts.Snapshot != "" {
		if err := d.writeSnapshot(); err != nil {
			return err
		}
	}
	views := e.Views()
	// An engine that can fail reading its views (the interpreter) says so.
	if f, ok := e.(interface{ Err() error }); ok && f.Err() != nil {
		return f.Err()
	}
	if err := write(bw, views); err != nil {
		return err
	}
	return bw.Flush()
}

// runDriver applies the events of a replay to its engine: it skips those
// a resumed snapshot covers, numbers the others, counts what the state
// covers per relation and writes snapshots.
type runDriver struct {
	Engine
	opts    RunOptions
	snap    Snapshotter
	skip    []int64 // per relation: events still to skip
	covered []int64 // per relation: events the state covers
	n       int64   // events read so far (the current one's number)
	applied int64   // events applied (not skipped)
	err     error   // of writing the change lines
}

func (d *runDriver) Apply(rel int, insert bool, fields [][]byte) error {
	d.n++
	if d.skip[rel] > 0 {
		d.skip[rel]--
		return nil
	}
	err := d.Engine.Apply(rel, insert, fields)
	if d.err != nil {
		return d.err
	}
	if err != nil {
		return err
	}
	d.covered[rel]++
	d.applied++
	if d.opts.SnapshotEvery > 0 && d.applied%d.opts.SnapshotEvery == 0 {
		return d.writeSnapshot()
	}
	return nil
}

// notePosition passes the position of each event on to an engine that
// wants it (Workers).
func (d *runDriver) notePosition(path string, line int) {
	if p, ok := d.Engine.(positioner); ok {
		p.notePosition(path, line)
	}
}

// resume restores the engine from opts.Resume.
func (d *runDriver) resume(rels []Relation) error {
	f, err := os.Open(d.opts.Resume)
	if err != nil {
		return fmt.Errorf("-resume: %v", err)
	}
	defer f.Close()
	srcs, err := d.snap.RestoreSnapshot(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("-resume %s: %v", d.opts.Resume, err)
	}
	index := map[string]int{}
	for i, r := range rels {
		index[r.Name] = i
	}
	for _, s := range srcs {
		i, ok := index[s.Relation]
		if !ok {
			return fmt.Errorf("-resume %s: the snapshot covers events of %s, which the query does not declare", d.opts.Resume, s.Relation)
		}
		d.skip[i] += s.Events
		d.covered[i] += s.Events
	}
	return nil
}

// writeSnapshot writes the engine's snapshot to opts.Snapshot, through a
// temporary file beside it.
func (d *runDriver) writeSnapshot() error {
	srcs := make([]SourceCount, 0, len(d.covered))
	for i, r := range d.Engine.Relations() {
		if d.covered[i] > 0 {
			srcs = append(srcs, SourceCount{Relation: r.Name, Events: d.covered[i]})
		}
	}
	path := d.opts.Snapshot
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("-snapshot: %v", err)
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<16)
	err = d.snap.WriteSnapshot(bw, srcs...)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("-snapshot: %v", err)
	}
	return nil
}

// Load applies the existing tables in dir to e as one batch under policy
// (runtime.Auto applies the large ones set-at-a-time): for each relation
// that a view reads and that has a source, the file of its source's base
// name in dir, if there is one, read as Replay reads the source (its
// format, adaptor and sequence numbers). It returns the number of events
// loaded. The events are a starting state, not a part of the stream: the
// snapshot counts of -snapshot do not include them.
func Load(e Engine, dir string, policy Policy) (int, error) {
	if st, err := os.Stat(dir); err != nil {
		return 0, fmt.Errorf("-load: %v", err)
	} else if !st.IsDir() {
		return 0, fmt.Errorf("-load %s: not a directory", dir)
	}
	rels := append([]Relation(nil), e.Relations()...)
	for i, r := range rels {
		if r.Source == nil || r.Unread {
			continue
		}
		src := *r.Source
		src.Path = filepath.Base(src.Path)
		if _, err := os.Stat(filepath.Join(dir, src.Path)); err != nil {
			rels[i].Source = nil // no table to load
			continue
		}
		rels[i].Source = &src
	}
	b := WithPolicy(e.NewBatch(), policy)
	n, err := replay(rels, ReplayOptions{Dir: dir}, b.Add)
	if err != nil {
		return n, fmt.Errorf("-load: %w", err)
	}
	return n, e.ApplyBatch(b)
}
