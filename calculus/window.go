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

// partition returns the key variables of window x's partition (each key,
// then its presence flag if it may be NULL) and their positions among the
// view's key variables.
func (t *translator) partition(x *lang.Agg, cq *Query, keyVars []Var, keyOf map[string]Var) ([]Var, []int, error) {
	var vars []Var
	var pos []int
	add := func(v Var) {
		if i := slices.IndexFunc(keyVars, func(k Var) bool { return k.Name == v.Name }); i >= 0 && !hasVar(vars, v.Name) {
			vars, pos = append(vars, v), append(pos, i)
		}
	}
	for _, pe := range x.Over.Partition {
		v, ok := keyOf[sqlKey(pe)]
		if !ok {
			return nil, nil, errorAt(pe.Pos(), "this PARTITION BY expression is not supported yet")
		}
		add(v)
		for _, k := range cq.Keys {
			if k.Var.Name == v.Name && k.Present.Name != "" {
				add(k.Present)
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
	for i, o := range order {
		sv[i], sp[i] = vars[o], pos[o]
	}
	return sv, sp, nil
}
