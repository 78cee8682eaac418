package calculus

import (
	"math"
	"slices"
	"strings"

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
// A window ORDER BY of several keys (and ROW_NUMBER's ties after them) is
// read level by level (orderLevels): at each level, the rows equal on the
// partition and the keys before whose next key comes before the row's, one
// range read each; the last level of a running aggregate counts the row's
// peers too. ROW_NUMBER is 1 + the rows before the row over every level,
// its ties included. A row of a bag counts its copies, and the view shows
// the number of the first (keptCopies adjusts it under a filter).
//
// A lang Qualify, the filter of a windowed view's rows after their
// windows, is the view's read-time Having; in a bag, its bounds on a
// ROW_NUMBER keep an interval of a row's copies, which becomes the row's
// COUNT (keptCopies).
//
// In a grouped query a window is over the groups (lang's checkGroupWindows):
// SUM(agg) OVER is agg over the partition's rows (agg a SUM or COUNT: the
// sum of the groups' values is the aggregate of their rows), AVG(agg)
// divides it by the number of the partition's groups whose agg is not NULL
// (an AggSum of the Exists of each group), COUNT(*) OVER counts the
// partition's groups (1 in an ungrouped aggregate query), and RANK counts
// the groups before the row's ORDER BY value; with an ORDER BY (a group
// key) each is running, as above.
//
// RANK and DENSE_RANK over groups ordered by an expression v of their
// aggregates (rankByValue in query.go) count the partition's groups by
// their value: AggSum([partition, value], Exists(group) * (agg ^= each
// aggregate v reads) * (value ^= v)), a nested aggregate whose delta moves
// the event's group from its old value to its new, O(1) map updates per
// event, O(log n) in its range-sum index. The row reads it by a RangeRef
// whose value slots are expressions of the row (RangeRef.Exprs): the
// groups whose value is before the row's. DENSE_RANK counts the values'
// Exists instead.

// partition returns the key variables of window x's partition and ORDER
// BY (each key, then its presence flag if it may be NULL), in the order of
// the view's key variables, their positions among them, and the indexes
// among them of the ORDER BY value and of its presence flag (-1: none).
func (t *translator) partition(x *lang.Agg, cq *Query, keyVars []Var, keyOf map[string]Var) ([]Var, []int, int, int, error) {
	var vars []Var
	var pos []int
	add := func(v Var) {
		if i := varIndex(keyVars, v); i >= 0 && !hasVar(vars, v.Name) {
			vars, pos = append(vars, v), append(pos, i)
		}
	}
	keyVar := func(e lang.Expr) (Var, *Column, error) { return windowKey(e, cq, keyOf) }
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

// windowKey returns the key variable of the view that a window's
// PARTITION BY, ORDER BY or tie expression e is, with its column (nil for
// an unselected key without one).
func windowKey(e lang.Expr, cq *Query, keyOf map[string]Var) (Var, *Column, error) {
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

// tieLevel is a grouping of a window's rows that a lexicographic order
// reads (orderLevels): its key variables, sorted as the view's, their
// positions among the view's, the indexes among them of the key whose
// order it reads and of that key's presence flag (-1: none), and the
// key's direction.
type tieLevel struct {
	vars        []Var
	pos         []int
	order, flag int
	desc        bool
}

// orderKey is a key of a window's order after its first: a view key
// variable, its presence flag (zero: never NULL), its direction.
type orderKey struct {
	v, flag Var
	desc    bool
}

// thenKeys returns the order keys of window x after the first (Window.Then)
// and, for ROW_NUMBER, its ties (ascending), leaving out the variables of
// base (its partition and first key) and repeats.
func thenKeys(x *lang.Agg, cq *Query, keyOf map[string]Var, base []Var) ([]orderKey, error) {
	seen := slices.Clone(base)
	var keys []orderKey
	add := func(e lang.Expr, desc bool) error {
		v, col, err := windowKey(e, cq, keyOf)
		if err != nil {
			return err
		}
		if hasVar(seen, v.Name) {
			return nil
		}
		k := orderKey{v: v, desc: desc}
		if col != nil && col.Present.Name != "" {
			k.flag = col.Present
		}
		seen = append(seen, v)
		keys = append(keys, k)
		return nil
	}
	for _, k := range x.Over.Then {
		if err := add(k.Expr, k.Desc); err != nil {
			return nil, err
		}
	}
	if x.Fn == "ROW_NUMBER" {
		for _, e := range x.Over.Ties {
			if err := add(e, false); err != nil {
				return nil, err
			}
		}
	}
	return keys, nil
}

// orderLevels returns the levels of a lexicographic order after base, the
// variables of the partition and of the order's first key: level i is
// grouped by base and keys[0..i] (with their flags) and orders keys[i]. A
// row's count of the rows before it is the sum over the levels of the rows
// that equal it on the level's group but its key and come before it on
// that key, each a range read: O(levels · log n) per event and per read.
func orderLevels(base []Var, keys []orderKey, keyVars []Var) []tieLevel {
	posOf := func(v Var) int { return varIndex(keyVars, v) }
	var levels []tieLevel
	for _, k := range keys {
		vars := append(slices.Clone(base), k.v)
		if k.flag.Name != "" {
			vars = append(vars, k.flag)
		}
		slices.SortFunc(vars, func(a, b Var) int { return posOf(a) - posOf(b) })
		l := tieLevel{vars: vars, order: -1, flag: -1, desc: k.desc}
		for i, w := range vars {
			l.pos = append(l.pos, posOf(w))
			switch {
			case w.Name == k.v.Name:
				l.order = i
			case k.flag.Name != "" && w.Name == k.flag.Name:
				l.flag = i
			}
		}
		levels = append(levels, l)
		base = vars
	}
	return levels
}

// keptCopies splits the Qualify of a bag view with windows into its
// bounds on a ROW_NUMBER (lang's RowNumberBound) and the rest, which it
// returns (nil: none). A row of the view stands for its copies, numbered
// first, first+1, … by the ROW_NUMBER; the bounds keep those in an
// interval [lo, hi], whose count, max(0, min(m−1, hi−first) − max(0,
// lo−first) + 1) for m copies, it returns as kept (nil without bounds),
// and it records in shown that the ROW_NUMBER shows the first kept number.
func keptCopies(qualify lang.Expr, readout func(lang.Expr) (lang.Expr, error), shown map[string]lang.Expr) (rest, kept lang.Expr, err error) {
	var rn *lang.Agg
	lo, hi := int64(1), int64(math.MaxInt64) // numbers start at 1
	for _, c := range conjuncts(qualify) {
		a, op, k, ok := lang.RowNumberBound(c)
		if !ok {
			if rest == nil {
				rest = c
			} else {
				rest = &lang.Binary{Op: "AND", L: rest, R: c, T: lang.TBool}
			}
			continue
		}
		rn = a // lang allows one ROW_NUMBER in the bounds
		switch op {
		case "=":
			lo, hi = max(lo, k), min(hi, k)
		case "<":
			if k == math.MinInt64 {
				hi = 0
			} else {
				hi = min(hi, k-1)
			}
		case "<=":
			hi = min(hi, k)
		case ">":
			if k == math.MaxInt64 {
				lo, hi = 1, 0
			} else {
				lo = max(lo, k+1)
			}
		case ">=":
			lo = max(lo, k)
		}
	}
	if rn == nil {
		return qualify, nil, nil
	}
	first, err := readout(rn)
	if err != nil {
		return nil, nil, err
	}
	bin := func(op string, l, r lang.Expr) lang.Expr { return &lang.Binary{Op: op, L: l, R: r, T: lang.TInt} }
	call := func(fn string, a, b lang.Expr) lang.Expr {
		return &lang.Call{Name: fn, Args: []lang.Expr{a, b}, T: lang.TInt}
	}
	copies := &AggRef{Index: 0, T: lang.TInt}
	skip := call("LISTMAX", IntLit(0), bin("-", IntLit(lo), first))
	last := bin("-", copies, IntLit(1))
	if hi != math.MaxInt64 {
		last = call("LISTMIN", last, bin("-", IntLit(hi), first))
	}
	shown[lang.ExprKey(rn)] = bin("+", first, skip)
	return rest, bin("+", bin("-", last, skip), IntLit(1)), nil
}

// mapExpr rebuilds e bottom-up with f applied to every subexpression,
// maybe values (nullable.go) included.
func mapExpr(e lang.Expr, f func(lang.Expr) lang.Expr) lang.Expr {
	if m, ok := e.(*maybe); ok {
		return f(&maybe{V: mapExpr(m.V, f), P: mapExpr(m.P, f)})
	}
	return f(mapChildren(e, func(c lang.Expr) lang.Expr { return mapExpr(c, f) }))
}

// varIndex is the position of v among vs by name, -1 if absent.
func varIndex(vs []Var, v Var) int {
	return slices.IndexFunc(vs, func(k Var) bool { return k.Name == v.Name })
}

// varNames lists the names of vs, for memo keys.
func varNames(vs []Var) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(v.Name)
	}
	return b.String()
}
