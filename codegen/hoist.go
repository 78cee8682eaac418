package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/viewlet"
)

// Hoisted range reads. A trigger often reads one range of one map's
// range-sum index in several statements (AXFinder's +BIDS reads the
// broker's asks priced away from the bid in its COUNT and twice in its
// sum; BrokerSpread's +BIDS reads each of two ranges twice before it
// writes the map). A range read that depends on the trigger's arguments
// only, of a map that no statement before the reading one writes, has the
// value the map had before the event: it is read once, into a local at the
// top of the trigger body, and each such read uses the local. Statements
// keep their order when emitted (cluster moves none past one that writes
// what it reads), and a statement reads its RHS before it writes.

// hoist holds the hoisted reads of one trigger.
type hoist struct {
	args map[string]bool // the trigger's argument variables
	// order: the position of each statement in the order of execution
	// (buffered ones, which read before any write, at -1); firstWrite: per
	// map, the position of the first statement that writes it.
	order      map[*viewlet.Stmt]int
	firstWrite map[string]int
	// stmt is the statement whose unit is being emitted (nil outside one:
	// then only maps that no statement writes are hoisted).
	stmt    *viewlet.Stmt
	reads   map[string]*jen.Statement
	names   []string    // of the locals, in the order of prelude
	prelude []jen.Code  // a statement per local: local := read
	of      []rangeRead // the read of each local
}

// newHoist starts the hoisting of trigger t, whose arguments sc binds.
func newHoist(t *viewlet.Trigger, sc scope) *hoist {
	h := &hoist{args: map[string]bool{}, order: map[*viewlet.Stmt]int{}, firstWrite: map[string]int{}, reads: map[string]*jen.Statement{}}
	for name := range sc {
		h.args[name] = true
	}
	n := 0
	for _, s := range t.Stmts {
		at := len(t.Stmts) // buffered statements apply their writes last
		if s.Buffered {
			h.order[s] = -1
		} else {
			at = n
			h.order[s] = n
			n++
		}
		if w, ok := h.firstWrite[s.Map.Name]; !ok || at < w {
			h.firstWrite[s.Map.Name] = at
		}
	}
	return h
}

// unwritten reports whether the map named m still holds its value before
// the event where the current statement reads it.
func (h *hoist) unwritten(m string) bool {
	w, ok := h.firstWrite[m]
	if !ok {
		return true
	}
	if h.stmt == nil {
		return false
	}
	// A statement that reads the map it writes is buffered (at -1).
	return h.order[h.stmt] < w
}

// read returns the code of range read r, which the factors of a monomial
// but rest make: a local that the trigger's prelude reads once, when it
// can be hoisted (see above), else the read itself.
func (h *hoist) read(g *gen, r rangeRead, factors, rest []calculus.Term, sc scope) *jen.Statement {
	if !h.hoistable(r, factors, rest, sc) {
		return r.code
	}
	key := fmt.Sprintf("%#v", r.code)
	if local, ok := h.reads[key]; ok {
		return local.Clone()
	}
	name := g.fresh("read")
	local := jen.Id(name)
	h.reads[key] = local
	h.names = append(h.names, name)
	h.prelude = append(h.prelude, local.Clone().Op(":=").Add(r.code))
	h.of = append(h.of, r)
	return local.Clone()
}

// code returns the trigger's body after the reads it uses: a product that
// compiled to nothing (a factor {1 = 0}) may have asked for a read no code
// is left to use.
//
// Two reads that one descent can serve are one statement: the reads of
// both sides of one bound in one group of a grouped index (BrokerSpread's
// counts before and after an event's time) are
// below, above := index.SumSplit(g, x, belowIncl, aboveIncl) (of both
// lanes of a paired index when both are read so: b1, a1, b2, a2 :=
// pair.SumSplit(…), splitLanes), and the
// same read of the two lanes of a paired index (AXFinder's count and
// volume of a broker's asks away from a price, rangepair.go) is
// lane1, lane2 := pair.SumWhereEither(g, …).
func (h *hoist) code(g *gen, body []jen.Code) []jen.Code {
	var used []int
	for i, name := range h.names {
		if occurrences(body, name, 1) > 0 {
			used = append(used, i)
		}
	}
	paired := map[int]bool{}
	var out []jen.Code
	for a, i := range used {
		if paired[i] {
			continue
		}
		stmt := h.prelude[i]
		for _, j := range used[a+1:] {
			if paired[j] {
				continue
			}
			if below, above, ok := h.split(i, j); ok {
				paired[j] = true
				r := h.of[i]
				incl := []jen.Code{jen.Lit(h.of[below].fn == "SumLessEq"), jen.Lit(h.of[above].fn == "SumGreaterEq")}
				if p, other, ok := h.splitLanes(used[a+1:], paired, below, above); ok {
					// The same split of the pair's other lane: one descent.
					paired[other[0]], paired[other[1]] = true, true
					names := []jen.Code{jen.Id(h.names[below]), jen.Id(h.names[above]), jen.Id(h.names[other[0]]), jen.Id(h.names[other[1]])}
					if _, lane := r.mi.pairOf(r.ix); lane == 1 {
						names = append(names[2:], names[:2]...)
					}
					stmt = jen.List(names...).Op(":=").Id("e").Dot(r.mi.field).Dot(p.field).Dot("SumSplit").Call(p.args(append([]jen.Code{r.group, r.bound}, incl...))...)
					break
				}
				stmt = jen.List(jen.Id(h.names[below]), jen.Id(h.names[above])).Op(":=").Add(g.rangeCall(r.mi, r.ix, "SumSplit",
					append([]jen.Code{r.group, r.bound}, incl...)...))
				break
			}
			if p, lane1, lane2, ok := h.lanes(i, j); ok {
				paired[j] = true
				r := h.of[i]
				stmt = jen.List(jen.Id(h.names[lane1]), jen.Id(h.names[lane2])).Op(":=").Id("e").Dot(r.mi.field).Dot(p.field).Dot(r.method).Call(p.args(r.args)...)
				break
			}
		}
		out = append(out, stmt)
	}
	return append(out, body...)
}

// same reports whether two pieces of code are the same.
func same(a, b jen.Code) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }

// split reports whether locals i and j read the two sides of one bound in
// one group of one grouped index, and which reads below and which above.
func (h *hoist) split(i, j int) (below, above int, ok bool) {
	ri, rj := h.of[i], h.of[j]
	if ri.fn == "" || rj.fn == "" || ri.group == nil || rj.group == nil {
		return 0, 0, false
	}
	less := func(fn string) bool { return fn == "SumLess" || fn == "SumLessEq" }
	if less(ri.fn) == less(rj.fn) {
		return 0, 0, false
	}
	if ri.mi != rj.mi || ri.ix != rj.ix || !same(ri.group, rj.group) || !same(ri.bound, rj.bound) {
		return 0, 0, false
	}
	if less(ri.fn) {
		return i, j, true
	}
	return j, i, true
}

// splitLanes reports whether two locals among rest (not yet paired) read
// the split that locals below and above read (h.split) on the other lane
// of a paired index, and returns the pair and those locals, below first.
func (h *hoist) splitLanes(rest []int, paired map[int]bool, below, above int) (*rangePair, [2]int, bool) {
	rb, ra := h.of[below], h.of[above]
	p, lane := rb.mi.pairOf(rb.ix)
	if p == nil {
		return nil, [2]int{}, false
	}
	for a, k := range rest {
		for _, l := range rest[a+1:] {
			if paired[k] || paired[l] {
				continue
			}
			b, c, ok := h.split(k, l)
			if !ok {
				continue
			}
			ob, oa := h.of[b], h.of[c]
			if q, other := ob.mi.pairOf(ob.ix); q != p || other == lane {
				continue
			}
			if ob.fn != rb.fn || oa.fn != ra.fn || !same(ob.group, rb.group) || !same(ob.bound, rb.bound) {
				continue
			}
			return p, [2]int{b, c}, true
		}
	}
	return nil, [2]int{}, false
}

// lanes reports whether locals i and j are one read of the two lanes of a
// paired index, and which reads lane 1 and which lane 2.
func (h *hoist) lanes(i, j int) (p *rangePair, lane1, lane2 int, ok bool) {
	ri, rj := h.of[i], h.of[j]
	if ri.mi == nil || rj.mi == nil || ri.method != rj.method || len(ri.args) != len(rj.args) {
		return nil, 0, 0, false
	}
	p, li := ri.mi.pairOf(ri.ix)
	q, lj := rj.mi.pairOf(rj.ix)
	if p == nil || p != q || li == lj {
		return nil, 0, 0, false
	}
	for k := range ri.args {
		if !same(ri.args[k], rj.args[k]) {
			return nil, 0, 0, false
		}
	}
	if li == 0 {
		return p, i, j, true
	}
	return p, j, i, true
}

// hoistable reports whether range read r, which the factors of a monomial
// but rest make, is read once at the top of the trigger (see above).
func (h *hoist) hoistable(r rangeRead, factors, rest []calculus.Term, sc scope) bool {
	if h == nil || !h.unwritten(r.r.Name) {
		return false
	}
	inRest := map[calculus.Term]bool{}
	for _, f := range rest {
		inRest[f] = true
	}
	loopKey := map[string]bool{}
	for _, k := range r.r.Keys {
		if _, bound := sc[k.Name]; !bound {
			loopKey[k.Name] = true
		}
	}
	for _, f := range factors {
		if inRest[f] {
			continue
		}
		for _, v := range calculus.Vars(f) {
			if !h.args[v.Name] && !loopKey[v.Name] {
				return false
			}
		}
	}
	return true
}
