package runtime

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// Change is a change of one row of a view: Key holds the row's keys and
// Old and New its values before and after, in the order of View.Keys and
// View.Values; Old is nil for a row that appeared, New nil for one that
// disappeared. A row whose values changed is one Change, not a delete and
// an insert.
type Change struct {
	View     string
	Key      []any
	Old, New []any
}

// ChangeStreamer is implemented by engines that report the changes of
// their views (generated engines and the interpreter): OnChanges(f) makes
// the engine call f, after each event applied by an Insert, Delete or
// Apply method and after each ApplyBatch, with every view row that event
// or batch changed — a batch reports each row once, its state before and
// after the batch, and nothing for a row that changed and changed back.
// OnChanges(nil) stops the calls.
type ChangeStreamer interface {
	OnChanges(f func(Change))
}

// DiffViews calls f with the changes that turn views old into views now
// (the same views, as Engine.Views returns them): the rows of now whose
// key is new or whose values differ, in now's order, then the rows of old
// whose key is gone, in old's order. Floats compare by value, NaN equal
// to NaN.
func DiffViews(old, now []View, f func(Change)) {
	for i, v := range now {
		var before []View
		if i < len(old) {
			before = old[i : i+1]
		}
		diffView(before, v, f)
	}
}

func diffView(old []View, v View, f func(Change)) {
	nk := len(v.Keys)
	prev := map[string][]any{}
	var order []string
	var buf []byte
	if len(old) == 1 {
		for _, row := range old[0].Rows {
			buf = appendRowKey(buf[:0], row[:nk])
			k := string(buf)
			if _, dup := prev[k]; !dup {
				order = append(order, k)
			}
			prev[k] = row
		}
	}
	seen := map[string]bool{}
	for _, row := range v.Rows {
		buf = appendRowKey(buf[:0], row[:nk])
		k := string(buf)
		seen[k] = true
		p, had := prev[k]
		switch {
		case !had:
			f(Change{View: v.Name, Key: row[:nk], New: row[nk:]})
		case !sameCells(p[nk:], row[nk:]):
			f(Change{View: v.Name, Key: row[:nk], Old: p[nk:], New: row[nk:]})
		}
	}
	for _, k := range order {
		if !seen[k] {
			p := prev[k]
			f(Change{View: v.Name, Key: p[:nk], Old: p[nk:]})
		}
	}
}

// appendRowKey encodes the cells of a row's key so that two keys encode
// alike exactly when they are equal: a type tag, then the value.
func appendRowKey(b []byte, cells []any) []byte {
	for _, c := range cells {
		switch x := c.(type) {
		case nil:
			b = append(b, 'n')
		case int64:
			b = binary.AppendVarint(append(b, 'i'), x)
		case float64:
			b = binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(x))
		case string:
			b = append(binary.AppendUvarint(append(b, 's'), uint64(len(x))), x...)
		case Date:
			b = binary.AppendVarint(append(b, 'd'), int64(x))
		default:
			b = append(b, '?')
		}
	}
	return b
}

func sameCells(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		x, ok1 := a[i].(float64)
		y, ok2 := b[i].(float64)
		if !ok1 || !ok2 || !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	return true
}

// WriteChangeJSON writes c as one line of JSON, the format of toastgen run
// -changes: {"event":N,"view":…,"key":[…],"old":[…]|null,"new":[…]|null},
// cells as in WriteJSON.
func WriteChangeJSON(w io.Writer, event int, c Change) error {
	b := append([]byte(`{"event":`), strconv.Itoa(event)...)
	b = append(b, `,"view":`...)
	b = appendJSONString(b, c.View)
	var err error
	cells := func(name string, xs []any, null bool) {
		b = append(b, `,"`+name+`":`...)
		if null {
			b = append(b, "null"...)
			return
		}
		b = append(b, '[')
		for i, x := range xs {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSONValue(b, x); err != nil {
				return
			}
		}
		b = append(b, ']')
	}
	cells("key", c.Key, false)
	cells("old", c.Old, c.Old == nil)
	cells("new", c.New, c.New == nil)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, "}\n"...))
	return err
}

// Replica keeps copies of views from their change stream: a reader (on
// another goroutine, or another machine) applies the changes an engine
// reports to the views as they were when it subscribed, and reads the
// views as they are now.
type Replica struct {
	views []View
	rows  []map[string][]any // per view, rows by encoded key
	index map[string]int     // view name → position
	buf   []byte
}

// NewReplica returns a replica of views (Engine.Views at subscription:
// their rows are copied; an empty engine's views have none).
func NewReplica(views []View) *Replica {
	r := &Replica{index: map[string]int{}}
	for i, v := range views {
		r.index[v.Name] = i
		rows := map[string][]any{}
		for _, row := range v.Rows {
			rows[string(appendRowKey(nil, row[:len(v.Keys)]))] = row
		}
		v.Rows = nil
		r.views = append(r.views, v)
		r.rows = append(r.rows, rows)
	}
	return r
}

// Apply applies one change; a change of an unknown view is an error.
func (r *Replica) Apply(c Change) error {
	i, ok := r.index[c.View]
	if !ok {
		return fmt.Errorf("replica: no view %s", c.View)
	}
	r.buf = appendRowKey(r.buf[:0], c.Key)
	if c.New == nil {
		delete(r.rows[i], string(r.buf))
		return nil
	}
	r.rows[i][string(r.buf)] = append(slices.Clone(c.Key), c.New...)
	return nil
}

// Views returns the replicated views, rows sorted by key, or in the view's
// order for a view with an ORDER BY or a LIMIT (as Engine.Views).
func (r *Replica) Views() []View {
	out := make([]View, len(r.views))
	for i, v := range r.views {
		for _, row := range r.rows[i] {
			v.Rows = append(v.Rows, row)
		}
		if v.Order != nil {
			slices.SortFunc(v.Rows, func(a, b []any) int { return CompareRows(a, b, v.Order) })
		} else {
			SortRows(v.Rows, len(v.Keys))
		}
		out[i] = v
	}
	return out
}

// SameValue reports whether a and b are the same cell, as DiffViews
// compares them: equal, or both NaN.
func SameValue[T comparable](a, b T) bool {
	return a == b || a != a && b != b
}

// SameNull reports whether a and b are the same cell, as DiffViews
// compares their boxed values: both NULL, or both non-NULL and SameValue.
func SameNull[T comparable](a, b Null[T]) bool {
	return a.Valid == b.Valid && (!a.Valid || SameValue(a.V, b.V))
}
