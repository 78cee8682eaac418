package runtime

import "errors"

// Static tables. In dialect dbtoaster a TABLE is static, as DBToaster's:
// its rows are loaded before the first stream event, and the compiled
// program leaves out the statements that only matter when a table changes
// under rows of a stream. An event on a static table after the first
// stream event would then give a wrong view: engines reject it instead
// (an *EventError whose Err is ErrStaticTable), leaving their state as it
// was. In dialect sql a TABLE may change at any time, like a stream.

// ErrStaticTable is the reason of an EventError for an event on a static
// table after the first stream event.
var ErrStaticTable = errors.New("an event on a static TABLE after the first stream event (in dialect dbtoaster a TABLE is loaded first and never changes; in dialect sql a TABLE may change at any time)")

// StaticTableError returns the *EventError of an event on static table rel
// rejected after the first stream event (Err is ErrStaticTable).
func StaticTableError(rel string, insert bool, tuple ...any) error {
	return &EventError{Rel: rel, Insert: insert, Tuple: tuple, Err: ErrStaticTable}
}

// FieldValues returns the fields of an unparsed event as strings, for an
// EventError of an event rejected before it is parsed.
func FieldValues(f [][]byte) []any {
	out := make([]any, len(f))
	for i, b := range f {
		out[i] = string(b)
	}
	return out
}

// SnapshotStreamed reports whether the state a snapshot restores has seen
// a stream event, by the event counts it records (sources): a restored
// engine then rejects events on its static tables as the engine that
// wrote it would. A snapshot that records no counts is taken to have seen
// one.
func SnapshotStreamed(rels []Relation, sources []SourceCount) bool {
	if len(sources) == 0 {
		return true
	}
	stream := map[string]bool{}
	for _, r := range rels {
		stream[r.Name] = r.Stream
	}
	for _, s := range sources {
		if stream[s.Relation] && s.Events > 0 {
			return true
		}
	}
	return false
}
