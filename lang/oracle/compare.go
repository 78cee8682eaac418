package oracle

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/toastgen/toastgen/runtime"
)

// AbsTol is the absolute tolerance under which two floats are equal whatever
// their relative difference: sums that cancel leave residues like 1e-13.
const AbsTol = 1e-6

// Compare reports how view got differs from the expected view want, or nil
// if they are equal: same column names and types, same number of rows, and
// the same output columns (Columns, when want has them: an engine must
// report the SELECT list as the front end reads it), and
// row by row (both sorted by key, or, for a view with an ORDER BY or a
// LIMIT, both in its order) equal values of the same Go type. Ints,
// strings and dates must be equal; floats a and b are equal when
// |a-b| ≤ max(tol·max(|a|,|b|), AbsTol) — tol is the relative tolerance,
// typically 1e-9. The error shows the first differing row of each side.
func Compare(want, got runtime.View, tol float64) error {
	if err := compareColumns("key", want.Keys, got.Keys); err != nil {
		return err
	}
	if err := compareColumns("value", want.Values, got.Values); err != nil {
		return err
	}
	if want.Columns != nil && !slices.EqualFunc(want.Columns, got.OutputColumns(), func(a, b runtime.OutputColumn) bool {
		return strings.EqualFold(a.Name, b.Name) && a.Key == b.Key && a.Index == b.Index
	}) {
		return fmt.Errorf("view %s: output columns: want %s, got %s", want.Name, FormatOutputColumns(want.Columns), FormatOutputColumns(got.OutputColumns()))
	}
	if want.Order != nil && got.Order == nil {
		return fmt.Errorf("view %s: the rows are not in the view's ORDER BY order", want.Name)
	}
	n := max(len(want.Rows), len(got.Rows))
	for i := range n {
		var w, g []any
		if i < len(want.Rows) {
			w = want.Rows[i]
		}
		if i < len(got.Rows) {
			g = got.Rows[i]
		}
		if w != nil && g != nil && rowsEqual(w, g, tol) {
			continue
		}
		return fmt.Errorf("view %s: %d rows want, %d got; first difference at row %d:\n  want %s\n  got  %s",
			want.Name, len(want.Rows), len(got.Rows), i, FormatRow(w), FormatRow(g))
	}
	return nil
}

func compareColumns(what string, want, got []runtime.Column) error {
	if len(want) != len(got) {
		return fmt.Errorf("%s columns: want %s, got %s", what, formatColumns(want), formatColumns(got))
	}
	for i := range want {
		if !strings.EqualFold(want[i].Name, got[i].Name) || want[i].Type != got[i].Type {
			return fmt.Errorf("%s columns: want %s, got %s", what, formatColumns(want), formatColumns(got))
		}
	}
	return nil
}

// FormatOutputColumns prints a SELECT list as "(A key 0, SUM_B value 0)".
func FormatOutputColumns(cs []runtime.OutputColumn) string {
	var s []string
	for _, c := range cs {
		what := "value"
		if c.Key {
			what = "key"
		}
		s = append(s, fmt.Sprintf("%s %s %d", c.Name, what, c.Index))
	}
	return "(" + strings.Join(s, ", ") + ")"
}

func formatColumns(cs []runtime.Column) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.Name+" "+c.Type.String())
	}
	return "(" + strings.Join(s, ", ") + ")"
}

func rowsEqual(w, g []any, tol float64) bool {
	if len(w) != len(g) {
		return false
	}
	for i := range w {
		if !valuesEqual(w[i], g[i], tol) {
			return false
		}
	}
	return true
}

func valuesEqual(w, g any, tol float64) bool {
	switch w := w.(type) {
	case nil:
		return g == nil // NULL (dialect sql)
	case float64:
		g, ok := g.(float64)
		if !ok {
			return false
		}
		if w == g {
			return true
		}
		d := math.Abs(w - g)
		return d <= max(tol*max(math.Abs(w), math.Abs(g)), AbsTol)
	case int64, string, runtime.Date:
		return w == g
	}
	return false
}

// FormatRow renders a row with each value's type visible: 3 (int), 3.0
// (float), "s" (string), 1995-01-02 (date); a missing row is "(none)".
func FormatRow(row []any) string {
	if row == nil {
		return "(none)"
	}
	var s []string
	for _, v := range row {
		s = append(s, FormatValue(v))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// FormatValue renders one value as FormatRow does.
func FormatValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return fmt.Sprint(v)
	case float64:
		s := fmt.Sprint(v)
		if !strings.ContainsAny(s, ".eEIN") {
			s += ".0"
		}
		return s
	case string:
		return fmt.Sprintf("%q", v)
	case runtime.Date:
		return v.String()
	}
	return fmt.Sprintf("%T(%v)", v, v)
}
