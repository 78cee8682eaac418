package calculus

import "github.com/toastgen/toastgen/lang"

// The leaves by which a view's values and filter read its aggregates
// (Query.Aggs), and the upkeep of the aggregates they read.

// AggRef is a lang.Expr leaf that reads aggregate Index of the enclosing Query
// at the current group.
type AggRef struct {
	Index int
	T     lang.Type
}

// Pos implements lang.Expr.
func (a *AggRef) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (a *AggRef) Type() lang.Type { return a.T }

// ExtremeRef is a lang.Expr leaf that reads the least (or greatest) value
// of the last key of aggregate Index among its entries for the current group
// (its other keys: the view's keys, those of AggKeys[Index], or none) —
// or, with Hol set, that ordered-set aggregate of the entries' keys, each
// counted with the entry's value.
type ExtremeRef struct {
	Index int
	Max   bool
	Hol   *Holistic
	T     lang.Type
}

// RangeRef is a lang.Expr leaf that reads a running sum (a window with an
// ORDER BY): the sum of the values of aggregate Index's entries whose keys
// equal the row's but key Order (the window's partition), and whose key
// Order (the window's ORDER BY value) is at most the row's — below it with
// Strict, at least (above) it with Desc. Keys are the positions of the
// aggregate's keys among the view's key variables. Flag, for an ORDER BY
// value that may be NULL, is the index among them of its presence flag
// (-1: none): NULL comes before every value ascending, after descending,
// and NULLs are peers.
//
// A key of the aggregate that is no key of the view (a window over groups
// ordered by an aggregate, RANK() OVER (ORDER BY SUM(x))) has position -1
// in Keys, and Exprs gives the row's value for it (an expression of the
// row's aggregates; for a presence flag, 1 or 0); Exprs is nil when every
// key is the view's. Such an aggregate is read by RangeRefs only, and its
// AggKeys hold the -1s too.
type RangeRef struct {
	Index  int
	Keys   []int
	Exprs  []lang.Expr
	Order  int
	Flag   int
	Desc   bool
	Strict bool
	T      lang.Type
}

// Pos implements lang.Expr.
func (a *RangeRef) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (a *RangeRef) Type() lang.Type { return a.T }

// holisticOf is the Holistic of an ordered-set aggregate, nil for others.
func holisticOf(a *lang.Agg) *Holistic {
	if !lang.HolisticAggs[a.Fn] {
		return nil
	}
	return &Holistic{Fn: a.Fn, Frac: a.Frac, Desc: a.Desc}
}

// Pos implements lang.Expr.
func (a *ExtremeRef) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (a *ExtremeRef) Type() lang.Type { return a.T }

// pruneAggs drops the aggregates that no value or filter reads (Aggs[0],
// the row count, stays): a filter that reads a MIN's presence only (HAVING
// MAX(x) IS NOT NULL) leaves the MIN's own map unread.
func pruneAggs(cq *Query) {
	used := map[int]bool{0: true}
	mark := func(e lang.Expr) {
		mapExpr(e, func(x lang.Expr) lang.Expr {
			switch r := x.(type) {
			case *AggRef:
				used[r.Index] = true
			case *ExtremeRef:
				used[r.Index] = true
			case *RangeRef:
				used[r.Index] = true
			}
			return x
		})
	}
	for _, v := range cq.Values {
		mark(v.E)
		mark(v.Present)
	}
	mark(cq.Having)
	if len(used) == len(cq.Aggs) {
		return
	}
	index := map[int]int{}
	var aggs []Term
	keys := map[int][]int{}
	for i, a := range cq.Aggs {
		if used[i] {
			index[i] = len(aggs)
			if k, ok := cq.AggKeys[i]; ok {
				keys[len(aggs)] = k
			}
			aggs = append(aggs, a)
		}
	}
	renumber := func(e lang.Expr) lang.Expr {
		if e == nil {
			return nil
		}
		return mapExpr(e, func(x lang.Expr) lang.Expr {
			switch r := x.(type) {
			case *AggRef:
				c := *r
				c.Index = index[r.Index]
				return &c
			case *ExtremeRef:
				c := *r
				c.Index = index[r.Index]
				return &c
			case *RangeRef:
				c := *r
				c.Index = index[r.Index]
				return &c
			}
			return x
		})
	}
	for i := range cq.Values {
		cq.Values[i].E = renumber(cq.Values[i].E)
		cq.Values[i].Present = renumber(cq.Values[i].Present)
	}
	cq.Having = renumber(cq.Having)
	cq.Aggs = aggs
	cq.AggKeys = nil
	if len(keys) > 0 {
		cq.AggKeys = keys
	}
}

// setAggKeys records that aggregate i of cq is keyed by the view's keys at
// pos (a window's grouping): not for Aggs[0], keyed by all the view's keys,
// nor for none.
func setAggKeys(cq *Query, i int, pos []int) {
	if i == 0 || len(pos) == 0 {
		return
	}
	if cq.AggKeys == nil {
		cq.AggKeys = map[int][]int{}
	}
	cq.AggKeys[i] = pos
}
