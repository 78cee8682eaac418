package runtime

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
