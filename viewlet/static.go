package viewlet

import (
	"slices"

	"github.com/toastgen/toastgen/runtime"
)

// Static tables (Program.StaticTables, dialect dbtoaster): the program
// lacks the statements that matter only when a table changes after stream
// events, so the interpreter rejects an event on a table after the first
// stream event (runtime.ErrStaticTable), its state unchanged; streamed
// records the first stream event (a restore sets it from the snapshot's
// counts, runtime.SnapshotStreamed).

// static rejects an event on a static table after the first stream event
// (Program.StaticTables), and notes a stream event.
func (in *Interp) static(rel string, insert bool, tuple []any) error {
	if !in.prog.StaticTables {
		return nil
	}
	for _, r := range in.rels {
		if r.Name != rel {
			continue
		}
		if r.Stream {
			in.streamed = true
		} else if in.streamed {
			return runtime.StaticTableError(rel, insert, tuple...)
		}
	}
	return nil
}

// staticBatch rejects a batch holding an event on a static table after a
// stream event, in the batch or before it: whole, before any event fires.
func (in *Interp) staticBatch(events []ievent) error {
	if !in.prog.StaticTables {
		return nil
	}
	streamed := in.streamed
	for _, e := range events {
		if i := slices.IndexFunc(in.rels, func(r runtime.Relation) bool { return r.Name == e.rel }); i >= 0 && in.rels[i].Stream {
			streamed = true
		} else if i >= 0 && streamed {
			return runtime.StaticTableError(e.rel, e.insert, e.tuple...)
		}
	}
	return nil
}
