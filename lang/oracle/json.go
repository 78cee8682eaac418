package oracle

import (
	"encoding/json"
	"fmt"

	"github.com/toastgen/toastgen/runtime"
)

// JSONView is one view as runtime.WriteJSON prints it, cells undecoded.
type JSONView struct {
	Name    string              `json:"name"`
	Keys    []string            `json:"keys"`
	Values  []string            `json:"values"`
	Columns []JSONColumn        `json:"columns"`
	Rows    [][]json.RawMessage `json:"rows"`
	// Order is the order of an ordered view's rows (nil: by key).
	Order []struct {
		Cell int  `json:"cell"`
		Desc bool `json:"desc"`
	} `json:"order"`
}

// JSONColumn is one output column of a JSONView: exactly one of Key and
// Value is set.
type JSONColumn struct {
	Name  string `json:"name"`
	Key   *int   `json:"key"`
	Value *int   `json:"value"`
}

// DecodeJSON reads the views of one runtime.WriteJSON line.
func DecodeJSON(line []byte) ([]JSONView, error) {
	var out struct {
		Views []JSONView `json:"views"`
	}
	if err := json.Unmarshal(line, &out); err != nil {
		return nil, err
	}
	return out.Views, nil
}

// Typed converts a decoded view to runtime values, using the column types
// of like (the oracle's view of the same query): ints, floats, strings, and
// dates from "yyyy-mm-dd". Its Columns are the decoded ones, so that
// Compare checks what the engine printed.
func Typed(v JSONView, like runtime.View) (runtime.View, error) {
	out := runtime.View{Name: v.Name, Keys: like.Keys, Values: like.Values}
	for _, k := range v.Order {
		out.Order = append(out.Order, runtime.SortKey{Pos: k.Cell, Desc: k.Desc})
	}
	if len(v.Keys) != len(like.Keys) || len(v.Values) != len(like.Values) {
		return out, fmt.Errorf("view %s: columns %v %v, want %d keys and %d values", v.Name, v.Keys, v.Values, len(like.Keys), len(like.Values))
	}
	out.Columns = []runtime.OutputColumn{} // printed, if empty: not the fallback
	for _, c := range v.Columns {
		switch {
		case c.Key != nil && c.Value == nil:
			out.Columns = append(out.Columns, runtime.OutputColumn{Name: c.Name, Key: true, Index: *c.Key})
		case c.Value != nil && c.Key == nil:
			out.Columns = append(out.Columns, runtime.OutputColumn{Name: c.Name, Index: *c.Value})
		default:
			return out, fmt.Errorf("view %s: output column %s needs one of key and value", v.Name, c.Name)
		}
	}
	cols := append(append([]runtime.Column{}, like.Keys...), like.Values...)
	for _, raw := range v.Rows {
		if len(raw) != len(cols) {
			return out, fmt.Errorf("view %s: a row of %d cells, want %d", v.Name, len(raw), len(cols))
		}
		row := make([]any, len(raw))
		for i, cell := range raw {
			var err error
			if string(cell) == "null" {
				row[i] = nil // NULL (dialect sql)
				continue
			}
			switch cols[i].Type {
			case runtime.Int:
				var n int64
				err = json.Unmarshal(cell, &n)
				row[i] = n
			case runtime.Float:
				var f float64
				err = json.Unmarshal(cell, &f)
				row[i] = f
			case runtime.String:
				var s string
				err = json.Unmarshal(cell, &s)
				row[i] = s
			case runtime.DateType:
				var s string
				if err = json.Unmarshal(cell, &s); err == nil {
					row[i], err = runtime.ParseDate([]byte(s))
				}
			}
			if err != nil {
				return out, fmt.Errorf("view %s: cell %s: %v", v.Name, cell, err)
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out, nil
}
