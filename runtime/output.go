package runtime

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WriteJSON writes the views to w as one line of JSON and a newline:
//
//	{"views":[{"name":"Q","keys":["A"],"values":["SUM"],
//	  "columns":[{"name":"A","key":0},{"name":"SUM","value":0}],"rows":[[1,2.5]]}]}
//
// Each row lists its key values, then its result values. The columns are
// the SELECT list in order, each with the index of the key or of the value
// it shows (View.OutputColumns): a consumer that prints query results reads
// row[i] for key i and row[len(keys)+i] for value i. Ints are JSON
// numbers, floats are numbers in Go's shortest form (strconv 'g', -1), or
// null when not finite: JSON has no NaN or infinity, and null keeps a number
// column a column of numbers for the consumer (JavaScript's JSON.stringify
// does the same; before, toastgen wrote the strings "NaN", "+Inf", "-Inf").
// Strings are JSON strings, dates are strings "yyyy-mm-dd". Rows are written
// in the order given.
func WriteJSON(w io.Writer, views []View) error {
	var b []byte
	b = append(b, `{"views":[`...)
	for i, v := range views {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendJSONString(b, v.Name)
		b = append(b, `,"keys":`...)
		b = appendColumnNames(b, v.Keys)
		b = append(b, `,"values":`...)
		b = appendColumnNames(b, v.Values)
		b = append(b, `,"columns":[`...)
		for j, c := range v.OutputColumns() {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendJSONString(b, c.Name)
			if c.Key {
				b = append(b, `,"key":`...)
			} else {
				b = append(b, `,"value":`...)
			}
			b = strconv.AppendInt(b, int64(c.Index), 10)
			b = append(b, '}')
		}
		b = append(b, `],"rows":[`...)
		for j, row := range v.Rows {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for k, x := range row {
				if k > 0 {
					b = append(b, ',')
				}
				var err error
				if b, err = appendJSONValue(b, x); err != nil {
					return fmt.Errorf("view %s: %v", v.Name, err)
				}
			}
			b = append(b, ']')
		}
		b = append(b, ']')
		if v.Order != nil {
			// An ordered view: its rows are in this order (row cells).
			b = append(b, `,"order":[`...)
			for j, k := range v.Order {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"cell":`...)
				b = strconv.AppendInt(b, int64(k.Pos), 10)
				if k.Desc {
					b = append(b, `,"desc":true`...)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	b = append(b, "]}\n"...)
	_, err := w.Write(b)
	return err
}

func appendColumnNames(b []byte, cols []Column) []byte {
	b = append(b, '[')
	for i, c := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c.Name)
	}
	return append(b, ']')
}

func appendJSONValue(b []byte, x any) ([]byte, error) {
	switch x := x.(type) {
	case nil:
		return append(b, "null"...), nil // SQL NULL
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return append(b, "null"...), nil
		}
		return strconv.AppendFloat(b, x, 'g', -1, 64), nil
	case string:
		return appendJSONString(b, x), nil
	case Date:
		return appendJSONString(b, x.String()), nil
	}
	return b, fmt.Errorf("unsupported value %v of type %T", x, x)
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// FormatValue formats a view value for display: ints in decimal; floats as
// the shortest decimal that reads back to the same value, without exponent
// when 1e-4 ≤ |x| < 1e21 (strconv 'f', -1: 37734107, 0.05) and with one
// otherwise (strconv 'g', -1: 1e-07); strings as they are, or Go-quoted if
// they hold control characters; dates as yyyy-mm-dd; NULL (nil) as NULL.
func FormatValue(x any) string {
	switch x := x.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if a := math.Abs(x); a == 0 || a >= 1e-4 && a < 1e21 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		if strings.ContainsFunc(x, unicode.IsControl) {
			return strconv.Quote(x)
		}
		return x
	case Date:
		return x.String()
	}
	return fmt.Sprint(x)
}

// WriteTable writes the views to w as aligned text tables, one per view,
// separated by a blank line:
//
//	Q (2 rows)
//	A  SUM
//	-  ---
//	1  2.5
//	2   10
//
// Numbers are right-aligned, strings and dates left-aligned. A view without
// keys and one row prints as a table of one row, too.
func WriteTable(w io.Writer, views []View) error {
	bw := bufio.NewWriter(w)
	for i, v := range views {
		if i > 0 {
			bw.WriteByte('\n')
		}
		cols := append(slices.Clone(v.Keys), v.Values...)
		rows := "rows"
		if len(v.Rows) == 1 {
			rows = "row"
		}
		fmt.Fprintf(bw, "%s (%d %s)\n", v.Name, len(v.Rows), rows)
		if len(cols) == 0 {
			continue
		}
		width := make([]int, len(cols))
		right := make([]bool, len(cols))
		for j, c := range cols {
			width[j] = utf8.RuneCountInString(c.Name)
			right[j] = c.Type == Int || c.Type == Float
		}
		cells := make([][]string, len(v.Rows))
		for r, row := range v.Rows {
			cells[r] = make([]string, len(cols))
			for j := range cols {
				if j < len(row) {
					cells[r][j] = FormatValue(row[j])
				}
				width[j] = max(width[j], utf8.RuneCountInString(cells[r][j]))
			}
		}
		line := func(vals []string, dash bool) {
			var sb strings.Builder
			for j, s := range vals {
				if j > 0 {
					sb.WriteString("  ")
				}
				if dash {
					s = strings.Repeat("-", width[j])
				}
				pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(s))
				if right[j] && !dash {
					sb.WriteString(pad)
					sb.WriteString(s)
				} else {
					sb.WriteString(s)
					if j < len(vals)-1 {
						sb.WriteString(pad)
					}
				}
			}
			bw.WriteString(strings.TrimRight(sb.String(), " "))
			bw.WriteByte('\n')
		}
		names := make([]string, len(cols))
		for j, c := range cols {
			names[j] = c.Name
		}
		line(names, false)
		line(names, true)
		for _, r := range cells {
			line(r, false)
		}
	}
	return bw.Flush()
}

// CompareValues orders two view values of the same type: int64, float64
// (NaN first, as cmp.Compare does), string (bytewise) or Date
// (chronologically). Values of different types order by type, in that order;
// NULL (nil) orders first, as in SQLite's ORDER BY.
func CompareValues(a, b any) int {
	switch a := a.(type) {
	case int64:
		if b, ok := b.(int64); ok {
			return cmp.Compare(a, b)
		}
	case float64:
		if b, ok := b.(float64); ok {
			return cmp.Compare(a, b)
		}
	case string:
		if b, ok := b.(string); ok {
			return strings.Compare(a, b)
		}
	case Date:
		if b, ok := b.(Date); ok {
			return cmp.Compare(a, b)
		}
	}
	return cmp.Compare(typeRank(a), typeRank(b))
}

func typeRank(x any) int {
	switch x.(type) {
	case nil:
		return -1
	case int64:
		return 0
	case float64:
		return 1
	case string:
		return 2
	case Date:
		return 3
	}
	return 4
}

// SortRows sorts view rows by their first nkeys columns (the view's key),
// compared with CompareValues, lexicographically. The sort is stable.
func SortRows(rows [][]any, nkeys int) {
	slices.SortStableFunc(rows, func(a, b []any) int {
		for i := 0; i < nkeys && i < len(a) && i < len(b); i++ {
			if c := CompareValues(a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	})
}
