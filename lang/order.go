package lang

import (
	"strconv"

	rt "github.com/toastgen/toastgen/runtime"
)

// ORDER BY, LIMIT and OFFSET of a view.
//
// A top-level query's ORDER BY orders its view's rows; LIMIT k OFFSET m
// keeps the rows at positions m to m+k−1 of that order. The order is
// total, so that the rows a LIMIT keeps are determined: the ORDER BY
// items, then every column of the SELECT list ascending, in SELECT order,
// then the view's unselected GROUP BY keys ascending. NULL sorts first in
// ascending order and last in descending order (as in SQLite). A view
// without aggregates is a bag: a row with multiplicity n is n rows of the
// order, of which a LIMIT may keep some.
//
// An ORDER BY item must name a SELECT item (its alias, its position, or
// its expression) when the query has a LIMIT; without one, an ORDER BY of
// another expression cannot change the view and is ignored. A compound
// query's ORDER BY and LIMIT follow its last arm and order the compound;
// its ORDER BY names columns by name (the first arm's) or position.

// limit resolves LIMIT n [OFFSET m]: both integer constants, n ≥ 0, m ≥ 0;
// only in a top-level SELECT.
func (r *resolver) limit(g *gLimit) *Limit {
	if g.N == nil {
		r.fail(pos(g.Offset.Pos), "OFFSET needs a LIMIT (write LIMIT n OFFSET m)")
	}
	if r.unionDepth > 1 {
		r.fail(pos(g.Pos), "LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)")
	}
	l := &Limit{P: pos(g.Pos)}
	l.Count = r.limitCount(g.N, "LIMIT")
	if g.Offset != nil {
		l.Offset = r.limitCount(g.Offset.M, "OFFSET")
	}
	return l
}

func (r *resolver) limitCount(g *gExpr, what string) int64 {
	p := g.prim()
	if p == nil || p.Int == nil {
		r.fail(pos(g.Pos), "%s needs a non-negative integer constant", what)
	}
	n, err := strconv.ParseInt(*p.Int, 10, 64)
	if err != nil {
		r.fail(pos(g.Pos), "%s %s is out of range", what, *p.Int)
	}
	return n
}

// orderItem resolves an ORDER BY item, finding the SELECT item it names.
func (r *resolver) orderItem(o *gOrder, q *Query, sc *scope) *OrderItem {
	it := &OrderItem{Desc: o.Dir == "DESC", Col: -1}
	if i, ok := r.namedColumn(o, q.Items); ok {
		it.Expr, it.Col = q.Items[i].Expr, i
		return it
	}
	it.Expr = r.value(r.expr(o.Expr, ctx{sc: sc, clause: "ORDER BY", aggOK: true}))
	k := exprKey(it.Expr)
	for i, item := range q.Items {
		if exprKey(item.Expr) == k {
			it.Col = i
			break
		}
	}
	if it.Col < 0 && q.Limit != nil {
		r.fail(pos(o.Expr.Pos), "ORDER BY with LIMIT must name a column of the SELECT list (add this expression to it)")
	}
	return it
}

// namedColumn finds the SELECT item an ORDER BY item names by its name or
// its position (ORDER BY 2); a position out of range is an error.
func (r *resolver) namedColumn(o *gOrder, items []*SelectItem) (int, bool) {
	if id, ok := o.Expr.bareIdent(); ok {
		for i, item := range items {
			if item.Name == id {
				return i, true
			}
		}
	}
	if p := o.Expr.prim(); p != nil && p.Int != nil {
		n, err := strconv.Atoi(*p.Int)
		if err != nil || n < 1 || n > len(items) {
			r.fail(pos(o.Expr.Pos), "ORDER BY position %s is not a column of the SELECT list (it has %d)", *p.Int, len(items))
		}
		return n - 1, true
	}
	return 0, false
}

// Ordered reports whether the query's view has an order: an ORDER BY whose
// items all name SELECT items, or a LIMIT.
func (q *Query) Ordered() bool {
	if q.Limit != nil {
		return true
	}
	if len(q.OrderBy) == 0 {
		return false
	}
	for _, o := range q.OrderBy {
		if o.Col < 0 {
			return false
		}
	}
	return true
}

// Order returns the total order of an ordered view's rows (nil when it has
// none), over the positions of runtime.View rows: the view's keys, then
// its values (see View).
func (q *Query) Order() []rt.SortKey {
	if !q.Ordered() {
		return nil
	}
	keys, _, cols := q.view()
	at := func(c rt.OutputColumn) int {
		if c.Key {
			return c.Index
		}
		return len(keys) + c.Index
	}
	var order []rt.SortKey
	used := map[int]bool{}
	add := func(p int, desc bool) {
		if !used[p] {
			used[p] = true
			order = append(order, rt.SortKey{Pos: p, Desc: desc})
		}
	}
	for _, o := range q.OrderBy {
		add(at(cols[o.Col]), o.Desc)
	}
	for _, c := range cols {
		add(at(c), false)
	}
	for i := range keys {
		add(i, false)
	}
	return order
}

// compoundTail takes the ORDER BY and LIMIT of a compound query off its
// last arm, where the grammar puts them (they order the whole compound, as
// in SQL), and returns them with a copy of g without them. An ORDER BY or
// LIMIT on another arm is an error.
func (r *resolver) compoundTail(g *gUnion) ([]*gOrder, *gLimit, *gUnion) {
	arms := append([]*gSelect{g.First}, make([]*gSelect, len(g.Rest))...)
	for i, a := range g.Rest {
		arms[i+1] = a.Sel
	}
	for _, s := range arms[:len(arms)-1] {
		if len(s.OrderBy) > 0 {
			r.fail(pos(s.OrderBy[0].Expr.Pos), "ORDER BY must come after the last arm of a compound query (UNION, INTERSECT, EXCEPT)")
		}
		if s.Limit != nil {
			r.fail(pos(s.Limit.Pos), "LIMIT must come after the last arm of a compound query (UNION, INTERSECT, EXCEPT)")
		}
	}
	last := *arms[len(arms)-1]
	order, limit := last.OrderBy, last.Limit
	last.OrderBy, last.Limit = nil, nil
	out := *g
	out.Rest = append([]*gUnionArm{}, g.Rest...)
	arm := *out.Rest[len(out.Rest)-1]
	arm.Sel = &last
	out.Rest[len(out.Rest)-1] = &arm
	return order, limit, &out
}

// compoundOrderItem resolves an ORDER BY item of compound query u: a
// column's name (the first arm's) or position.
func (r *resolver) compoundOrderItem(o *gOrder, u *Query) *OrderItem {
	i, ok := r.namedColumn(o, u.Items)
	if !ok {
		r.fail(pos(o.Expr.Pos), "ORDER BY of a compound query must name one of its columns, by name or position")
	}
	return &OrderItem{Expr: u.Items[i].Expr, Desc: o.Dir == "DESC", Col: i}
}
