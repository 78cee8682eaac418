package calculus

import (
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Outer joins (Larson & Zhou): an outer join is its inner join plus the
// rows of its preserved side that match nothing, padded with NULLs. Over a
// join tree (lang.Join), with T(x) the rows of operand x:
//
//	T(L JOIN R ON p)       = T(L)·T(R)·[p]
//	T(L LEFT JOIN R ON p)  = T(L)·T(R)·[p] + T(L)·(n ^= AggSum([], T(R)'·[p]'))·[n = 0]·pad(R)
//	T(L RIGHT JOIN R ON p) = the mirror image
//	T(L FULL JOIN R ON p)  = both anti-joins
//
// [p] is p's truth (UNKNOWN is not a match), T(R)' a copy of T(R) in
// fresh variables (the count is per row of L), and pad(R) lifts every
// variable T(R) binds to its type's zero: the values of R's columns, their
// presence flags, and a row flag per item of R, lifted to 1 where the item
// has a row (the leaf) and to 0 where it is padded. The presence of a
// padded item's column is its flag for a nullable column (padding zeroes
// it) and the row flag for the others, so that SQL's NULLs follow from the
// presence conditions (nullable.go) unchanged. ON equalities stay
// conditions: unifying them would bind R's columns in the padded branch
// too; a single-tuple delta turns them into lookups all the same. With the
// viewlet transform the count n is a map keyed by the join's correlation,
// so that an insert that ends a row's dangling, or a delete that starts it,
// is a lookup: an equi outer join stays O(1) per event.

// rowFlagName is the name of the row flag of a padded FROM item.
func rowFlagName(alias string) string { return strings.ToLower(alias) + "_row" }

// padItems creates the row flags of q's padded items and records the
// presence of their columns (vars: per item, its columns' variables).
func (b *block) padItems(q *lang.Query) map[int]Var {
	flags := map[int]Var{}
	for i, fi := range q.From {
		if !fi.Padded {
			continue
		}
		row := b.t.newVar(rowFlagName(fi.Alias), lang.TInt)
		flags[i] = row
		has := countTest(row, true)
		for _, v := range b.vars[i] {
			switch p := b.t.present[v.Name]; {
			case p == nil:
				b.t.setPresent(v, has)
				b.t.setKeyFlag(v, row) // padding lifts v to zero
			case b.t.flagOf[v.Name] == (Var{}):
				b.t.setPresent(v, andExpr(p, has))
			}
			// A nullable base column's flag is zeroed by the padding.
		}
	}
	return flags
}

// joinTerm returns the rows of join tree j as a term over its items'
// variables; item returns the row factors of one FROM item.
func (b *block) joinTerm(j *lang.Join, item func(int) []Term) (Term, error) {
	if j.Kind == lang.JoinItem {
		return prod(item(j.Item)), nil
	}
	l, err := b.joinTerm(j.L, item)
	if err != nil {
		return nil, err
	}
	r, err := b.joinTerm(j.R, item)
	if err != nil {
		return nil, err
	}
	var on []Term
	if j.On != nil {
		e, lifts, err := b.scalar(j.On)
		if err != nil {
			return nil, err
		}
		if len(lifts) > 0 {
			return nil, errorAt(j.On.Pos(), "a subquery in the ON condition of an outer join is not supported yet")
		}
		for _, c := range conjuncts(b.t.truth(e)) {
			on = append(on, &Val{E: c})
		}
	}
	inner := prod(append([]Term{l, r}, on...))
	switch j.Kind {
	case lang.JoinLeft:
		return &Sum{Terms: []Term{inner, b.antiJoin(l, r, on)}}, nil
	case lang.JoinRight:
		return &Sum{Terms: []Term{inner, b.antiJoin(r, l, on)}}, nil
	case lang.JoinFull:
		return &Sum{Terms: []Term{inner, b.antiJoin(l, r, on), b.antiJoin(r, l, on)}}, nil
	}
	return inner, nil
}

// antiJoin returns the rows of keep that match no row of other under on,
// with other's variables padded.
func (b *block) antiJoin(keep, other Term, on []Term) Term {
	kept := FreeVars(keep)
	n := b.t.newVar("unmatched", lang.TInt)
	count := b.freshCopy(&AggSum{T: prod(append([]Term{other}, on...))}, kept)
	fs := []Term{keep, &Lift{V: n, T: count}, &Val{E: countTest(n, false)}}
	for _, v := range FreeVars(other) {
		if b.t.order[v.Name] >= b.start && !hasVar(kept, v.Name) {
			fs = append(fs, &Lift{V: v, T: &Val{E: zeroLit(v.Type)}})
		}
	}
	return prod(fs)
}

// padded reports whether column reference c reads an item of this block
// that an outer join pads: such a column is never unified (the padding
// would bind the other side of the equality too).
func (b *block) padded(c *lang.ColRef) bool {
	return c.Outer == 0 && b.q.From[c.From].Padded
}
