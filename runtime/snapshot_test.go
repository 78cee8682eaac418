package runtime

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// testMap is a map of a test schema: an INT key, a STRING key, a FLOAT key
// and a DATE key, and an INT or a FLOAT value.
type testEntry struct {
	i int64
	s string
	f float64
	d Date
	v int64
	x FloatSum
}

func writeTestSnapshot(t *testing.T, ints, floats []testEntry, scalar FloatSum) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewSnapshotWriter(&buf, SnapshotHeader{Query: "q.sql", Hash: "abc123", Sources: []SourceCount{{"R", 7}, {"S", 0}}})
	for _, m := range []struct {
		name string
		es   []testEntry
	}{{"INTS", ints}, {"FLOATS", floats}} {
		w.Map(m.name)
		for _, e := range m.es {
			w.Entry()
			w.Int(e.i)
			w.String(e.s)
			w.Float(e.f)
			w.Date(e.d)
			if m.name == "INTS" {
				w.Int(e.v)
			} else {
				w.Sum(e.x)
			}
		}
		w.End()
	}
	w.Map("SCALAR")
	w.Entry()
	w.Sum(scalar)
	w.End()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Len() != int64(buf.Len()) {
		t.Fatalf("Len() = %d, wrote %d bytes", w.Len(), buf.Len())
	}
	return buf.Bytes()
}

// readTestSnapshot reads what writeTestSnapshot wrote.
func readTestSnapshot(data []byte, hash string) (ints, floats []testEntry, scalar FloatSum, h SnapshotHeader, err error) {
	r, err := NewSnapshotReader(bytes.NewReader(data), "q.sql", hash)
	if err != nil {
		return nil, nil, FloatSum{}, h, err
	}
	for _, name := range []string{"INTS", "FLOATS"} {
		r.Map(name)
		for r.Next() {
			e := testEntry{i: r.Int(), s: r.String(), f: r.Float(), d: r.Date()}
			if name == "INTS" {
				e.v = r.Int()
				ints = append(ints, e)
			} else {
				e.x = r.Sum()
				floats = append(floats, e)
			}
		}
	}
	r.Map("SCALAR")
	if !r.Next() {
		r.Fail("no value")
	}
	scalar = r.Sum()
	if r.Next() {
		r.Fail("two values")
	}
	return ints, floats, scalar, r.Header(), r.Close()
}

func testSnapshotData() (ints, floats []testEntry, scalar FloatSum) {
	var sum FloatSum
	sum.Add(1e16)
	sum.Add(0.1) // a compensation term that must survive
	ints = []testEntry{
		{i: 0, s: "", f: 0, d: 0, v: 1},
		{i: math.MinInt64, s: "ä\x00b", f: math.Inf(-1), d: Date(19991231), v: math.MaxInt64},
		{i: math.MaxInt64, s: strings.Repeat("x", 70000), f: math.NaN(), d: -5, v: -3},
	}
	floats = []testEntry{{i: -1, s: "a|b", f: -0.5, d: 1, x: sum}}
	return ints, floats, sum
}

func TestSnapshotRoundTrip(t *testing.T) {
	ints, floats, scalar := testSnapshotData()
	data := writeTestSnapshot(t, ints, floats, scalar)
	gi, gf, gs, h, err := readTestSnapshot(data, "abc123")
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != SnapshotVersion || h.Query != "q.sql" || h.Hash != "abc123" || len(h.Sources) != 2 || h.Sources[0] != (SourceCount{"R", 7}) {
		t.Fatalf("header %+v", h)
	}
	if len(gi) != len(ints) || len(gf) != len(floats) {
		t.Fatalf("read %d and %d entries, wrote %d and %d", len(gi), len(gf), len(ints), len(floats))
	}
	for i, e := range ints {
		g := gi[i]
		if g.i != e.i || g.s != e.s || math.Float64bits(g.f) != math.Float64bits(e.f) || g.d != e.d || g.v != e.v {
			t.Errorf("entry %d: read %+v, wrote %+v", i, g, e)
		}
	}
	if gf[0].x != floats[0].x || gs != scalar || gs.c == 0 {
		t.Errorf("float sums: read %+v and %+v, wrote %+v", gf[0].x, gs, scalar)
	}
}

// TestSnapshotDamage: a snapshot cut at any byte, any byte of it changed,
// bytes added after it, another query's hash: each is an error, never a
// panic and never a snapshot read as if whole.
func TestSnapshotDamage(t *testing.T) {
	ints, floats, scalar := testSnapshotData()
	ints[2].s = "long enough to be written in its own piece? no: short"
	data := writeTestSnapshot(t, ints, floats, scalar)
	for n := range len(data) {
		if _, _, _, _, err := readTestSnapshot(data[:n], "abc123"); err == nil {
			t.Fatalf("cut after %d of %d bytes: no error", n, len(data))
		}
	}
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[i] ^= x
			_, _, _, _, err := readTestSnapshot(bad, "abc123")
			var se *SnapshotError
			if !errors.As(err, &se) {
				t.Fatalf("byte %d ^ %#x: error %v, want a *SnapshotError", i, x, err)
			}
		}
	}
	if _, _, _, _, err := readTestSnapshot(append(bytes.Clone(data), 0), "abc123"); err == nil || !strings.Contains(err.Error(), "after the snapshot's end") {
		t.Fatalf("a byte after the end: %v", err)
	}
	_, _, _, _, err := readTestSnapshot(data, "def456")
	if err == nil || !strings.Contains(err.Error(), "the compiled queries differ") {
		t.Fatalf("another query's snapshot: %v", err)
	}
	if _, err := NewSnapshotReader(strings.NewReader("hello"), "q.sql", "abc123"); err == nil || !strings.Contains(err.Error(), "not a toastgen snapshot") {
		t.Fatalf("not a snapshot: %v", err)
	}
	v2 := bytes.Clone(data)
	v2[len(snapshotMagic)] = 2
	if _, err := NewSnapshotReader(bytes.NewReader(v2), "q.sql", "abc123"); err == nil || !strings.Contains(err.Error(), "format version 2") {
		t.Fatalf("version 2: %v", err)
	}
}

// FuzzSnapshotReader reads arbitrary bytes as a snapshot of the test
// schema: an error or a snapshot, never a panic, a hang or an allocation
// beyond the input's size.
func FuzzSnapshotReader(f *testing.F) {
	ints, floats, scalar := testSnapshotData()
	ints[2].s = "short"
	var tb testing.T
	f.Add(writeTestSnapshot(&tb, ints, floats, scalar))
	f.Add(writeTestSnapshot(&tb, nil, nil, FloatSum{}))
	f.Add([]byte(snapshotMagic + "\x01\x05q.sql\x06abc123\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		gi, gf, _, _, err := readTestSnapshot(data, "abc123")
		if err == nil && len(gi)+len(gf) > len(data) {
			t.Fatalf("%d entries from %d bytes", len(gi)+len(gf), len(data))
		}
	})
}
