package runtime

import "slices"

// ColumnType is the type of a relation column or a view column.
type ColumnType uint8

// Column types. Ints are int64, floats float64, dates Date.
const (
	Int ColumnType = iota + 1
	Float
	String
	DateType
)

func (t ColumnType) String() string {
	switch t {
	case Int:
		return "int"
	case Float:
		return "float"
	case String:
		return "string"
	case DateType:
		return "date"
	}
	return "invalid"
}

// EntryCounter is implemented by engines that count the entries of their
// keyed maps (generated engines do): Bench reports the state's bytes per
// entry with it.
type EntryCounter interface {
	MapEntries() int
}

// Column is a named, typed column. A Nullable column may hold NULL: in
// data a field \N, or an empty field of a non-string column (see
// ParseNullable); in views a nil value.
type Column struct {
	Name     string
	Type     ColumnType
	Nullable bool
}

// SourceSpec says where a relation's tuples come from: the FROM FILE clause.
type SourceSpec struct {
	Path   string            // as written in the query; relative to the working directory
	Format string            // "CSV" or "ORDERBOOK"
	Params map[string]string // lower-case keys: delimiter, deletions, book, brokers, deterministic
	// Framing: records are lines (both zero), separated by RecordSep
	// ('<string>' DELIMITED), or RecordWidth bytes long (FIXEDWIDTH n).
	RecordSep   string
	RecordWidth int
}

// Relation describes a base relation of a query file.
type Relation struct {
	Name    string // upper case
	Stream  bool   // false for a static TABLE
	Columns []Column
	Source  *SourceSpec // nil when the relation has no FROM FILE clause
	// Unread reports a relation that no view reads: its events change
	// nothing, and drivers do not read its source (a schema file may
	// declare relations a query does not use).
	Unread bool
}

// View is a snapshot of one query result, rows sorted by key.
// Row values are int64, float64, string or Date, or nil for NULL.
type View struct {
	Name   string
	Keys   []Column // in the order the SELECT names them, then unselected GROUP BY keys
	Values []Column
	Rows   [][]any
	// Columns is the SELECT list in order: which key or value each output
	// column shows. Unselected GROUP BY keys are not in it, nor the COUNT
	// (multiplicity) value of a query without aggregates. Nil when the
	// engine does not know its SELECT list: every key, then every value.
	Columns []OutputColumn
	// Order, for a view with an ORDER BY or a LIMIT, is the total order of
	// its rows, which Rows follow; nil: Rows are sorted by key (SortRows).
	Order []SortKey
}

// SortKey orders rows by the value at position Pos of a row (the view's
// keys, then its values), descending with Desc. NULL (nil) sorts first in
// ascending order and last in descending order, as in SQLite.
type SortKey struct {
	Pos  int
	Desc bool
}

// CompareRows compares two rows in the order given, with CompareValues.
func CompareRows(a, b []any, order []SortKey) int {
	for _, k := range order {
		c := CompareValues(a[k.Pos], b[k.Pos])
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// OutputColumn is one item of a view's SELECT list: key Index of the view
// when Key is set, else value Index.
type OutputColumn struct {
	Name  string
	Key   bool
	Index int
}

// OutputColumns returns v.Columns, or, when it is nil, every key and then
// every value, under their own names.
func (v *View) OutputColumns() []OutputColumn {
	if v.Columns != nil {
		return v.Columns
	}
	out := make([]OutputColumn, 0, len(v.Keys)+len(v.Values))
	for i, k := range v.Keys {
		out = append(out, OutputColumn{Name: k.Name, Key: true, Index: i})
	}
	for i, c := range v.Values {
		out = append(out, OutputColumn{Name: c.Name, Index: i})
	}
	return out
}

// Batch holds parsed events in memory, so that triggers can be timed apart
// from parsing.
type Batch interface {
	// Add parses one event's fields (one per column, in schema order) and appends it.
	Add(rel int, insert bool, fields [][]byte) error
	// Len is the number of events held.
	Len() int
}

// InOrder marks b to be applied event by event, in the order its events
// were added, and returns it. Generated packages and the interpreter
// consolidate a batch first (ApplyBatch: a tuple inserted and deleted in
// it fires no trigger); benchmarks of the per-event triggers, which apply
// a stream and its inverse in one batch, must not. A batch that does not
// consolidate is returned as it is.
func InOrder(b Batch) Batch {
	if o, ok := b.(interface{ InOrder() }); ok {
		o.InOrder()
	}
	return b
}

// Engine is a compiled query file (a generated package) or the interpreter.
// Relation indexes refer to the order of Relations().
type Engine interface {
	Relations() []Relation
	// Apply parses one event's fields and fires the insert or delete trigger.
	Apply(rel int, insert bool, fields [][]byte) error
	// NewBatch returns an empty batch for this engine's relations.
	NewBatch() Batch
	// ApplyBatch fires the triggers of every event in b, in order. b must
	// come from this engine's NewBatch; another engine's batch is an error.
	ApplyBatch(b Batch) error
	// Views returns a snapshot of every query result, in query order.
	Views() []View
}

// Window sorts rows in the given order and keeps the rows at positions
// offset to offset+count−1 (count < 0: all from offset on). With mult ≥ 0
// the rows are a bag: row[mult] is a row's multiplicity, it stands for as
// many rows of the order, and a row the window cuts keeps the multiplicity
// of its part. It returns the rows kept, in order.
func Window(rows [][]any, order []SortKey, offset, count int64, mult int) [][]any {
	slices.SortStableFunc(rows, func(a, b []any) int { return CompareRows(a, b, order) })
	var out [][]any
	pos := int64(0)
	for _, r := range rows {
		n := int64(1)
		if mult >= 0 {
			n = max(r[mult].(int64), 0) // a negative multiplicity (a Z-set's) takes no place
		}
		part := shownPart(pos, n, offset, count)
		pos += n
		if part == 0 {
			continue
		}
		if mult >= 0 && part != n {
			r = slices.Clone(r)
			r[mult] = part
		}
		out = append(out, r)
	}
	return out
}

// Limit returns the rows at positions offset to offset+count−1 of rows,
// which are in a view's order. With weight non-nil the rows are a bag's:
// *weight(r) is a row's multiplicity, it stands for as many rows, and a
// row the window cuts keeps the multiplicity of its part (rows is changed
// in place).
func Limit[R any](rows []R, offset, count int64, weight func(*R) *int64) []R {
	if weight == nil {
		lo := min(offset, int64(len(rows)))
		return rows[lo:min(lo+count, int64(len(rows)))]
	}
	out := rows[:0]
	pos := int64(0)
	for i := range rows {
		w := weight(&rows[i])
		n := max(*w, 0) // a negative multiplicity (a Z-set's) takes no place
		part := shownPart(pos, n, offset, count)
		pos += n
		if part > 0 {
			*w = part
			out = append(out, rows[i])
		}
	}
	return out
}

// shownPart is how many of the n rows at positions pos to pos+n−1 of an
// order fall in the window of positions offset to offset+count−1 (count <
// 0: no end): what Window, Limit and SortedSet show of a weighted row.
func shownPart(pos, n, offset, count int64) int64 {
	lo, hi := max(pos, offset), pos+n
	if count >= 0 {
		hi = min(hi, offset+count)
	}
	return max(hi-lo, 0)
}
