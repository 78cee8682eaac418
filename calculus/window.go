package calculus

import (
	"slices"

	"github.com/toastgen/toastgen/lang"
)

// Window aggregates (lang.Agg.Over). A query with windows is a bag view
// keyed by its other items and its PARTITION BY expressions (lang's View):
// Aggs[0] counts each row, and a window's aggregate is the same aggregate
// of the query's body grouped by the partition's key variables (with
// their presence flags: NULLs are one partition), read at the row's keys
// through AggKeys. An event then updates the one partition aggregate it
// touches, O(1) (MIN and MAX: O(log n) in the ordered index of the
// partition's values), and a row's window value is read with the row;
// a change of a partition's aggregate changes the value of every row of
// the partition when the view is read, without touching them.
//
// A window with an ORDER BY x (x a key of the view; if it may be NULL, its
// presence flag too) is grouped by its partition and x, and read by a
// RangeRef: the sum of the partition's entries up to the row's x (peers
// included; before it, for RANK), which generated code reads from a
// range-sum index of the map by partition, ordered by x: O(log n) per event
// and per read. SUM, COUNT and AVG are running sums of their aggregates;
// RANK is 1 + the running count before the row's x, DENSE_RANK 1 + the
// running count of the Exists of each (partition, x).
//
// In a grouped query a window is over the groups (lang's checkGroupWindows):
// SUM(agg) OVER is agg over the partition's rows (agg a SUM or COUNT: the
// sum of the groups' values is the aggregate of their rows), AVG(agg)
// divides it by the number of the partition's groups whose agg is not NULL
// (an AggSum of the Exists of each group), COUNT(*) OVER counts the
// partition's groups (1 in an ungrouped aggregate query), and RANK counts
// the groups before the row's ORDER BY value; with an ORDER BY (a group
// key) each is running, as above.

// partition returns the key variables of window x's partition and ORDER
// BY (each key, then its presence flag if it may be NULL), in the order of
// the view's key variables, their positions among them, and the indexes
// among them of the ORDER BY value and of its presence flag (-1: none).
func (t *translator) partition(x *lang.Agg, cq *Query, keyVars []Var, keyOf map[string]Var) ([]Var, []int, int, int, error) {
	var vars []Var
	var pos []int
	add := func(v Var) {
		if i := slices.IndexFunc(keyVars, func(k Var) bool { return k.Name == v.Name }); i >= 0 && !hasVar(vars, v.Name) {
			vars, pos = append(vars, v), append(pos, i)
		}
	}
	keyVar := func(e lang.Expr) (Var, *Column, error) {
		v, ok := keyOf[sqlKey(e)]
		if !ok {
			return Var{}, nil, errorAt(e.Pos(), "this window expression is not supported yet")
		}
		for i := range cq.Keys {
			if cq.Keys[i].Var.Name == v.Name {
				return v, &cq.Keys[i], nil
			}
		}
		return v, nil, nil
	}
	for _, pe := range x.Over.Partition {
		v, k, err := keyVar(pe)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		add(v)
		if k != nil && k.Present.Name != "" {
			add(k.Present)
		}
	}
	var ov, of Var
	if x.Over.Order != nil {
		v, k, err := keyVar(x.Over.Order)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		switch {
		case hasVar(vars, v.Name):
			// Ordered by one of its PARTITION BY expressions, every row of
			// a partition is a peer of every other: no order.
		default:
			add(v)
			ov = v
			if k != nil && k.Present.Name != "" {
				add(k.Present)
				of = k.Present
			}
		}
	}
	// Keys first, then flags, as the view's maps are keyed.
	order := make([]int, len(vars))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return pos[a] - pos[b] })
	sv, sp := make([]Var, len(vars)), make([]int, len(pos))
	oi, fi := -1, -1
	for i, o := range order {
		sv[i], sp[i] = vars[o], pos[o]
		if ov.Name != "" && vars[o].Name == ov.Name {
			oi = i
		}
		if of.Name != "" && vars[o].Name == of.Name {
			fi = i
		}
	}
	return sv, sp, oi, fi, nil
}

// mapExpr rebuilds e bottom-up with f applied to every subexpression,
// maybe values (nullable.go) included.
func mapExpr(e lang.Expr, f func(lang.Expr) lang.Expr) lang.Expr {
	if m, ok := e.(*maybe); ok {
		return f(&maybe{V: mapExpr(m.V, f), P: mapExpr(m.P, f)})
	}
	return f(mapChildren(e, func(c lang.Expr) lang.Expr { return mapExpr(c, f) }))
}
