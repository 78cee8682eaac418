package viewlet

import (
	"slices"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// counted is a multiset of values with their multiplicities, built by the
// interpreter for an ordered-set aggregate.
type counted struct {
	vals []any
	cnts []int64
}

// add adds n to the multiplicity of v.
func (c *counted) add(v any, n int64) {
	for i, w := range c.vals {
		if compareNum(v, w) == 0 {
			c.cnts[i] += n
			return
		}
	}
	c.vals = append(c.vals, v)
	c.cnts = append(c.cnts, n)
}

// holistic computes the ordered-set aggregate h of the multiset, of type t:
// the zero value of t when it holds no value. It sorts the values and reads
// the ranks that generated code reads from its indexes (runtime.ContRanks,
// runtime.DiscRank).
func (c *counted) holistic(h *calculus.Holistic, t lang.Type) any {
	idx := make([]int, 0, len(c.vals))
	var n int64
	for i, k := range c.cnts {
		if k != 0 {
			idx = append(idx, i)
			n += k
		}
	}
	if h.Fn == "MODE" {
		return c.mode(h, t)
	}
	if n <= 0 {
		return zeroOf(t)
	}
	slices.SortFunc(idx, func(a, b int) int { return compareNum(c.vals[a], c.vals[b]) })
	at := func(r int64) any {
		for _, i := range idx {
			if r < c.cnts[i] {
				return c.vals[i]
			}
			r -= c.cnts[i]
		}
		return c.vals[idx[len(idx)-1]]
	}
	switch h.Fn {
	case "PERCENTILE_CONT":
		a, b, f := runtime.ContRanks(n, h.Frac, h.Desc)
		return coerce(runtime.Interpolate(toFloat(at(a)), toFloat(at(b)), f), t)
	case "PERCENTILE_DISC":
		return coerce(at(runtime.DiscRank(n, h.Frac, h.Desc)), t)
	}
	panic("unreachable: MODE is computed by mode")
}

// mode computes MODE: the most frequent value, the least among ties (the
// greatest when descending), among the values of positive multiplicity (a
// delete of an absent tuple leaves a negative one: no occurrence); the
// zero value of t when there is none.
func (c *counted) mode(h *calculus.Holistic, t lang.Type) any {
	best := -1
	for i, k := range c.cnts {
		if k <= 0 {
			continue
		}
		if best < 0 || k > c.cnts[best] || k == c.cnts[best] && (compareNum(c.vals[i], c.vals[best]) < 0) != h.Desc {
			best = i
		}
	}
	if best < 0 {
		return zeroOf(t)
	}
	return coerce(c.vals[best], t)
}
