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
//
// In a grouped query, a window is over its groups: SUM or AVG of a group's
// SUM or COUNT, COUNT(*), RANK or DENSE_RANK, partitioned and ordered by
// GROUP BY expressions (checkGroupWindows); the view is the grouped one,
// with the windows among its values.
//
// Not supported yet, with a positioned error: frames other than the
// default, an ORDER BY of several expressions, running MIN and MAX,
// ROW_NUMBER (which tells a bag's copies apart), LAG, LEAD and the other
// ranking functions, other windows over groups, window functions in a
// DISTINCT query, in a subquery, a derived table or a compound query, and
// a column of a window item outside its aggregates that is not a key.

// rankingFns are the window functions that are not aggregates.
var rankingFns = map[string]bool{"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "PERCENT_RANK": true,
	"CUME_DIST": true, "NTILE": true, "LAG": true, "LEAD": true, "FIRST_VALUE": true, "LAST_VALUE": true, "NTH_VALUE": true}

// window resolves an aggregate with an OVER clause.
func (r *resolver) window(g *gCall, c ctx) Expr {
	p := pos(g.Pos)
	if c.clause != "SELECT" {
		r.fail(p, "window function %s … OVER is not allowed in %s", g.Name, c.clause)
	}
	switch g.Name {
	case "SUM", "COUNT", "AVG", "MIN", "MAX", "RANK", "DENSE_RANK":
	default:
		r.fail(p, "%s … OVER is not supported yet (window functions: SUM, COUNT, AVG, MIN, MAX, RANK and DENSE_RANK)", g.Name)
	}
	if g.Distinct {
		r.fail(p, "%s(DISTINCT …) OVER is not supported", g.Name)
	}
	if r.unionDepth > 1 {
		r.fail(p, "a window function in a subquery or derived table is not supported yet")
	}
	o := g.Over
	w := &Window{P: pos(o.Pos)}
	for _, pe := range o.Partition {
		w.Partition = append(w.Partition, r.value(r.expr(pe, ctx{sc: c.sc, clause: "PARTITION BY"})))
	}
	switch {
	case len(o.OrderBy) > 1:
		r.fail(pos(o.OrderBy[1].Expr.Pos), "a window ORDER BY of more than one expression is not supported yet")
	case len(o.OrderBy) == 1 && (g.Name == "MIN" || g.Name == "MAX"):
		r.fail(pos(o.OrderBy[0].Expr.Pos), "a running %s (ORDER BY in its window) is not supported yet", g.Name)
	case len(o.OrderBy) == 1:
		w.Order = r.value(r.expr(o.OrderBy[0].Expr, ctx{sc: c.sc, clause: "ORDER BY"}))
		w.Desc = o.OrderBy[0].Dir == "DESC"
	case g.Name == "RANK" || g.Name == "DENSE_RANK":
		r.fail(p, "%s needs an ORDER BY in its window", g.Name)
	}
	if o.Frame != nil && !(w.Order != nil && defaultFrame(o.Frame)) {
		r.fail(pos(o.Frame.Pos), "window frames are not supported yet (but RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, the default with ORDER BY)")
	}
	var a *Agg
	if g.Name == "RANK" || g.Name == "DENSE_RANK" {
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
		a = r.agg(&call, inner).(*Agg)
		c.sc.hasAgg = saved
	}
	a.Over = w
	if c.sc.window == nil {
		c.sc.window = a
	}
	return a
}

// checkWindows rejects the unsupported uses of the window aggregates of a
// resolved SELECT q (see the package comment above).
func (r *resolver) checkWindows(q *Query, sc *scope) {
	w := sc.window
	if w == nil {
		return
	}
	if sc.hasAgg || len(q.GroupBy) > 0 || q.Having != nil {
		r.checkGroupWindows(q)
		return
	}
	if q.Distinct {
		r.fail(w.P, "SELECT DISTINCT with a window function is not supported yet")
	}
	keys := map[string]bool{}
	for _, k := range windowKeys(q) {
		keys[exprKey(k.Expr)] = true
	}
	for _, it := range q.Items {
		if !hasWindow(it.Expr) {
			continue
		}
		walkExpr(it.Expr, 0, func(e Expr, depth int) bool {
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
			if o := a.Over.Order; o != nil && !groupKeys[exprKey(o)] {
				r.fail(o.Pos(), "the ORDER BY of a window over groups must be a GROUP BY expression")
			}
			for _, p := range a.Over.Partition {
				if !groupKeys[exprKey(p)] {
					r.fail(p.Pos(), "the PARTITION BY of a window over groups must be a GROUP BY expression")
				}
			}
			inner, nested := a.Arg.(*Agg)
			switch {
			case a.Fn == "COUNT" && a.Arg == nil, a.Fn == "RANK", a.Fn == "DENSE_RANK":
			case (a.Fn == "SUM" || a.Fn == "AVG") && nested && inner.Over == nil && !inner.Distinct && (inner.Fn == "SUM" || inner.Fn == "COUNT"):
			default:
				r.fail(a.P, "a window over groups is supported for SUM and AVG of a SUM or COUNT, COUNT(*), RANK and DENSE_RANK only")
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
	for _, it := range q.Items {
		if hasWindow(it.Expr) {
			return true
		}
	}
	return false
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
	for _, it := range q.Items {
		walkExpr(it.Expr, 0, func(e Expr, depth int) bool {
			a, ok := e.(*Agg)
			if !ok || depth > 0 || a.Over == nil {
				return depth == 0
			}
			exprs := a.Over.Partition
			if a.Over.Order != nil {
				exprs = append(append([]Expr{}, exprs...), a.Over.Order)
			}
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
			return false
		})
	}
	return keys
}

// defaultFrame reports whether a frame is RANGE BETWEEN UNBOUNDED PRECEDING
// AND CURRENT ROW, or RANGE UNBOUNDED PRECEDING.
func defaultFrame(f *gFrame) bool {
	rest := strings.Join(f.Rest, " ")
	return f.Kind == "RANGE" && (rest == "BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW" || rest == "UNBOUNDED PRECEDING")
}
