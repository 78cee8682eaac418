package tpch3_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch3"
)

// BenchmarkSnapshot writes and reads the snapshot of an engine that holds
// K key-shifted copies of DBToaster's standard TPC-H data (K = 100 by
// default, TOASTGEN_SNAPSHOT_COPIES to change; the data from -tpch DIR or
// ../shared/data/dbtoaster/tpch beside the repository), reporting MB/s
// and the snapshot's bytes per map entry.
func BenchmarkSnapshot(b *testing.B) {
	dir := *tpchDir
	if dir == "" {
		dir = filepath.Join(gentest.RepoRoot, "..", "shared", "data", "dbtoaster", "tpch")
	}
	dir = filepath.Join(dir, "standard")
	if _, err := os.Stat(dir); err != nil {
		b.Skip(err)
	}
	copies := 100
	if s := os.Getenv("TOASTGEN_SNAPSHOT_COPIES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("TOASTGEN_SNAPSHOT_COPIES=%q", s)
		}
		copies = n
	}
	e := tpch3.New()
	evs, err := gentest.Record(gentest.Relocate(e.Relations(), dir, false), "")
	if err != nil {
		b.Fatal(err)
	}
	// Shift the order and customer keys of each copy past the data's.
	keyCols := map[string][]int{"LINEITEM": {0}, "ORDERS": {0, 1}, "CUSTOMER": {0}}
	rels := e.Relations()
	for c := range copies {
		for _, ev := range evs {
			fields := ev.Fields
			if c > 0 {
				fields = make([][]byte, len(ev.Fields))
				copy(fields, ev.Fields)
				for _, col := range keyCols[rels[ev.Rel].Name] {
					k, err := strconv.ParseInt(string(fields[col]), 10, 64)
					if err != nil {
						b.Fatal(err)
					}
					fields[col] = strconv.AppendInt(nil, k+int64(c)*10_000_000, 10)
				}
			}
			if err := e.Apply(ev.Rel, ev.Insert, fields); err != nil {
				b.Fatal(err)
			}
		}
	}
	var snap bytes.Buffer
	if err := e.WriteSnapshot(&snap); err != nil {
		b.Fatal(err)
	}
	size := snap.Len()
	entries := e.MapEntries()
	b.Run("Write", func(b *testing.B) {
		b.SetBytes(int64(size))
		var buf bytes.Buffer
		buf.Grow(size)
		for b.Loop() {
			buf.Reset()
			if err := e.WriteSnapshot(&buf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(size)/float64(entries), "bytes/entry")
		b.ReportMetric(float64(entries), "entries")
	})
	b.Run("Read", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			r, err := tpch3.ReadSnapshot(bytes.NewReader(snap.Bytes()))
			if err != nil {
				b.Fatal(err)
			}
			if r.MapEntries() != entries {
				b.Fatalf("restored %d entries, want %d", r.MapEntries(), entries)
			}
		}
		b.ReportMetric(float64(size)/float64(entries), "bytes/entry")
	})
}

// FuzzReadSnapshot restores snapshots whose maps are arbitrary bytes (the
// header and checksum right, see gentest.Seal): an error or an engine
// whose views read, never a panic. Seeds: the maps of the example data's
// snapshot and of an empty engine's.
func FuzzReadSnapshot(f *testing.F) {
	_, p := gentest.Compile(f)
	hash := p.Fingerprint()
	for _, n := range []int{0, 100, -1} {
		e := tpch3.New()
		evs, err := gentest.Record(e.Relations(), gentest.RepoRoot)
		if err != nil {
			f.Fatal(err)
		}
		if n >= 0 {
			evs = evs[:min(n, len(evs))]
		}
		for _, ev := range evs {
			if err := e.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
				f.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := e.WriteSnapshot(&buf); err != nil {
			f.Fatal(err)
		}
		b := buf.Bytes()
		start := bytes.Index(b, []byte(hash)) + len(hash) + 1 // after the hash and no event counts
		f.Add(b[start : len(b)-8])
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		e, err := tpch3.ReadSnapshot(bytes.NewReader(gentest.Seal(hash, body)))
		if err == nil {
			e.Views()
		}
	})
}
