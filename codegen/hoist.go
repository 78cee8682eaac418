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
// sum). A range read that depends on the trigger's arguments only, of a
// map the trigger does not write, has the same value all through the
// trigger: it is read once, into a local at the top of the trigger body,
// and each statement uses the local.

// hoist holds the hoisted reads of one trigger.
type hoist struct {
	args    map[string]bool // the trigger's argument variables
	written map[string]bool // the maps its statements write
	reads   map[string]*jen.Statement
	prelude []jen.Code
}

// newHoist starts the hoisting of trigger t, whose arguments sc binds.
func newHoist(t *viewlet.Trigger, sc scope) *hoist {
	h := &hoist{args: map[string]bool{}, written: map[string]bool{}, reads: map[string]*jen.Statement{}}
	for name := range sc {
		h.args[name] = true
	}
	for _, s := range t.Stmts {
		h.written[s.Map.Name] = true
	}
	return h
}

// read returns the code of range read r, which the factors of a monomial
// but rest make: a local that the trigger's prelude reads once, when it
// can be hoisted (see above), else the read itself.
func (h *hoist) read(g *gen, r rangeRead, factors, rest []calculus.Term, sc scope) *jen.Statement {
	if h == nil || h.written[r.r.Name] {
		return r.code
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
				return r.code
			}
		}
	}
	key := fmt.Sprintf("%#v", r.code)
	if local, ok := h.reads[key]; ok {
		return local.Clone()
	}
	local := jen.Id(g.fresh("read"))
	h.reads[key] = local
	h.prelude = append(h.prelude, local.Clone().Op(":=").Add(r.code))
	return local.Clone()
}
