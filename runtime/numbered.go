package runtime

import "slices"

// Numbered rows: a bag view whose SELECT list numbers its rows
// (ROW_NUMBER over a query without GROUP BY) is maintained as a bag —
// a row and its multiplicity n, its ROW_NUMBER the number of the first
// of its n copies — but SQL's result has n rows, numbered first,
// first+1, …, first+n−1. NumberCopies turns the maintained view into the
// rows SQL shows: each numbered column becomes a key (the number tells the
// copies apart), and each row of multiplicity n becomes n rows of
// multiplicity 1, the i-th numbered first+i in every numbered column.

// NumberCopies returns view v, in the maintained layout (its keys, then
// its values, Values[0] the multiplicity), with the value columns at the
// indexes numbered (each ≥ 1, ascending) moved after its keys and each
// row of multiplicity n > 1 expanded into its n copies. Rows of
// multiplicity n ≤ 0 (no row) are dropped. Columns and Order are
// remapped; rows are sorted by key, or in the remapped Order. A row whose
// multiplicity is 1 already (an engine that expanded the copies itself)
// is only moved.
func NumberCopies(v View, numbered []int) View {
	if len(numbered) == 0 {
		return v
	}
	nk := len(v.Keys)
	isNumbered := make([]bool, len(v.Values))
	for _, j := range numbered {
		isNumbered[j] = true
	}
	// at[p] is the shown position of maintained position p.
	at := make([]int, nk+len(v.Values))
	out := View{Name: v.Name, Keys: slices.Clone(v.Keys)}
	for i := range nk {
		at[i] = i
	}
	for _, j := range numbered {
		at[nk+j] = len(out.Keys)
		out.Keys = append(out.Keys, v.Values[j])
	}
	for j, c := range v.Values {
		if !isNumbered[j] {
			at[nk+j] = len(out.Keys) + len(out.Values)
			out.Values = append(out.Values, c)
		}
	}
	nk2 := len(out.Keys)
	for _, c := range v.Columns {
		if c.Key {
			out.Columns = append(out.Columns, c)
			continue
		}
		p := at[nk+c.Index]
		if p < nk2 {
			out.Columns = append(out.Columns, OutputColumn{Name: c.Name, Key: true, Index: p})
		} else {
			out.Columns = append(out.Columns, OutputColumn{Name: c.Name, Index: p - nk2})
		}
	}
	for _, k := range v.Order {
		out.Order = append(out.Order, SortKey{Pos: at[k.Pos], Desc: k.Desc})
	}
	for _, r := range v.Rows {
		n, _ := r[nk].(int64)
		for i := range max(n, 0) {
			row := make([]any, len(r))
			for p, c := range r {
				row[at[p]] = c
			}
			row[at[nk]] = int64(1)
			for _, j := range numbered {
				if f, ok := r[nk+j].(int64); ok {
					row[at[nk+j]] = f + i
				}
			}
			out.Rows = append(out.Rows, row)
		}
	}
	if out.Order != nil {
		slices.SortStableFunc(out.Rows, func(a, b []any) int { return CompareRows(a, b, out.Order) })
	} else {
		SortRows(out.Rows, nk2)
	}
	return out
}
