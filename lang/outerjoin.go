package lang

// Outer joins (dialect sql). The FROM list is resolved flat, each
// comma-separated element as a tree of Joins (joinList); an element that
// holds a LEFT, RIGHT or FULL JOIN keeps its tree in Query.Joins, because
// its ON conditions apply where they stand: an outer join's condition only
// decides which rows of its operands match, and an inner join's condition
// inside a padded operand filters that operand alone. The items of a side
// an outer join pads are FromItem.Padded: their columns may be NULL
// wherever the query reads them (colNull).
//
// The rules, as in SQL: a comma binds looser than any JOIN, JOINs associate
// to the left, parentheses group; an ON condition may read its join's two
// operands and the enclosing queries, nothing else of its FROM list (a
// positioned error, as in PostgreSQL; SQLite accepts it). Not supported yet,
// with positioned errors: NATURAL JOIN beside an outer join in one element,
// and subqueries in an outer join's ON condition.

// pendingOn is an ON condition waiting for every FROM item to be visible.
type pendingOn struct {
	node *Join
	g    *gExpr
}

// outerJoins keeps the FROM elements that hold an outer join as trees
// (q.Joins) and marks the items their outer joins pad, before any condition
// or select item is resolved.
func (r *resolver) outerJoins(sc *scope, elems []*Join) {
	for _, e := range elems {
		if !hasOuter(e) {
			continue
		}
		for _, n := range sc.naturalAt {
			if under(e, n) {
				r.fail(n.Pos, "NATURAL JOIN beside an outer join is not supported yet (write the join's ON condition)")
			}
		}
		sc.q.Joins = append(sc.q.Joins, e)
		markPadded(sc.q, e, false)
		if sc.inOuter == nil {
			sc.inOuter = map[*Join]bool{}
		}
		walkJoinNodes(e, func(n *Join) { sc.inOuter[n] = true })
	}
}

// hasOuter reports whether tree j holds an outer join.
func hasOuter(j *Join) bool {
	switch j.Kind {
	case JoinItem:
		return false
	case JoinLeft, JoinRight, JoinFull:
		return true
	}
	return hasOuter(j.L) || hasOuter(j.R)
}

// under reports whether node n is in tree j.
func under(j, n *Join) bool {
	found := false
	walkJoinNodes(j, func(x *Join) { found = found || x == n })
	return found
}

func walkJoinNodes(j *Join, f func(*Join)) {
	f(j)
	if j.Kind != JoinItem {
		walkJoinNodes(j.L, f)
		walkJoinNodes(j.R, f)
	}
}

// markPadded marks the items of tree j that an outer join pads (padded:
// an enclosing join pads all of j).
func markPadded(q *Query, j *Join, padded bool) {
	if j.Kind == JoinItem {
		q.From[j.Item].Padded = q.From[j.Item].Padded || padded
		return
	}
	markPadded(q, j.L, padded || j.Kind == JoinRight || j.Kind == JoinFull)
	markPadded(q, j.R, padded || j.Kind == JoinLeft || j.Kind == JoinFull)
}

// resolveOns resolves the pending ON conditions, in FROM order. An
// outer join's condition, and an inner join's over an operand that an
// outer join pads, stays in its tree node; the others are returned, to be
// AND-ed into WHERE.
func (r *resolver) resolveOns(sc *scope) []Expr {
	var conds []Expr
	for _, on := range sc.ons {
		c := r.expr(on.g, ctx{sc: sc, clause: "ON"})
		r.cond(c, "ON")
		n := on.node
		if !sc.inOuter[n] {
			conds = append(conds, c)
			continue
		}
		r.checkOn(sc.q, n, c)
		if n.Kind == JoinInner && !anyPadded(sc.q, n) {
			conds = append(conds, c) // the same rows, and its equalities join by lookup
			continue
		}
		n.On = c
	}
	return conds
}

func anyPadded(q *Query, j *Join) bool {
	for _, i := range j.Items() {
		if q.From[i].Padded {
			return true
		}
	}
	return false
}

// checkOn rejects an ON condition of an outer join's tree that reads a FROM
// item outside its join, or holds a subquery.
func (r *resolver) checkOn(q *Query, n *Join, c Expr) {
	own := map[int]bool{}
	for _, i := range n.Items() {
		own[i] = true
	}
	walkExpr(c, 0, func(e Expr, depth int) bool {
		switch x := e.(type) {
		case *ColRef:
			if x.Outer == depth && !own[x.From] {
				r.fail(x.P, "the ON condition of this %s reads %s, which is not one of its operands", n.Kind, q.From[x.From].Alias)
			}
		case *Subquery, *Exists, *InQuery, *Quantified:
			if hasOuter(n) || anyPadded(q, n) {
				r.fail(e.Pos(), "a subquery in the ON condition of an outer join is not supported yet")
			}
		}
		return true
	})
}

// walkJoin applies walkExpr to the ON conditions of tree j.
func walkJoin(j *Join, depth int, fn func(e Expr, depth int) bool) {
	walkJoinNodes(j, func(n *Join) { walkExpr(n.On, depth, fn) })
}

// writeFrom writes q's FROM list (without the keyword): the items in order,
// comma-separated, each element of Joins as its join expression, with
// item writing one item and on one condition.
func writeFrom(q *Query, w func(...string), item func(*FromItem), on func(Expr)) {
	first := map[int]*Join{}
	inTree := map[int]bool{}
	for _, j := range q.Joins {
		its := j.Items()
		first[its[0]] = j
		for _, i := range its {
			inTree[i] = true
		}
	}
	var join func(j *Join, nested bool)
	join = func(j *Join, nested bool) {
		if j.Kind == JoinItem {
			item(q.From[j.Item])
			return
		}
		if nested {
			w("(")
		}
		join(j.L, false)
		switch {
		case j.Kind == JoinInner && j.On == nil:
			w(" CROSS JOIN ")
		default:
			w(" ", j.Kind.String(), " ")
		}
		join(j.R, true)
		if j.On != nil {
			w(" ON ")
			on(j.On)
		}
		if nested {
			w(")")
		}
	}
	sep := ""
	for i, f := range q.From {
		if inTree[i] && first[i] == nil {
			continue
		}
		w(sep)
		sep = ", "
		if j := first[i]; j != nil {
			join(j, false)
			continue
		}
		item(f)
	}
}
