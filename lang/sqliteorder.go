package lang

import (
	"fmt"
	"strconv"
	"strings"
)

// The oracle's SQL for a view's window functions and its order (sqlite.go
// writes the rest).

// windowed writes a query with window aggregates: the inner SELECT lists
// the view's cells (keys, a placeholder for the multiplicity, the window
// items), SQLite computing the windows, and applies the view's ORDER BY and
// LIMIT to the rows; the outer one counts each distinct row (its window
// values depend on its keys only).
func (t *sqlTr) windowed(q *Query, keys, vals []*SelectItem) string {
	t.push(q)
	cells := make([]string, 0, len(keys)+len(vals))
	groupBy := make([]string, 0, len(keys))
	for i := range keys {
		groupBy = append(groupBy, strconv.Itoa(i+1))
	}
	t.w("SELECT ")
	for i, k := range keys {
		if i > 0 {
			t.w(", ")
		}
		n := ident(fmt.Sprintf("tg_k%d", i))
		t.expr(k.Expr)
		t.w(" AS ", n)
		cells = append(cells, n)
	}
	t.w(", 1 AS ", ident("tg_n"))
	cells = append(cells, "COUNT(*) AS "+ident(vals[0].Name))
	for i, v := range vals[1:] {
		n := ident(fmt.Sprintf("tg_w%d", i))
		t.w(", ")
		t.expr(v.Expr)
		t.w(" AS ", n)
		if a, ok := v.Expr.(*Agg); ok && a.Fn == "ROW_NUMBER" {
			// Each copy of a row has a number of its own: a row each
			// (Query.NumberedCopies).
			groupBy = append(groupBy, strconv.Itoa(len(keys)+2+i))
		}
		cells = append(cells, n)
	}
	if q.Qualify != nil {
		t.w(", ")
		t.expr(q.Qualify)
		t.w(" AS ", ident("tg_q"))
	}
	t.fromWhere(q)
	if q.Limit != nil && q.Qualify == nil {
		t.w(orderLimit(q, true))
	}
	inner := t.b.String()
	t.pop()
	t.b.Reset()
	if q.Qualify != nil {
		// The windows are computed before the filter, in the inner query.
		inner = "SELECT * FROM (" + inner + ") AS " + ident(t.fresh("tg_qualify")) + " WHERE " + ident("tg_q")
		if q.Limit != nil {
			inner += orderLimit(q, true)
		}
	}
	t.w("SELECT ", strings.Join(cells, ", "), " FROM (", inner, ") AS ", ident(t.fresh("tg_window")), " GROUP BY ", strings.Join(groupBy, ", "))
	if q.Ordered() {
		t.w(orderLimit(q, false))
	} else {
		t.w(orderByKeys(len(keys)))
	}
	return t.b.String()
}

// orderLimit is the ORDER BY of an ordered view (Query.Order, by column
// position), with its LIMIT and OFFSET when limit is set.
func orderLimit(q *Query, limit bool) string {
	var s []string
	for _, k := range q.Order() {
		o := strconv.Itoa(k.Pos + 1)
		if k.Desc {
			o += " DESC"
		}
		s = append(s, o)
	}
	out := " ORDER BY " + strings.Join(s, ", ")
	if limit && q.Limit != nil {
		out += fmt.Sprintf(" LIMIT %d OFFSET %d", q.Limit.Count, q.Limit.Offset)
	}
	return out
}

func orderByKeys(n int) string {
	var s []string
	for i := 1; i <= n; i++ {
		s = append(s, strconv.Itoa(i))
	}
	return " ORDER BY " + strings.Join(s, ", ")
}
