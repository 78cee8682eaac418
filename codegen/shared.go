package codegen

import (
	"errors"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// Shared evaluation. A trigger's statements often start alike: TPC-H
// Q6's SUM and the row count that makes it NULL over no rows filter on the
// same columns; Q3's COUNT and REVENUE loop over the same index of
// orders ⋈ customer; in dialect sql every nullable column adds a presence
// test to each of them. A trigger's body is a list of units, one per
// monomial in statement order, and consecutive units share what they
// begin with:
//
//   - a condition over bound variables (split at AND; a condition already
//     tested on the path is dropped): tested once for the run of units
//     that begin with it;
//   - a map read (a point lookup or a loop over an index) or a lifted
//     value: evaluated once, each unit multiplying the value read into its
//     own product, provided that no unit of the run writes a map that the
//     run reads (the loop would see some of the writes).
//
// A unit whose next structural factor (map read, lift) equals the run's
// after a few pure factors (conditions and values over bound variables)
// joins the run: the read moves ahead of those factors, which stay in
// their order before the rest of the unit. That lets Q3's REVENUE,
// filtered on its columns being present, share COUNT's loop. Values over bound
// variables at the front of a unit are computed once, in the shared part,
// when every condition before them has been tested (so that checked
// arithmetic never runs on a row its conditions exclude). Conditions,
// values and reads are pure, so sharing changes nothing but the work: the
// units still update their maps in statement order.

// unit is one monomial of a statement still to be emitted, or (clear) the
// clearing of a replaced target.
type unit struct {
	s     *viewlet.Stmt
	clear bool
	coef  *jen.Statement // the monomial's coefficient (nil: 1)
	pend  []pendingValue // values read by shared factors, multiplied after coef in order
	rest  []calculus.Term
	solo  bool     // a range-sum candidate: its map read is not shared
	reads []string // the maps that rest reads
	ent   string   // in an entry scope: the variable of the target's table entry
	// entKey: in an entry scope, the variable of the entry's key.
	entKey string
	// one: the clearing unit stands for its whole statement, which
	// replaces one entry (or a keyless map) by its sum (replaceOne).
	one bool
}

// pendingValue is a value read by a shared factor.
type pendingValue struct {
	code *jen.Statement
	typ  lang.Type
}

// units splits the statements ss of a trigger into units.
func (g *gen) units(ss []*viewlet.Stmt, sc scope) []*unit {
	var us []*unit
	for _, s := range ss {
		if s.Replace && g.replacesOne(s, sc) {
			us = append(us, &unit{s: s, clear: true, one: true, reads: s.Reads()})
			continue
		}
		if s.Replace {
			us = append(us, &unit{s: s, clear: true})
		}
		for _, mono := range s.RHS {
			if zeroProduct(mono.Factors) {
				continue // a FALSE condition of literals: nothing to add
			}
			u := &unit{s: s, rest: mono.Factors, solo: g.allBound(s.Keys, sc) && (rangeShaped(mono.Factors, sc, g) || thresholdShaped(mono.Factors, sc, g))}
			switch {
			case mono.Coef == 1:
			case s.Map.Type == lang.TInt:
				u.coef = jen.Lit(int64(mono.Coef))
			default:
				u.coef = jen.Lit(mono.Coef)
			}
			for _, f := range mono.Factors {
				calculus.Walk(f, func(t calculus.Term) {
					if r, ok := t.(*calculus.MapRef); ok && !hasString(u.reads, r.Name) {
						u.reads = append(u.reads, r.Name)
					}
				})
			}
			us = append(us, u)
		}
	}
	return us
}

// cluster reorders units so that units leading with the same map read
// or lift are consecutive: each moves up to just after the last earlier
// unit with its lead, when it is independent of every unit it passes
// (neither writes a map the other reads, nor clears a map the other
// writes; additions to one map commute).
func (g *gen) cluster(us []*unit, sc scope) []*unit {
	var out []*unit
	for _, u := range us {
		pos := len(out)
		// A unit that reads no map first joins the units with its first
		// condition (Q13's two counts filtered by one NOT LIKE).
		key, lead := g.lead(u, sc), g.lead
		if key == "" {
			key, lead = g.firstGuard(u, sc), g.firstGuard
		}
		if key == "" {
			// One that adds values of bound variables at a bound key joins
			// the units that add at that key: a table's entry scope.
			key, lead = g.entryLead(u, sc), g.entryLead
		}
		if key != "" && !u.clear {
			for k := len(out) - 1; k >= 0; k-- {
				w := out[k]
				if conflict(u, w) {
					break
				}
				if lead(w, sc) == key {
					pos = k + 1
					break
				}
			}
		}
		out = append(out, nil)
		copy(out[pos+1:], out[pos:])
		out[pos] = u
	}
	return out
}

// lead returns the key of the unit's first factor that is not pure over
// bound variables when it is shareable, else "".
func (g *gen) lead(u *unit, sc scope) string {
	if u.clear {
		return ""
	}
	for i, f := range u.rest {
		if v, ok := f.(*calculus.Val); ok && boundIn(v, sc) {
			continue
		}
		if k, key := g.next(&unit{rest: u.rest[i:], solo: u.solo}, sc); k == nextRead {
			return key
		}
		return ""
	}
	return ""
}

// entryLead returns the key of a unit that adds pure factors (conditions
// and values over bound variables) to a keyed map at bound keys — its
// keys' names — else "".
func (g *gen) entryLead(u *unit, sc scope) string {
	if u.clear || u.s.Buffered || !g.maps[u.s.Map.Name].keyed || !g.allBound(u.s.Keys, sc) {
		return ""
	}
	for _, f := range u.rest {
		if v, ok := f.(*calculus.Val); !ok || !boundIn(v, sc) {
			return ""
		}
	}
	return "@" + varNames(u.s.Keys)
}

// conflict reports whether one of two units writes a map the other reads,
// or clears a map the other writes.
func conflict(u, w *unit) bool {
	if (u.clear || w.clear) && u.s.Map.Name == w.s.Map.Name {
		return true
	}
	return hasString(u.reads, w.s.Map.Name) || hasString(w.reads, u.s.Map.Name)
}

// firstGuard returns the key of the unit's first condition (its first
// conjunct) when its first factor is a condition over bound variables,
// else "".
func (g *gen) firstGuard(u *unit, sc scope) string {
	if u.clear || len(u.rest) == 0 {
		return ""
	}
	v, ok := u.rest[0].(*calculus.Val)
	if !ok || v.E.Type() != lang.TBool || !boundIn(v, sc) {
		return ""
	}
	return calculus.String(&calculus.Val{E: conjuncts(v.E)[0]})
}

// rangeShaped reports whether factors may be a sum over a range of one
// map's entries (see rangeSum): one keyed map read with one unbound key,
// which a condition mentions, the other factors values (or, before the
// read, lifts of values: a pinned presence flag).
func rangeShaped(fs []calculus.Term, sc scope, g *gen) bool {
	var r *calculus.MapRef
	lifted := map[string]bool{}
	for _, f := range fs {
		switch x := f.(type) {
		case *calculus.MapRef:
			if r != nil {
				return false
			}
			r = x
		case *calculus.Val:
		case *calculus.Lift:
			if _, ok := x.T.(*calculus.Val); !ok || r != nil {
				return false
			}
			lifted[x.V.Name] = true
		default:
			return false
		}
	}
	free := loopKey(r, sc, lifted, g)
	return free != nil && usesVar(fs, free.Name) && len(fs) > 1
}

// loopKey returns the one key of map read r that neither sc nor lifted
// binds, nil when r is no keyed map read or leaves another number free.
func loopKey(r *calculus.MapRef, sc scope, lifted map[string]bool, g *gen) *calculus.Var {
	if r == nil || !g.maps[r.Name].keyed {
		return nil
	}
	var free *calculus.Var
	for i, k := range r.Keys {
		if _, ok := sc[k.Name]; !ok && !lifted[k.Name] {
			if free != nil {
				return nil
			}
			free = &r.Keys[i]
		}
	}
	return free
}

// thresholdShaped reports whether factors may be a threshold read (see
// thresholdSum): one keyed map read with one unbound key k (lifts of
// values before it bind keys too) and a lifted nested sum that reads k.
func thresholdShaped(fs []calculus.Term, sc scope, g *gen) bool {
	var r *calculus.MapRef
	lifted := map[string]bool{}
	var sums []*calculus.Lift
	for _, f := range fs {
		switch x := f.(type) {
		case *calculus.MapRef:
			if r != nil {
				return false
			}
			r = x
		case *calculus.Val:
		case *calculus.Lift:
			switch x.T.(type) {
			case *calculus.Val:
				if r == nil {
					lifted[x.V.Name] = true
				}
			case *calculus.AggSum:
				sums = append(sums, x)
			}
		default:
			return false
		}
	}
	free := loopKey(r, sc, lifted, g)
	if free == nil {
		return false
	}
	for _, l := range sums {
		if hasVar(calculus.Vars(l.T), free.Name) {
			return true
		}
	}
	return false
}

// The kinds of a unit's next factor.
const (
	nextNone  = iota // emitted by the unit alone
	nextGuard        // a condition over bound variables
	nextRead         // a map read or a lifted value, shareable
)

// advance drops the unit's leading conditions that are TRUE or tested on
// the path (estab), splits a leading AND, and computes leading values
// over bound variables into pend.
func (g *gen) advance(u *unit, sc scope, cx *shareCtx) ([]jen.Code, error) {
	var code []jen.Code
	for len(u.rest) > 0 {
		v, ok := u.rest[0].(*calculus.Val)
		if !ok || !boundIn(v, sc) {
			break
		}
		if v.E.Type() == lang.TBool {
			if _, lit := calculus.ConstBool(v.E); lit {
				u.rest = u.rest[1:] // TRUE (FALSE made the product zero)
				continue
			}
			if cs := conjuncts(v.E); len(cs) > 1 {
				split := make([]calculus.Term, 0, len(cs)+len(u.rest)-1)
				for _, c := range cs {
					split = append(split, &calculus.Val{E: c})
				}
				u.rest = append(split, u.rest[1:]...)
				continue
			}
			if cx.estab[calculus.String(v)] {
				u.rest = u.rest[1:]
				continue
			}
			break
		}
		key := calculus.String(v)
		n, done := cx.vals[key]
		if !done {
			e, err := g.expr(v.E, sc)
			if err != nil {
				return nil, err
			}
			n = g.fresh("val")
			code = append(code, jen.Id(n).Op(":=").Add(e))
			cx.vals[key] = n
		}
		u.pend = append(u.pend, pendingValue{code: jen.Id(n), typ: v.E.Type()})
		u.rest = u.rest[1:]
	}
	return code, nil
}

// next classifies the unit's next factor and returns its key.
func (g *gen) next(u *unit, sc scope) (int, string) {
	if len(u.rest) == 0 {
		return nextNone, ""
	}
	switch x := u.rest[0].(type) {
	case *calculus.Val:
		if x.E.Type() == lang.TBool && boundIn(x, sc) {
			return nextGuard, calculus.String(x)
		}
	case *calculus.MapRef:
		if !u.solo {
			return nextRead, calculus.String(x)
		}
	case *calculus.Lift:
		if _, ok := x.T.(*calculus.Val); ok {
			return nextRead, calculus.String(x)
		}
	}
	return nextNone, ""
}

// pureBefore returns the position of the first factor of u.rest that is
// not a condition or value over bound variables, with its key (-1 when
// there is none or it is not shareable).
func (g *gen) pureBefore(u *unit, sc scope) (int, string) {
	for i, f := range u.rest {
		if v, ok := f.(*calculus.Val); ok && boundIn(v, sc) {
			continue
		}
		probe := &unit{rest: u.rest[i:], solo: u.solo}
		if k, key := g.next(probe, sc); k == nextRead {
			return i, key
		}
		return -1, ""
	}
	return -1, ""
}

// shareCtx is what the enclosing code of a list of units has done: the
// conditions it tested (by calculus.String) and the values it computed
// into variables.
type shareCtx struct {
	estab map[string]bool
	vals  map[string]string
}

func newShareCtx() *shareCtx {
	return &shareCtx{estab: map[string]bool{}, vals: map[string]string{}}
}

// inner returns a copy of cx for a nested block.
func (cx *shareCtx) inner() *shareCtx {
	in := newShareCtx()
	for k, v := range cx.estab {
		in.estab[k] = v
	}
	for k, v := range cx.vals {
		in.vals[k] = v
	}
	return in
}

// emitUnits emits units in scope sc, in the context cx of the enclosing
// code.
func (g *gen) emitUnits(us []*unit, sc scope, cx *shareCtx) ([]jen.Code, error) {
	var out []jen.Code
	for i := 0; i < len(us); {
		u := us[i]
		if n, pos := g.replaceGroup(us[i:], sc); n > 0 {
			code, err := g.emitReplaceGroup(us[i:i+n], pos, sc)
			if err != nil {
				return nil, err
			}
			out = append(out, code...)
			i += n
			continue
		}
		if u.one {
			code, err := g.replaceOne(u.s, sc)
			if err != nil {
				return nil, &unitError{s: u.s, err: err}
			}
			out = append(out, code...)
			i++
			continue
		}
		if u.clear {
			out = append(out, g.stmtClear(u.s, sc)...)
			i++
			continue
		}
		if n := g.entryRun(us[i:], sc); n > 0 {
			// Open the entry once the conditions all units test first are
			// tested (an event they exclude looks nothing up).
			common := true
			var key0 string
			for k, v := range us[i : i+n] {
				pre, err := g.advance(v, sc, cx)
				if err != nil {
					return nil, &unitError{s: v.s, err: err}
				}
				out = append(out, pre...)
				kind, key := g.next(v, sc)
				if k == 0 {
					key0 = key
				}
				common = common && kind == nextGuard && key == key0
			}
			if !common {
				code, err := g.entryScope(us[i:i+n], sc, cx)
				if err != nil {
					return nil, err
				}
				out = append(out, code...)
				i += n
				continue
			}
		}
		pre, err := g.advance(u, sc, cx)
		if err != nil {
			return nil, &unitError{s: u.s, err: err}
		}
		out = append(out, pre...)
		kind, key := g.next(u, sc)
		if kind == nextNone {
			code, err := g.tail(u, sc)
			if err != nil {
				return nil, err
			}
			out = append(out, code...)
			i++
			continue
		}
		// The run: the following units whose next factor is the same.
		run := []*unit{u}
		skips := []int{0}
		written := map[string]bool{u.s.Map.Name: true}
		reads := map[string]bool{}
		for _, r := range u.reads {
			reads[r] = true
		}
		var readMap string
		if r, ok := u.rest[0].(*calculus.MapRef); ok {
			readMap = r.Name
		}
		j := i + 1
		for ; j < len(us) && !us[j].clear; j++ {
			v := us[j]
			pre, err := g.advance(v, sc, cx)
			if err != nil {
				return nil, &unitError{s: v.s, err: err}
			}
			out = append(out, pre...)
			vk, vkey := g.next(v, sc)
			skip := 0
			if kind == nextRead && (vk != nextRead || vkey != key) {
				// Pure factors before the same read move behind it.
				p, pkey := g.pureBefore(v, sc)
				if p <= 0 || pkey != key {
					break
				}
				skip = p
			} else if vk != kind || vkey != key {
				break
			}
			if kind == nextRead && !independent(v, written, reads, readMap) {
				break
			}
			run, skips = append(run, v), append(skips, skip)
			written[v.s.Map.Name] = true
			for _, r := range v.reads {
				reads[r] = true
			}
		}
		code, err := g.shared(run, skips, sc, cx, key)
		if err != nil {
			return nil, err
		}
		out = append(out, code...)
		i = j
	}
	return out, nil
}

// independent reports whether unit v can join a run that writes the maps
// written and reads the maps reads, sharing a read of map readMap: no
// unit may write a map another reads.
func independent(v *unit, written, reads map[string]bool, readMap string) bool {
	if reads[v.s.Map.Name] || v.s.Map.Name == readMap || written[readMap] {
		return false
	}
	for _, r := range v.reads {
		if written[r] {
			return false
		}
	}
	return true
}

// shared emits the first factor of a run of units once and the units'
// remaining factors inside it.
func (g *gen) shared(run []*unit, skips []int, sc scope, cx *shareCtx, key string) ([]jen.Code, error) {
	sub := make([]*unit, len(run))
	for i, u := range run {
		c := *u
		p := skips[i]
		c.rest = append(append([]calculus.Term(nil), u.rest[:p]...), u.rest[p+1:]...)
		c.pend = append([]pendingValue(nil), u.pend...)
		sub[i] = &c
	}
	head := run[0]
	switch x := head.rest[skips[0]].(type) {
	case *calculus.Val:
		inner := cx.inner()
		inner.estab[key] = true
		body, err := g.emitUnits(sub, sc, inner)
		if err != nil {
			return nil, err
		}
		cond, err := g.expr(x.E, sc)
		if err != nil {
			return nil, &unitError{s: head.s, err: err}
		}
		return []jen.Code{jen.If(cond).Block(body...)}, nil
	case *calculus.Lift:
		val := x.T.(*calculus.Val)
		e, err := g.expr(val.E, sc)
		if err != nil {
			return nil, &unitError{s: head.s, err: err}
		}
		if old, bound := sc[x.V.Name]; bound {
			body, err := g.emitUnits(sub, sc, cx.inner())
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.If(old.Clone().Op("==").Add(convert(e, val.E.Type(), x.V.Type))).Block(body...)}, nil
		}
		n := varName(x.V.Name) + fmt.Sprint(g.tmp)
		g.tmp++
		body, err := g.emitUnits(sub, sc.with(x.V.Name, jen.Id(n)), cx)
		if err != nil {
			return nil, err
		}
		code := []jen.Code{jen.Id(n).Op(":=").Add(convert(e, val.E.Type(), x.V.Type))}
		if !unitsUse(sub, x.V.Name) {
			code = append(code, jen.Id("_").Op("=").Id(n))
		}
		return append(code, body...), nil
	case *calculus.MapRef:
		sk := &sink{typ: x.Type, uses: unitVars(sub), emit: func(inner scope, acc *jen.Statement) ([]jen.Code, error) {
			for _, u := range sub {
				u.pend = append(u.pend, pendingValue{code: acc, typ: x.Type})
			}
			return g.emitUnits(sub, inner, cx.inner())
		}}
		code, err := g.mapReadAs(sk, x, nil, sc, nil, false)
		if err != nil {
			var ue *unitError
			if errors.As(err, &ue) {
				return nil, err
			}
			return nil, &unitError{s: head.s, err: err}
		}
		return code, nil
	}
	return nil, &unitError{s: head.s, err: fmt.Errorf("codegen: cannot share factor %s", key)}
}

// tail emits the rest of one unit: its product starts at the coefficient
// times the values read by shared factors.
func (g *gen) tail(u *unit, sc scope) ([]jen.Code, error) {
	st := u.s.Map.Type
	var code []jen.Code
	acc := u.coef
	for _, p := range u.pend {
		acc = jen.Add(g.mul(acc, convert(p.code, p.typ, st), st))
	}
	if len(u.pend) > 1 || (len(u.pend) == 1 && u.coef != nil) || (len(u.pend) == 1 && p0Converted(u, st)) {
		n := g.fresh("acc")
		code = append(code, jen.Id(n).Op(":=").Add(acc))
		acc = jen.Id(n)
	}
	sk := g.stmtSink(u.s)
	if u.ent != "" {
		sk = g.entrySink(u)
	}
	if g.hoist != nil {
		g.hoist.stmt = u.s
	}
	body, err := g.monomial(sk, calculus.Monomial{Coef: 1, Factors: u.rest}, sc, acc, g.allBound(u.s.Keys, sc))
	if g.hoist != nil {
		g.hoist.stmt = nil
	}
	if err != nil {
		return nil, &unitError{s: u.s, err: err}
	}
	code = append(code, body...)
	if len(code) == 1 {
		return code, nil
	}
	return []jen.Code{jen.Block(code...)}, nil
}

// p0Converted reports whether the unit's one pending value needs a
// conversion to the target's type (then it is computed once).
func p0Converted(u *unit, st lang.Type) bool {
	return u.pend[0].typ != st && (st == lang.TInt || st == lang.TFloat)
}

// unitsUse reports whether a unit's factors or target keys read variable
// name.
func unitsUse(us []*unit, name string) bool {
	for _, u := range us {
		if hasVarNamed(u.s.Keys, name) || usesVar(u.rest, name) {
			return true
		}
	}
	return false
}

// unitVars returns the variables the units' factors and target keys read.
func unitVars(us []*unit) []calculus.Var {
	var vs []calculus.Var
	add := func(v calculus.Var) {
		if !hasVarNamed(vs, v.Name) {
			vs = append(vs, v)
		}
	}
	for _, u := range us {
		for _, k := range u.s.Keys {
			add(k)
		}
		for _, f := range u.rest {
			for _, v := range calculus.Vars(f) {
				add(v)
			}
		}
	}
	return vs
}

// replacesOne reports whether replacing statement s sets one entry (its
// keys bound) or a keyless map, without reading its target: its sum is
// then computed first and stored with set, an update in place, instead of
// removing the entry and adding it back.
func (g *gen) replacesOne(s *viewlet.Stmt, sc scope) bool {
	mi := g.maps[s.Map.Name]
	if s.Buffered || !g.allBound(s.Keys, sc) || hasString(s.Reads(), s.Map.Name) || mi.tab != nil {
		return false
	}
	return !mi.keyed || (len(mi.ranges) == 0 && len(mi.modes) == 0 && len(mi.touch) == 0 && len(mi.buffers) == 0)
}

// replaceOne emits a statement that replacesOne: its monomials summed into
// a local variable, then stored.
func (g *gen) replaceOne(s *viewlet.Stmt, sc scope) ([]jen.Code, error) {
	sum := g.fresh("sum")
	// A FLOAT sum is compensated as the map's entry would add it.
	code, err := g.accumulateMonos(s.RHS, sum, s.Map.Type, sc, g.allBound(s.Keys, sc), s.Map.Type == lang.TFloat)
	if err != nil {
		return nil, err
	}
	code = append(code, g.storeReplaced(s, sum, sc)...)
	return []jen.Code{jen.Block(code...)}, nil
}

// storeReplaced stores the sum of a statement that replacesOne.
func (g *gen) storeReplaced(s *viewlet.Stmt, sum string, sc scope) []jen.Code {
	mi := g.maps[s.Map.Name]
	m := jen.Id("e").Dot(mi.field)
	if !mi.keyed {
		return []jen.Code{m.Clone().Op("=").Id(sum)}
	}
	vals := make([]jen.Code, len(s.Keys))
	for i, k := range s.Keys {
		vals[i] = sc[k.Name].Clone()
	}
	mi.usesSet = true
	return append([]jen.Code{m.Clone().Dot("set").Call(g.keyValue(s.Map.Keys, vals), jen.Id(sum))}, g.touchKey(mi, g.keyValue(s.Map.Keys, vals))...)
}

// unitError is an error of the code of one statement.
type unitError struct {
	s   *viewlet.Stmt
	err error
}

func (e *unitError) Error() string { return e.err.Error() }
func (e *unitError) Unwrap() error { return e.err }

// conjuncts splits a condition at its top-level ANDs.
func conjuncts(e lang.Expr) []lang.Expr {
	if b, ok := e.(*lang.Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []lang.Expr{e}
}

// boundIn reports whether every variable of v is bound in sc.
func boundIn(v *calculus.Val, sc scope) bool {
	for _, x := range calculus.Vars(v) {
		if _, ok := sc[x.Name]; !ok {
			return false
		}
	}
	return true
}

func hasString(ss []string, s string) bool {
	for _, t := range ss {
		if t == s {
			return true
		}
	}
	return false
}
