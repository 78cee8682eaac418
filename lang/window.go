package lang

import (
	"fmt"
	"strings"
)

// Window aggregates: SUM, COUNT, AVG, MIN and MAX … OVER ([PARTITION BY
// e, …]) in the SELECT list of a query without GROUP BY, HAVING or other
// aggregates. Each is the aggregate over the rows of the query (its FROM
// and WHERE) whose PARTITION BY values equal the row's (NULLs equal, as in
// SQL); every row of the query keeps its window values.
//
// Such a query's view is a bag of rows keyed by its other SELECT items and
// by the PARTITION BY expressions that are not among them (unselected
// keys, as a grouped query's unselected GROUP BY keys): its values are the
// row's multiplicity, COUNT, first, then the window items (View). A row's
// window values depend on its keys only, through its partition; the
// calculus reads each window aggregate from a map keyed by the partition.
//
// With an ORDER BY x in its window, SUM, COUNT and AVG are running
// aggregates over the rows of the partition whose x is before the row's or
// equal (its peers), and RANK and DENSE_RANK are 1 + the number of rows, or
// of distinct values of x, before the row's; x is a key of the view too.
// ROW_NUMBER (ORDER BY optional) is 1 + the number of rows before the row,
// peers of x ordered by the view's keys (Window.Ties: the SELECT columns
// without windows, then the unselected keys, each ascending, NULLs first,
// which makes the numbering deterministic); the copies of a row of the bag
// are numbered one after the other. The view is maintained as a bag whose
// row shows the number of its first copy, and shown as SQL's rows, one per
// copy, the number a key (NumberedCopies, runtime.NumberCopies). A LIMIT
// or an expression of the number is not supported with ROW_NUMBER in a
// bag view yet.
//
// In a grouped query, a window is over its groups: SUM or AVG of a group's
// SUM or COUNT, COUNT(*), RANK, DENSE_RANK or ROW_NUMBER, partitioned and
// ordered by GROUP BY expressions, and RANK, DENSE_RANK and ROW_NUMBER
// ordered by an expression of the groups' SUMs, COUNTs and AVGs (a
// leaderboard: RANK() OVER (ORDER BY SUM(x) DESC)) (checkGroupWindows); the
// view is the grouped one, with the windows among its values.
//
// A filter on window values (QUALIFY, or a WHERE over a derived table with
// windows) is the query's Qualify (qualify.go).
//
// A window's ORDER BY may list several expressions (Window.Then): the
// order is lexicographic, and each is a key of the view.
//
// Not supported yet, with a positioned error: frames other than the
// default, running MIN and MAX, LAG,
// LEAD and the other ranking functions, other windows over groups, window
// functions in a DISTINCT query, in a subquery, in a derived table but one
// that the view's query filters (qualify.go), or in a compound query, and a
// column of a window item outside its aggregates that is not a key.

// rankingFns are the window functions that are not aggregates.
var rankingFns = map[string]bool{"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "PERCENT_RANK": true,
	"CUME_DIST": true, "NTILE": true, "LAG": true, "LEAD": true, "FIRST_VALUE": true, "LAST_VALUE": true, "NTH_VALUE": true}

// window resolves an aggregate with an OVER clause.
func (r *resolver) window(g *gCall, c ctx) Expr {
	p := pos(g.Pos)
	if c.clause != "SELECT" && c.clause != "QUALIFY" {
		hint := ""
		if c.clause == "WHERE" {
			hint = " (windows are computed after WHERE: filter on them with QUALIFY, or in a query over a derived table with the window)"
		}
		r.fail(p, "window function %s … OVER is not allowed in %s%s", g.Name, c.clause, hint)
	}
	ranking := g.Name == "RANK" || g.Name == "DENSE_RANK" || g.Name == "ROW_NUMBER"
	switch {
	case ranking, g.Name == "SUM", g.Name == "COUNT", g.Name == "AVG", g.Name == "MIN", g.Name == "MAX":
	default:
		r.fail(p, "%s … OVER is not supported yet (window functions: SUM, COUNT, AVG, MIN, MAX, RANK, DENSE_RANK and ROW_NUMBER)", g.Name)
	}
	if g.Distinct {
		r.fail(p, "%s(DISTINCT …) OVER is not supported", g.Name)
	}
	o := g.Over
	w := &Window{P: pos(o.Pos)}
	for _, pe := range o.Partition {
		w.Partition = append(w.Partition, r.value(r.expr(pe, ctx{sc: c.sc, clause: "PARTITION BY"})))
	}
	switch {
	case len(o.OrderBy) > 0 && (g.Name == "MIN" || g.Name == "MAX"):
		r.fail(pos(o.OrderBy[0].Expr.Pos), "a running %s (ORDER BY in its window) is not supported yet", g.Name)
	case len(o.OrderBy) > 0:
		// A ranking over groups may order them by their aggregates
		// (checkGroupWindows).
		for i, ob := range o.OrderBy {
			e := r.value(r.expr(ob.Expr, ctx{sc: c.sc, clause: "ORDER BY", aggOK: ranking && !c.inAgg}))
			if i == 0 {
				w.Order, w.Desc = e, ob.Dir == "DESC"
			} else {
				w.Then = append(w.Then, &WindowKey{Expr: e, Desc: ob.Dir == "DESC"})
			}
		}
	case g.Name == "RANK" || g.Name == "DENSE_RANK":
		r.fail(p, "%s needs an ORDER BY in its window", g.Name)
	}
	if o.Frame != nil && !(w.Order != nil && defaultFrame(o.Frame)) {
		r.fail(pos(o.Frame.Pos), "window frames are not supported yet (but RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, the default with ORDER BY)")
	}
	var a *Agg
	if ranking {
		if len(g.Args) > 0 || g.Star {
			r.fail(p, "%s takes no argument", g.Name)
		}
		a = &Agg{P: p, Fn: g.Name, T: TInt}
	} else {
		// The aggregate as any other, but it does not make the query grouped.
		saved := c.sc.hasAgg
		call := *g
		call.Over = nil
		inner := c
		inner.windowArg = true
		inner.aggOK = true // in QUALIFY too
		a = r.agg(&call, inner).(*Agg)
		c.sc.hasAgg = saved
	}
	a.Over = w
	if c.sc.window == nil {
		c.sc.window = a
	}
	if r.unionDepth > 1 {
		// Only a derived table that its view's query filters can have
		// windows (qualify.go); addQuery rejects the others.
		r.nestedWindows = append(r.nestedWindows, a)
	}
	return a
}

// checkWindows rejects the unsupported uses of the window aggregates of a
// resolved SELECT q, w its first window (nil: none; see the package
// comment above), and sets the Ties of its ROW_NUMBERs.
func (r *resolver) checkWindows(q *Query, w *Agg) {
	if w == nil {
		return
	}
	defer func() {
		setTies(q)
		r.checkRowNumbers(q)
	}()
	if q.Aggregated() || len(q.GroupBy) > 0 || q.Having != nil {
		r.checkGroupWindows(q)
		return
	}
	if q.Distinct {
		r.fail(w.P, "SELECT DISTINCT with a window function is not supported yet")
	}
	for _, a := range windowsOf(q) {
		if o := a.Over.Order; o != nil && hasAgg(o) {
			r.fail(o.Pos(), "a window ordered by an aggregate needs GROUP BY")
		}
	}
	if q.Limit != nil {
		for _, a := range windowsOf(q) {
			if a.Fn == "ROW_NUMBER" {
				r.fail(q.Limit.P, "a LIMIT over rows numbered by ROW_NUMBER is not supported yet (filter on the number instead: SELECT … FROM (SELECT …, ROW_NUMBER() OVER (…) AS n …) WHERE n <= k)")
			}
		}
	}
	keys := map[string]bool{}
	for _, k := range windowKeys(q) {
		keys[exprKey(k.Expr)] = true
	}
	exprs := []Expr{q.Qualify}
	for _, it := range q.Items {
		exprs = append(exprs, it.Expr)
	}
	for _, e := range exprs {
		if e == nil || (e != q.Qualify && !hasWindow(e)) {
			continue
		}
		walkExpr(e, 0, func(e Expr, depth int) bool {
			switch x := e.(type) {
			case *Agg:
				return false // its argument ranges over the partition
			case *ColRef:
				if depth == 0 && !keys[exprKey(x)] {
					r.fail(x.P, "column %s.%s of a window item must be a SELECT column or a PARTITION BY expression", x.Alias, x.Name)
				}
			}
			return depth == 0
		})
	}
}

// setTies sets the Ties of the ROW_NUMBERs of q to its view's keys, but
// those of a folded derived table's (qualify.go), set already.
func setTies(q *Query) {
	keys, _ := q.View()
	var ties []Expr
	for _, k := range keys {
		ties = append(ties, k.Expr)
	}
	for _, a := range windowsOf(q) {
		if a.Fn == "ROW_NUMBER" && a.Over.Ties == nil {
			a.Over.Ties = ties
		}
	}
}

// windowsOf returns the window aggregates of q's SELECT items and Qualify.
func windowsOf(q *Query) []*Agg {
	var out []*Agg
	var exprs []Expr
	for _, it := range q.Items {
		exprs = append(exprs, it.Expr)
	}
	exprs = append(exprs, q.Qualify)
	for _, e := range exprs {
		walkExpr(e, 0, func(e Expr, depth int) bool {
			if a, ok := e.(*Agg); ok && depth == 0 && a.Over != nil {
				out = append(out, a)
				return false
			}
			return depth == 0
		})
	}
	return out
}

// checkGroupWindows rejects the windows of grouped query q that are not
// over its groups' SUMs and COUNTs: SUM(agg) and AVG(agg) OVER, agg a SUM or
// a COUNT, COUNT(*) OVER (the number of groups), RANK and DENSE_RANK,
// partitioned and ordered by GROUP BY expressions, in a query without
// HAVING (which filters the groups before their windows).
func (r *resolver) checkGroupWindows(q *Query) {
	groupKeys := map[string]bool{}
	for _, g := range q.GroupBy {
		groupKeys[exprKey(g)] = true
	}
	for _, it := range q.Items {
		walkExpr(it.Expr, 0, func(e Expr, depth int) bool {
			a, ok := e.(*Agg)
			if !ok || depth > 0 || a.Over == nil {
				return depth == 0
			}
			if q.Having != nil {
				r.fail(a.P, "a window function in a query with HAVING is not supported yet")
			}
			for _, k := range a.Over.Then {
				if !groupKeys[exprKey(k.Expr)] {
					r.fail(k.Expr.Pos(), "the ORDER BY of a window over groups must be GROUP BY expressions (or, for RANK, DENSE_RANK and ROW_NUMBER, one expression of the groups' aggregates)")
				}
			}
			if o := a.Over.Order; o != nil && !groupKeys[exprKey(o)] {
				if a.Fn != "RANK" && a.Fn != "DENSE_RANK" && a.Fn != "ROW_NUMBER" || !hasAgg(o) || len(a.Over.Then) > 0 {
					r.fail(o.Pos(), "the ORDER BY of a window over groups must be GROUP BY expressions (or, for RANK, DENSE_RANK and ROW_NUMBER, one expression of the groups' aggregates)")
				}
				walkExpr(o, 0, func(e Expr, depth int) bool {
					switch x := e.(type) {
					case *Agg:
						if x.Over != nil || x.Distinct || !(x.Fn == "SUM" || x.Fn == "COUNT" || x.Fn == "AVG") {
							r.fail(x.P, "a window over groups may be ordered by SUM, COUNT and AVG (not DISTINCT) only")
						}
						return false
					case *ColRef:
						if depth == 0 && !groupKeys[exprKey(x)] {
							r.fail(x.P, "column %s.%s of a window ORDER BY must be a GROUP BY key or in an aggregate", x.Alias, x.Name)
						}
					}
					return depth == 0
				})
			}
			for _, p := range a.Over.Partition {
				if !groupKeys[exprKey(p)] {
					r.fail(p.Pos(), "the PARTITION BY of a window over groups must be a GROUP BY expression")
				}
			}
			inner, nested := a.Arg.(*Agg)
			switch {
			case a.Fn == "COUNT" && a.Arg == nil, a.Fn == "RANK", a.Fn == "DENSE_RANK", a.Fn == "ROW_NUMBER":
			case (a.Fn == "SUM" || a.Fn == "AVG") && nested && inner.Over == nil && !inner.Distinct && (inner.Fn == "SUM" || inner.Fn == "COUNT"):
			default:
				r.fail(a.P, "a window over groups is supported for SUM and AVG of a SUM or COUNT, COUNT(*), RANK, DENSE_RANK and ROW_NUMBER only")
			}
			return false
		})
	}
}

// Windowed reports whether the query has window aggregates over its rows
// (not over its groups: a grouped query's windows are values of its view).
func (q *Query) Windowed() bool {
	if len(q.Union) > 0 || q.Aggregated() {
		return false
	}
	return len(windowsOf(q)) > 0
}

// hasWindow reports whether e contains a window aggregate of its own query.
func hasWindow(e Expr) bool {
	found := false
	walkExpr(e, 0, func(e Expr, depth int) bool {
		if a, ok := e.(*Agg); ok && depth == 0 && a.Over != nil {
			found = true
		}
		return !found && depth == 0
	})
	return found
}

// windowKeys are the keys of a windowed query's view: its items without
// window aggregates, then the PARTITION BY expressions that are not among
// them (named after their column, else PARTITION<i>).
func windowKeys(q *Query) []*SelectItem {
	var keys []*SelectItem
	seen := map[string]bool{}
	names := map[string]bool{}
	for _, it := range q.Items {
		names[it.Name] = true
		if !hasWindow(it.Expr) {
			keys = append(keys, it)
			seen[exprKey(it.Expr)] = true
		}
	}
	n := 0
	var exprs []Expr
	for _, a := range windowsOf(q) {
		exprs = append(exprs, a.Over.Partition...)
		if a.Over.Order != nil {
			exprs = append(exprs, a.Over.Order)
		}
		for _, k := range a.Over.Then {
			exprs = append(exprs, k.Expr)
		}
		exprs = append(exprs, a.Over.Ties...)
	}
	// The columns a Qualify reads besides windows (qualify.go).
	walkExpr(q.Qualify, 0, func(e Expr, depth int) bool {
		switch x := e.(type) {
		case *Agg:
			return false
		case *ColRef:
			if depth == 0 {
				exprs = append(exprs, x)
			}
		}
		return depth == 0
	})
	{
		for _, pe := range exprs {
			k := exprKey(pe)
			if seen[k] {
				continue
			}
			seen[k] = true
			n++
			name := fmt.Sprintf("PARTITION%d", n)
			if c, ok := pe.(*ColRef); ok {
				name = c.Name
			}
			for base, i := name, 2; names[name]; i++ {
				name = fmt.Sprintf("%s_%d", base, i)
			}
			names[name] = true
			keys = append(keys, &SelectItem{Pos: pe.Pos(), Name: name, Expr: pe})
		}
	}
	return keys
}

// defaultFrame reports whether a frame is RANGE BETWEEN UNBOUNDED PRECEDING
// AND CURRENT ROW, or RANGE UNBOUNDED PRECEDING.
func defaultFrame(f *gFrame) bool {
	rest := strings.Join(f.Rest, " ")
	return f.Kind == "RANGE" && (rest == "BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW" || rest == "UNBOUNDED PRECEDING")
}

// NumberedCopies returns the indexes among the values of View of the
// ROW_NUMBER items of a windowed query (none for a grouped one). Its view
// is maintained as a bag whose row shows the number of the first of its
// copies; SQL's result numbers each copy, and runtime.NumberCopies turns
// the one into the other: these columns become keys of the rows shown.
func (q *Query) NumberedCopies() []int {
	if !q.Windowed() {
		return nil
	}
	var out []int
	_, vals := q.View()
	for i, v := range vals {
		if a, ok := v.Expr.(*Agg); ok && i > 0 && a.Fn == "ROW_NUMBER" && a.Over != nil {
			out = append(out, i)
		}
	}
	return out
}
