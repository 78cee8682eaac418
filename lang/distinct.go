package lang

// distinctGroups gives SELECT DISTINCT over a grouped query its SQL meaning,
// the distinct set of the output rows (value columns included).
//
// When every GROUP BY expression is selected (or there is no GROUP BY: one
// row at most), the output rows are distinct already and DISTINCT changes
// nothing: q is returned as is, and later stages ignore Distinct on an
// aggregated query. Otherwise two groups may give the same row:
//
//	SELECT DISTINCT items FROM … GROUP BY g HAVING h
//
// becomes a DISTINCT query without aggregates over the grouped query as a
// derived table,
//
//	SELECT DISTINCT GROUPED.c1, …, GROUPED.cn FROM (SELECT items FROM … GROUP BY g HAVING h) AS GROUPED
//
// whose view is keyed by all its columns, each present row with value 1.
// References from q (and its subqueries) to enclosing queries are one level
// further away once q is nested in the wrapper.
func distinctGroups(q *Query) *Query {
	if !q.Distinct || !q.Aggregated() || len(q.GroupBy) == 0 {
		return q
	}
	selected := map[string]bool{}
	for _, it := range q.Items {
		selected[exprKey(it.Expr)] = true
	}
	all := true
	for _, g := range q.GroupBy {
		all = all && selected[exprKey(g)]
	}
	if all {
		return q
	}
	const alias = "GROUPED"
	seen := map[*ColRef]bool{}
	walkQuery(q, 0, func(e Expr, depth int) bool {
		if c, ok := e.(*ColRef); ok && c.Outer > depth && !seen[c] {
			seen[c] = true
			c.Outer++
		}
		return true
	})
	inner := *q
	inner.Name = alias
	inner.Distinct = false
	w := &Query{Pos: q.Pos, Name: q.Name, Distinct: true, From: []*FromItem{{Pos: q.Pos, Alias: alias, Sub: &inner}}}
	for i, it := range q.Items {
		w.Items = append(w.Items, &SelectItem{Pos: it.Pos, Name: it.Name, Label: it.Label, Expr: &ColRef{P: it.Pos, Col: i, Alias: alias, Name: it.Name, T: it.Expr.Type()}})
	}
	return w
}
