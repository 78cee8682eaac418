package lang

import (
	"fmt"

	"github.com/toastgen/toastgen/runtime"
)

// Aggregated reports whether q is an aggregate query: it has an aggregate in
// its select list or HAVING, a GROUP BY or a HAVING.
func (q *Query) Aggregated() bool {
	if len(q.Union) > 0 {
		return false
	}
	if len(q.GroupBy) > 0 || q.Having != nil {
		return true
	}
	for _, it := range q.Items {
		if hasAgg(it.Expr) {
			return true
		}
	}
	// An aggregate in ORDER BY alone makes an aggregate query too (of one
	// row, which the ORDER BY cannot reorder).
	for _, o := range q.OrderBy {
		if hasAgg(o.Expr) {
			return true
		}
	}
	return false
}

// View splits a top-level query into the columns its view reports.
//
// An aggregate query is keyed by its GROUP BY expressions, selected or not:
// first those the select list names, in the order it names them (as SQL
// lists its output columns), then the others in GROUP BY order. A key is
// named after a select item with the same expression, else after the
// column for a bare column, else KEY<i> (i its position in GROUP BY). Its
// values are the select items that are not exactly a GROUP BY expression,
// in SELECT order.
//
// A query without aggregates (and a UNION) is a bag: keyed by all its
// items, with one value COUNT, the row's multiplicity (1 for every present
// row with DISTINCT or a UNION without ALL).
func (q *Query) View() (keys, values []*SelectItem) {
	keys, values, _ = q.view()
	return keys, values
}

// Columns returns the select list of a top-level query as its view shows
// it: each item's name as SQLite gives it (SelectItem.Label: names may
// repeat) and the index of the key or value of View that it is. An item
// that repeats a GROUP BY expression shows that key. Unselected GROUP BY
// keys, and the COUNT of a query without aggregates, are not in it.
func (q *Query) Columns() []runtime.OutputColumn {
	_, _, cols := q.view()
	return cols
}

func (q *Query) view() (keys, values []*SelectItem, cols []runtime.OutputColumn) {
	if q.Windowed() {
		// Keyed by the other items and the partitions; valued by the
		// multiplicity, then the window items (window.go).
		keys = windowKeys(q)
		values = []*SelectItem{{Pos: q.Pos, Name: "COUNT", Expr: &Agg{P: q.Pos, Fn: "COUNT", T: TInt}}}
		k, v := 0, 1
		for _, it := range q.Items {
			if hasWindow(it.Expr) {
				cols = append(cols, runtime.OutputColumn{Name: it.label(), Index: v})
				values = append(values, it)
				v++
			} else {
				cols = append(cols, runtime.OutputColumn{Name: it.label(), Key: true, Index: k})
				k++
			}
		}
		return keys, values, cols
	}
	if !q.Aggregated() {
		keys = append(keys, q.Items...)
		values = []*SelectItem{{Pos: q.Pos, Name: "COUNT", Expr: &Agg{P: q.Pos, Fn: "COUNT", T: TInt}}}
		for i, it := range q.Items {
			cols = append(cols, runtime.OutputColumn{Name: it.label(), Key: true, Index: i})
		}
		return keys, values, cols
	}
	groupKey := make([]string, len(q.GroupBy))
	for i, g := range q.GroupBy {
		groupKey[i] = exprKey(g)
	}
	// order: the GROUP BY positions in view order. A GROUP BY expression
	// listed twice stays two keys, next to each other.
	var order []int
	taken := make([]bool, len(q.GroupBy))
	for _, it := range q.Items {
		k := exprKey(it.Expr)
		for i := range q.GroupBy {
			if !taken[i] && groupKey[i] == k {
				taken[i] = true
				order = append(order, i)
			}
		}
	}
	for i := range q.GroupBy {
		if !taken[i] {
			order = append(order, i)
		}
	}
	items := map[string]bool{} // the names of the items
	for _, it := range q.Items {
		items[it.Name] = true
	}
	keyNames := map[string]bool{}
	keyIndex := map[string]int{} // GROUP BY expression → its first key
	for _, i := range order {
		g, k := q.GroupBy[i], groupKey[i]
		if _, ok := keyIndex[k]; !ok {
			keyIndex[k] = len(keys)
		}
		name := ""
		for _, it := range q.Items {
			if exprKey(it.Expr) == k {
				name = it.Name
				break
			}
		}
		selected := name != ""
		if !selected {
			// An unselected key: named after its column (else KEY<i>).
			if c, ok := g.(*ColRef); ok {
				name = c.Name
			} else {
				name = fmt.Sprintf("KEY%d", i+1)
			}
		}
		// Numbered if an item (for an unselected key) or an earlier key
		// has that name: SELECT 13 FROM t GROUP BY t.col1 has the value
		// COL1 and the key COL1_2, GROUP BY a, a the keys A and A_2.
		for base, k := name, 2; keyNames[name] || (!selected && items[name]); k++ {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		keyNames[name] = true
		keys = append(keys, &SelectItem{Pos: g.Pos(), Name: name, Expr: g})
	}
	for _, it := range q.Items {
		if ki, ok := keyIndex[exprKey(it.Expr)]; ok {
			cols = append(cols, runtime.OutputColumn{Name: it.label(), Key: true, Index: ki})
			continue
		}
		cols = append(cols, runtime.OutputColumn{Name: it.label(), Index: len(values)})
		values = append(values, it)
	}
	return keys, values, cols
}

// label is the item's name as SQLite gives it, else its Name.
func (it *SelectItem) label() string {
	if it.Label != "" {
		return it.Label
	}
	return it.Name
}
