package gentest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// CheckSnapshot cuts the example data of the package (then its inverse)
// at a few random points: at each, an engine's snapshot restored into a
// new engine must show the same views, and the restored engine, given the
// rest of the events, must end with the views of an engine that never
// stopped (checked every `every` events). A snapshot cut short, a byte of
// it changed or bytes after it are errors that leave the restoring engine
// as it was.
func CheckSnapshot(t *testing.T, newEngine func() runtime.Engine, every int) {
	t.Helper()
	e := newEngine()
	evs := RoundTrip(t, e)
	_, p := Compile(t)
	CheckSealed(t, newEngine, p)
	rng := rand.New(rand.NewPCG(1, uint64(len(evs))))
	cuts := []int{0, len(evs) / 2, rng.IntN(len(evs)), len(evs)}
	for _, cut := range cuts {
		// whole runs on uninterrupted after its snapshot (writing one
		// changes nothing).
		whole := newEngine()
		for _, ev := range evs[:cut] {
			if err := whole.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
				t.Fatal(err)
			}
		}
		var snap bytes.Buffer
		before := encodeViews(whole.Views())
		if err := whole.(runtime.Snapshotter).WriteSnapshot(&snap, runtime.SourceCount{Relation: "R", Events: int64(cut)}); err != nil {
			t.Fatal(err)
		}
		data := snap.Bytes()
		restored := newEngine()
		srcs, err := restored.(runtime.Snapshotter).RestoreSnapshot(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("cut at event %d: %v", cut, err)
		}
		if len(srcs) != 1 || srcs[0].Events != int64(cut) {
			t.Fatalf("cut at event %d: the snapshot records %v", cut, srcs)
		}
		if encodeViews(whole.Views()) != before {
			t.Fatalf("cut at event %d: writing the snapshot changed the views", cut)
		}
		if want, got := before, encodeViews(restored.Views()); got != want {
			t.Fatalf("cut at event %d: restored views differ:\n%s\nwant\n%s", cut, got, want)
		}
		checkDamage(t, restored, data)
		if rest := evs[cut:]; len(rest) > 0 {
			if err := Lockstep([]Named{{"uninterrupted", whole}, {"restored", restored}}, rest, every); err != nil {
				t.Fatalf("restored from a snapshot after event %d: %v", cut, err)
			}
		}
	}
}

// checkDamage restores damaged copies of the snapshot data into e: each
// must fail with a *runtime.SnapshotError and leave e's views as they
// were.
func checkDamage(t *testing.T, e runtime.Engine, data []byte) {
	t.Helper()
	before := encodeViews(e.Views())
	try := func(what string, bad []byte) {
		_, err := e.(runtime.Snapshotter).RestoreSnapshot(bytes.NewReader(bad))
		var se *runtime.SnapshotError
		if !errors.As(err, &se) {
			t.Fatalf("%s: error %v, want a *runtime.SnapshotError", what, err)
		}
		if got := encodeViews(e.Views()); got != before {
			t.Fatalf("%s: the failed restore changed the views", what)
		}
	}
	for _, n := range []int{0, 10, len(data) / 3, len(data) / 2, len(data) - 5, len(data) - 1} {
		if n >= 0 && n < len(data) {
			try("cut short", data[:n])
		}
	}
	for _, i := range []int{len(data) / 4, len(data) / 2, len(data) - 6, len(data) - 2} {
		if i >= 0 && i < len(data) {
			bad := bytes.Clone(data)
			bad[i] ^= 0x20
			try("a byte changed", bad)
		}
	}
	try("a byte after its end", append(bytes.Clone(data), '\n'))
}

func encodeViews(vs []runtime.View) string {
	var buf bytes.Buffer
	runtime.WriteJSON(&buf, vs)
	return buf.String()
}

// Seal returns a snapshot of the compiled maps with fingerprint hash whose
// maps are body: a header, body, and the trailer with the right checksum —
// bytes that pass the format's checks but those of the maps, for fuzzing
// and testing what reads them.
func Seal(hash string, body []byte) []byte {
	b := []byte("toastgen snapshot\n")
	b = binary.AppendUvarint(b, runtime.SnapshotVersion)
	for _, s := range []string{"sealed.sql", hash} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, 0) // no event counts
	b = append(b, body...)
	b = append(b, "end\n"...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// CheckSealed restores bodies sealed with p's fingerprint into engines of
// the package: the maps of a snapshot of the example data must restore to
// the same views, and bodies with a duplicate key, a zero value, a map
// missing or one too many must be errors.
func CheckSealed(t *testing.T, newEngine func() runtime.Engine, p *viewlet.Program) {
	t.Helper()
	maps := p.Maps
	// A body of one entry per keyed map (keys the types' zero values,
	// value v), the keyless maps 0; the map at dup has its entry twice.
	body := func(v int64, dup int) []byte {
		var buf bytes.Buffer
		w := runtime.NewSnapshotWriter(&buf, runtime.SnapshotHeader{Hash: "x"})
		header := w.Len()
		for i, m := range maps {
			w.Map(m.Name)
			n := 1
			if i == dup {
				n = 2
			}
			for range n {
				w.Entry()
				for _, k := range m.Keys {
					switch k.Type {
					case lang.TFloat:
						w.Float(0)
					case lang.TString:
						w.String("")
					case lang.TDate:
						w.Date(runtime.Date(20000101))
					default:
						w.Int(0)
					}
				}
				val := v
				if len(m.Keys) == 0 {
					val = 0
				}
				if m.Type == lang.TFloat {
					var f runtime.FloatSum
					f.Add(float64(val))
					w.Sum(f)
				} else {
					w.Int(val)
				}
			}
			w.End()
		}
		w.Close()
		// The maps: between the header and the trailer ("end\n" and the
		// checksum).
		b := buf.Bytes()
		return b[header : len(b)-8]
	}
	hash := p.Fingerprint()
	good := body(1, -1)
	keyed := false
	for _, m := range maps {
		keyed = keyed || len(m.Keys) > 0
	}
	if _, err := newEngine().(runtime.Snapshotter).RestoreSnapshot(bytes.NewReader(Seal(hash, good))); err != nil {
		t.Fatalf("a sealed snapshot of one entry per map: %v", err)
	}
	cases := []struct {
		what string
		body []byte
	}{
		{"a zero value", body(0, -1)},
		{"the maps missing", nil},
		{"a map too many", append(bytes.Clone(good), "\x05EXTRA\x00"...)},
	}
	for i, m := range maps {
		if len(m.Keys) > 0 {
			cases = append(cases, struct {
				what string
				body []byte
			}{"a duplicate key in " + m.Name, body(1, i)})
		}
	}
	for _, c := range cases {
		if !keyed && c.what == "a zero value" {
			continue
		}
		_, err := newEngine().(runtime.Snapshotter).RestoreSnapshot(bytes.NewReader(Seal(hash, c.body)))
		var se *runtime.SnapshotError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a *runtime.SnapshotError", c.what, err)
		}
	}
}
