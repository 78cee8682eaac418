package viewlet

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Fingerprint identifies the state the Program keeps, for snapshots
// (runtime.SnapshotHeader.Hash): a hex SHA-256 of the dialect, the
// relations' columns and every map's name, keys, type and definition, in
// order. Two compilations with the same fingerprint keep the same maps,
// so a snapshot of one restores into the other, in either engine; any
// other difference (another query, another depth) changes it.
func (p *Program) Fingerprint() string {
	var b strings.Builder
	fmt.Fprintf(&b, "toastgen snapshot %d\ndialect %d\n", runtime.SnapshotVersion, p.Dialect)
	for _, r := range p.Relations {
		fmt.Fprintf(&b, "relation %s stream=%v", r.Name, r.Stream)
		for _, c := range r.Columns {
			fmt.Fprintf(&b, " %s:%s:%v", c.Name, c.Type, c.Nullable)
		}
		b.WriteByte('\n')
	}
	for _, m := range p.Maps {
		fmt.Fprintf(&b, "map %s %s [", m.Name, m.Type)
		for i, k := range m.Keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s:%s", k.Name, k.Type)
		}
		fmt.Fprintf(&b, "] := %s\n", calculus.String(m.Def))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// WriteSnapshot implements runtime.Snapshotter: the maps' entries in the
// format generated engines write (see runtime.SnapshotWriter), so that a
// snapshot of either engine restores into the other. An interpreter that
// reads base relations directly (Program statements over relations, which
// generated code does not compile) cannot write one.
func (in *Interp) WriteSnapshot(w io.Writer, sources ...runtime.SourceCount) error {
	if in.err != nil {
		return in.err
	}
	if len(in.base) > 0 {
		return fmt.Errorf("%s: snapshot: the program reads base relations directly; only programs of maps have snapshots", in.prog.Source)
	}
	sw := runtime.NewSnapshotWriter(w, runtime.SnapshotHeader{Query: filepath.Base(in.prog.Source), Hash: in.prog.Fingerprint(), Sources: sources})
	for _, m := range in.prog.Maps {
		im := in.maps[m.Name]
		sw.Map(m.Name)
		if len(m.Keys) == 0 {
			// A keyless map is one value, 0 included (it may differ from
			// the map's initial value).
			sw.Entry()
			var e ientry
			if x := im.lookup(nil); x != nil {
				e = *x
			}
			if im.isInt {
				sw.Int(e.i)
			} else {
				sw.Sum(e.f)
			}
			sw.End()
			continue
		}
		for _, e := range im.entries {
			sw.Entry()
			for i, k := range m.Keys {
				writeKey(sw, k.Type, e.keys[i])
			}
			if im.isInt {
				sw.Int(e.i)
			} else {
				sw.Sum(e.f)
			}
		}
		sw.End()
	}
	return sw.Close()
}

func writeKey(sw *runtime.SnapshotWriter, t lang.Type, k any) {
	switch t {
	case lang.TInt:
		switch x := k.(type) {
		case int64:
			sw.Int(x)
		case float64:
			sw.Int(int64(x))
		}
	case lang.TFloat:
		switch x := k.(type) {
		case int64:
			sw.Float(float64(x))
		case float64:
			sw.Float(x)
		}
	case lang.TString:
		sw.String(k.(string))
	case lang.TDate:
		sw.Date(k.(runtime.Date))
	}
}

func readKey(sr *runtime.SnapshotReader, t lang.Type) any {
	switch t {
	case lang.TFloat:
		return sr.Float()
	case lang.TString:
		return sr.String()
	case lang.TDate:
		return sr.Date()
	}
	return sr.Int()
}

// RestoreSnapshot implements runtime.Snapshotter: it replaces the
// interpreter's maps with the snapshot's (which must be of a Program with
// the same Fingerprint), rebuilds its kernels, and returns the event
// counts the snapshot records. On an error the interpreter is unchanged.
func (in *Interp) RestoreSnapshot(r io.Reader) ([]runtime.SourceCount, error) {
	if in.err != nil {
		return nil, in.err
	}
	if len(in.base) > 0 {
		return nil, fmt.Errorf("%s: snapshot: the program reads base relations directly; only programs of maps have snapshots", in.prog.Source)
	}
	sr, err := runtime.NewSnapshotReader(r, filepath.Base(in.prog.Source), in.prog.Fingerprint())
	if err != nil {
		return nil, err
	}
	maps := make(map[string]*imap, len(in.prog.Maps))
	keys := []any{}
	for _, m := range in.prog.Maps {
		im := newIMap(m.Type == lang.TInt)
		maps[m.Name] = im
		sr.Map(m.Name)
		if len(m.Keys) == 0 {
			if !sr.Next() {
				sr.Fail("a keyless map without its value")
			}
			if im.isInt {
				if v := sr.Int(); v != 0 {
					im.entry(nil).i = v
				}
			} else if f := sr.Sum(); f != (runtime.FloatSum{}) {
				im.entry(nil).f = f
			}
			if sr.Next() {
				sr.Fail("a keyless map with two values")
			}
			continue
		}
		for sr.Next() {
			keys = keys[:0]
			for _, k := range m.Keys {
				keys = append(keys, readKey(sr, k.Type))
			}
			dup := im.lookup(keys) != nil
			var v int64
			var f runtime.FloatSum
			if im.isInt {
				v = sr.Int()
			} else {
				f = sr.Sum()
			}
			switch {
			case sr.Err() != nil:
			case dup:
				sr.Fail("a duplicate key")
			case im.isInt && v == 0 || !im.isInt && f.IsZero():
				sr.Fail("a zero value")
			case im.isInt:
				im.entry(keys).i = v
			default:
				im.entry(keys).f = f
			}
		}
	}
	if err := sr.Close(); err != nil {
		return nil, err
	}
	kernels := map[string]*runtime.TriangleCount[string, string, string]{}
	for _, m := range in.prog.Maps {
		if m.Kernel == nil {
			continue
		}
		k := &runtime.TriangleCount[string, string, string]{}
		for i, input := range m.Kernel.Inputs {
			split := m.Kernel.Split[i]
			for _, e := range maps[input.Name].entries {
				a, b := string(appendKey(nil, e.keys[:split])), string(appendKey(nil, e.keys[split:]))
				switch i {
				case 0:
					k.Set1(a, b, e.i)
				case 1:
					k.Set2(a, b, e.i)
				case 2:
					k.Set3(a, b, e.i)
				}
			}
		}
		kernels[m.Name] = k
		km := maps[m.Name]
		km.addInt(nil, k.Count()-km.get(nil).(int64))
	}
	in.maps, in.kernels = maps, kernels
	if in.changes != nil {
		// A subscriber is told the changes from the views before to the
		// views restored: a replica kept from the stream stays equal.
		now := in.Views()
		runtime.DiffViews(in.shown, now, in.changes)
		in.shown = now
	}
	in.streamed = runtime.SnapshotStreamed(in.rels, sr.Header().Sources)
	return sr.Header().Sources, nil
}
