package codegen

import (
	"fmt"
	"math"
	"regexp"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// scope maps bound calculus variables to Go expressions.
type scope map[string]*jen.Statement

func (s scope) with(name string, c *jen.Statement) scope {
	out := make(scope, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out[name] = c
	return out
}

// stmtClear emits what a replacing statement does before its monomials:
// it clears the target entries the event fixes (nil for other statements).
func (g *gen) stmtClear(s *viewlet.Stmt, sc scope) []jen.Code {
	mi := g.maps[s.Map.Name]
	var out []jen.Code
	if s.Replace {
		var pos []int
		for i, k := range s.Keys {
			if _, bound := sc[k.Name]; bound {
				pos = append(pos, i)
			}
		}
		switch {
		case len(pos) > 0 && len(pos) == len(s.Keys):
			// Replace one entry: remove it, then add the new value.
			vals := make([]jen.Code, len(s.Keys))
			for i, k := range s.Keys {
				vals[i] = sc[k.Name].Clone()
			}
			mi.removes = true
			out = append(out, jen.Id("e").Dot(mi.field).Dot("remove").Call(g.keyValue(s.Map.Keys, vals)))
			out = append(out, g.touchKey(mi, g.keyValue(s.Map.Keys, vals))...)
		case len(pos) > 0:
			// Replace the slice of entries with the bound keys: collect
			// their keys through the secondary index, then remove them.
			ix := mi.indexFor(pos)
			mi.removes = true
			vals := make([]jen.Code, len(pos))
			for j, p := range pos {
				vals[j] = sc[s.Keys[p].Name].Clone()
			}
			m := jen.Id("e").Dot(mi.field)
			mi.usesScratch, mi.usesGet = true, true
			out = append(out,
				m.Clone().Dot("scratch").Op("=").Add(m.Clone()).Dot("scratch").Index(jen.Empty(), jen.Lit(0)),
				jen.For(jen.List(jen.Id("_"), jen.Id("i")).Op(":=").Range().Add(m.Clone()).Dot(fmt.Sprintf("idx%d", ix)).Index(g.keyValue(subVars(s.Map.Keys, pos), vals))).Block(
					m.Clone().Dot("scratch").Op("=").Append(m.Clone().Dot("scratch"), m.Clone().Dot("entries").Index(jen.Id("i")).Dot("key"))),
				jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(m.Clone()).Dot("scratch")).Block(
					append([]jen.Code{m.Clone().Dot("remove").Call(jen.Id("k"))}, g.touchKey(mi, jen.Id("k"))...)...),
			)
		case mi.keyed:
			mi.usesReset = true
			out = append(out, jen.Id("e").Dot(mi.field).Dot("reset").Call())
			out = append(out, g.touchAllKeys(mi)...)
		case s.Map.Type == lang.TFloat:
			out = append(out, jen.Id("e").Dot(mi.field).Op("=").Qual(runtimePkg, "FloatSum").Values())
		default:
			out = append(out, jen.Id("e").Dot(mi.field).Op("=").Lit(0))
		}
	}
	return out
}

// sink is where a monomial's products go: a map update, a buffer, or a
// local accumulator of a nested aggregate.
type sink struct {
	typ  lang.Type
	emit func(sc scope, acc *jen.Statement) ([]jen.Code, error)
	uses []calculus.Var // the variables emit reads
}

// stmtSink adds each product to the statement's target map (or its buffer).
func (g *gen) stmtSink(s *viewlet.Stmt) *sink {
	return &sink{typ: s.Map.Type, uses: s.Keys, emit: func(sc scope, acc *jen.Statement) ([]jen.Code, error) {
		mi := g.maps[s.Map.Name]
		var key jen.Code
		if mi.keyed {
			vals := make([]jen.Code, len(s.Keys))
			for i, k := range s.Keys {
				c, ok := sc[k.Name]
				if !ok {
					return nil, fmt.Errorf("codegen: key %s of %s is not bound", k.Name, s.Map.Name)
				}
				vals[i] = c.Clone()
			}
			key = g.keyValue(s.Map.Keys, vals)
		}
		if s.Buffered {
			buf := jen.Id("e").Dot(bufName(mi, bufIndex(mi, s)))
			d := jen.Dict{jen.Id("v"): acc}
			if mi.keyed {
				d[jen.Id("k")] = key
			}
			return []jen.Code{buf.Clone().Op("=").Append(buf, jen.Id(bufEntry(mi)).Values(d))}, nil
		}
		return g.addToMap(mi, key, acc), nil
	}}
}

// factors emits the code of the remaining factors of a monomial; acc holds
// the product so far (nil for 1).
func (g *gen) factors(sk *sink, fs []calculus.Term, sc scope, acc *jen.Statement) ([]jen.Code, error) {
	vt := sk.typ
	if zeroProduct(fs) {
		return nil, nil // a FALSE condition of literals: the product is zero
	}
	if len(fs) == 0 {
		if acc == nil {
			if vt == lang.TInt {
				acc = jen.Lit(int64(1))
			} else {
				acc = jen.Lit(1.0)
			}
		}
		return sk.emit(sc, acc)
	}
	switch x := fs[0].(type) {
	case *calculus.Val:
		if _, ok := calculus.ConstBool(x.E); ok {
			// A TRUE condition of literals (a padded row's presence, TRUE
			// spelled 0 = 0) is no condition; a FALSE one made the product
			// zero above (zeroProduct).
			return g.factors(sk, fs[1:], sc, acc)
		}
		e, err := g.expr(x.E, sc)
		if err != nil {
			return nil, err
		}
		if x.E.Type() == lang.TBool {
			rest, err := g.factors(sk, fs[1:], sc, acc)
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.If(e).Block(rest...)}, nil
		}
		next := g.fresh("acc")
		rest, err := g.factors(sk, fs[1:], sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return append([]jen.Code{jen.Id(next).Op(":=").Add(g.mul(acc, convert(e, x.E.Type(), vt), vt))}, rest...), nil
	case *calculus.Lift:
		val, ok := x.T.(*calculus.Val)
		if !ok {
			return g.liftNested(sk, x, fs[1:], sc, acc)
		}
		e, err := g.expr(val.E, sc)
		if err != nil {
			return nil, err
		}
		if old, bound := sc[x.V.Name]; bound {
			rest, err := g.factors(sk, fs[1:], sc, acc)
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.If(old.Clone().Op("==").Add(convert(e, val.E.Type(), x.V.Type))).Block(rest...)}, nil
		}
		n := varName(x.V.Name) + fmt.Sprint(g.tmp)
		g.tmp++
		rest, err := g.factors(sk, fs[1:], sc.with(x.V.Name, jen.Id(n)), acc)
		if err != nil {
			return nil, err
		}
		code := []jen.Code{jen.Id(n).Op(":=").Add(convert(e, val.E.Type(), x.V.Type))}
		if !usesVar(fs[1:], x.V.Name) && !hasVarNamed(sk.uses, x.V.Name) {
			code = append(code, jen.Id("_").Op("=").Id(n)) // bound for nothing the code reads
		}
		return append(code, rest...), nil
	case *calculus.MapRef:
		return g.mapRead(sk, x, fs[1:], sc, acc)
	case *calculus.Exists:
		if r, ok := x.T.(*calculus.MapRef); ok {
			return g.mapReadAs(sk, r, fs[1:], sc, acc, true)
		}
		// Exists is 1 per binding of the variables its term binds (the
		// group variables of an AggSum that are not bound here), as the
		// interpreter evaluates it.
		if out := existsOutputs(x.T, sc); len(out) > 0 {
			if drv, more, ok := groupDriver(x.T, out, sc); ok {
				// One map's entries are the groups: loop over them, and
				// test the rest of the group's sum per entry.
				nf := []calculus.Term{&calculus.Exists{T: drv}}
				if more != nil {
					nf = append(nf, &calculus.Exists{T: more})
				}
				return g.factors(sk, append(nf, fs[1:]...), sc, acc)
			}
			return g.groupSums(sk, x.T, out, fs[1:], sc, acc, true)
		}
		// Exists of a sum over bound variables: count, then test.
		cnt := g.fresh("cnt")
		code, err := g.accumulate(x.T, cnt, lang.TFloat, sc)
		if err != nil {
			return nil, err
		}
		rest, err := g.factors(sk, fs[1:], sc, acc)
		if err != nil {
			return nil, err
		}
		return append(code, jen.If(jen.Id(cnt).Op("!=").Lit(0)).Block(rest...)), nil
	case *calculus.AggSum:
		// A nested sum with group variables not bound here is one term per
		// group, binding them (as for Exists, but the group's sum
		// multiplies the product).
		if out := existsOutputs(x, sc); len(out) > 0 {
			if drv, more, ok := groupDriver(x, out, sc); ok {
				nf := []calculus.Term{drv}
				if more != nil {
					nf = append(nf, more)
				}
				return g.factors(sk, append(nf, fs[1:]...), sc, acc)
			}
			return g.groupSums(sk, x, out, fs[1:], sc, acc, false)
		}
		// A nested sum over bound variables multiplies the product.
		sum := g.fresh("sum")
		code, err := g.accumulate(x, sum, sk.typ, sc)
		if err != nil {
			return nil, err
		}
		next := g.fresh("acc")
		rest, err := g.factors(sk, fs[1:], sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return append(code, jen.If(jen.Id(sum).Op("!=").Lit(0)).Block(
			append([]jen.Code{jen.Id(next).Op(":=").Add(g.mul(acc, jen.Id(sum), sk.typ))}, rest...)...)), nil
	}
	return nil, fmt.Errorf("codegen: unsupported factor %s", calculus.String(fs[0]))
}

// existsOutputs returns the variables whose bindings Exists(t) yields
// under sc: the unbound group variables of an AggSum, else the unbound
// free variables of t.
func existsOutputs(t calculus.Term, sc scope) []calculus.Var {
	vs := calculus.FreeVars(t)
	if a, ok := t.(*calculus.AggSum); ok {
		vs = a.Group
	}
	var out []calculus.Var
	for _, v := range vs {
		if _, bound := sc[v.Name]; !bound && !hasVarNamed(out, v.Name) {
			out = append(out, v)
		}
	}
	return out
}

func hasVarNamed(vs []calculus.Var, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// groupDriver recognizes a grouped sum (or an Exists of one) whose groups
// (the bindings of out) are the entries of one map: t is one monomial with
// a map read whose keys are all bound or in out and cover out. Each entry
// is then one group, whose sum is the entry's value (non-zero) times the
// product of the other factors summed over the variables not in the group:
// it returns the map read and that sum (nil when there are no other
// factors).
func groupDriver(t calculus.Term, out []calculus.Var, sc scope) (*calculus.MapRef, calculus.Term, bool) {
	group := out
	body := t
	if a, ok := t.(*calculus.AggSum); ok {
		group, body = a.Group, a.T
	}
	monos := calculus.Expand(body)
	if len(monos) != 1 || monos[0].Coef == 0 {
		return nil, nil, false
	}
	fs := monos[0].Factors
	for i, f := range fs {
		r, ok := f.(*calculus.MapRef)
		if !ok {
			continue
		}
		fits := true
		for _, k := range r.Keys {
			if _, bound := sc[k.Name]; !bound && !hasVarNamed(out, k.Name) {
				fits = false
			}
		}
		for _, v := range out {
			if !hasVarNamed(r.Keys, v.Name) {
				fits = false
			}
		}
		if !fits {
			continue
		}
		rest := append(append([]calculus.Term{}, fs[:i]...), fs[i+1:]...)
		if c := monos[0].Coef; c != 1 {
			// The coefficient multiplies each group's sum.
			lit := calculus.FloatLit(c)
			if c == math.Trunc(c) {
				lit = calculus.IntLit(int64(c))
			}
			rest = append(rest, &calculus.Val{E: lit})
		}
		if len(rest) == 0 {
			return r, nil, true
		}
		var more calculus.Term = rest[0]
		if len(rest) > 1 {
			more = &calculus.Prod{Factors: rest}
		}
		// Every group variable is bound where more is evaluated: keep
		// those it mentions, to sum over the others.
		var keep []calculus.Var
		for _, v := range calculus.Vars(more) {
			if hasVarNamed(group, v.Name) || hasVarNamed(out, v.Name) {
				keep = append(keep, v)
			}
		}
		return r, &calculus.AggSum{Group: keep, T: more}, true
	}
	return nil, nil, false
}

// groupSums emits a grouped sum t (with exists, Exists(t)) for groups (the
// bindings of out) that no single map enumerates: the group sums are
// collected in a scratch map of the Engine (cleared first; it keeps its
// buckets, so nothing allocates once warm), then the rest of the product
// runs once per non-zero group, times the group's sum unless exists.
func (g *gen) groupSums(sk *sink, t calculus.Term, out []calculus.Var, rest []calculus.Term, sc scope, acc *jen.Statement, exists bool) ([]jen.Code, error) {
	field := g.scratchFor(out)
	m := jen.Id("e").Dot(field)
	body := t
	if a, ok := t.(*calculus.AggSum); ok {
		body = a.T
	}
	inner := &sink{typ: lang.TFloat, uses: out, emit: func(isc scope, acc *jen.Statement) ([]jen.Code, error) {
		vals := make([]jen.Code, len(out))
		for i, v := range out {
			c, ok := isc[v.Name]
			if !ok {
				return nil, fmt.Errorf("codegen: group variable %s is not bound in %s", v.Name, calculus.String(t))
			}
			vals[i] = c.Clone()
		}
		return []jen.Code{m.Clone().Index(g.keyValue(out, vals)).Op("+=").Add(acc)}, nil
	}}
	code := []jen.Code{jen.Clear(m.Clone())}
	for _, mono := range calculus.Expand(body) {
		var coef *jen.Statement
		if mono.Coef != 1 {
			coef = jen.Lit(mono.Coef)
		}
		c, err := g.factors(inner, mono.Factors, sc, coef)
		if err != nil {
			return nil, err
		}
		code = append(code, jen.Block(c...))
	}
	k, v := g.fresh("grp"), g.fresh("cnt")
	isc := sc
	for i, u := range out {
		isc = isc.with(u.Name, keyField(jen.Id(k), len(out), i))
	}
	var next []jen.Code
	if exists {
		c, err := g.factors(sk, rest, isc, acc)
		if err != nil {
			return nil, err
		}
		next = c
	} else {
		nx := g.fresh("acc")
		c, err := g.factors(sk, rest, isc, jen.Id(nx))
		if err != nil {
			return nil, err
		}
		next = append([]jen.Code{jen.Id(nx).Op(":=").Add(g.mul(acc, convert(jen.Id(v), lang.TFloat, sk.typ), sk.typ))}, c...)
	}
	loop := []jen.Code{jen.Id("_").Op("=").Id(k)} // the group may only key the target
	loop = append(loop, jen.If(jen.Id(v).Op("!=").Lit(0)).Block(next...))
	return append(code, jen.For(jen.List(jen.Id(k), jen.Id(v)).Op(":=").Range().Add(m)).Block(loop...)), nil
}

// scratchFor plans a scratch map keyed by vars for groupSums and
// returns its Engine field. Both passes of Generate plan the same scratch
// maps in the same order; the Engine type declares the first pass's.
func (g *gen) scratchFor(vars []calculus.Var) string {
	g.scratches = append(g.scratches, vars)
	return fmt.Sprintf("groups%d", len(g.scratches)-1)
}

// mapRead emits a point lookup when every key is bound, else a loop over a
// secondary index (or the whole map) binding the other keys.
func (g *gen) mapRead(sk *sink, r *calculus.MapRef, rest []calculus.Term, sc scope, acc *jen.Statement) ([]jen.Code, error) {
	return g.mapReadAs(sk, r, rest, sc, acc, false)
}

// liftNested binds (or tests) a variable lifted to a nested aggregate over
// maps: a point lookup, or a local sum over loops.
func (g *gen) liftNested(sk *sink, x *calculus.Lift, rest []calculus.Term, sc scope, acc *jen.Statement) ([]jen.Code, error) {
	var code []jen.Code
	var value *jen.Statement
	vtyp := calculus.TypeOf(x.T)
	if r, ok := x.T.(*calculus.MapRef); ok && g.allBound(r.Keys, sc) {
		mi := g.maps[r.Name]
		if mi.keyed {
			vals := make([]jen.Code, len(r.Keys))
			for i, k := range r.Keys {
				vals[i] = sc[k.Name].Clone()
			}
			value = mi.get(g.keyValue(mi.m.Keys, vals))
		} else {
			value = keylessValue(mi)
		}
		vtyp = r.Type
	} else if ex, ok := x.T.(*calculus.Extreme); ok {
		best := g.fresh("best")
		c, err := g.extreme(ex, best, sc)
		if err != nil {
			return nil, err
		}
		code, value, vtyp = c, jen.Id(best), ex.Arg.Type
	} else {
		sum := g.fresh("sum")
		c, err := g.accumulate(x.T, sum, vtyp, sc)
		if err != nil {
			return nil, err
		}
		code, value = c, jen.Id(sum)
	}
	if old, bound := sc[x.V.Name]; bound {
		body, err := g.factors(sk, rest, sc, acc)
		if err != nil {
			return nil, err
		}
		return append(code, jen.If(old.Clone().Op("==").Add(convert(value, vtyp, x.V.Type))).Block(body...)), nil
	}
	n := varName(x.V.Name) + fmt.Sprint(g.tmp)
	g.tmp++
	body, err := g.factors(sk, rest, sc.with(x.V.Name, jen.Id(n)), acc)
	if err != nil {
		return nil, err
	}
	code = append(code, jen.Id(n).Op(":=").Add(convert(value, vtyp, x.V.Type)))
	if !usesVar(rest, x.V.Name) {
		code = append(code, jen.Id("_").Op("=").Id(n)) // bound for a key of the target only, or not at all
	}
	return append(code, body...), nil
}

// accumulate emits `var name T` and the loops that add a term's value (a
// sum of products over maps, evaluated with the variables of sc) into it.
func (g *gen) accumulate(t calculus.Term, name string, typ lang.Type, sc scope) ([]jen.Code, error) {
	ranged := true // a monomial may be read from a range-sum index
	if a, ok := t.(*calculus.AggSum); ok {
		t = a.T
		ranged = g.allBound(a.Group, sc)
	}
	return g.accumulateMonos(calculus.Expand(t), name, typ, sc, ranged, false)
}

// accumulateMonos emits `var name T` and the loops that add monomials'
// values into it (with ranged, a monomial may be a range-sum read; with
// compensated, name is a runtime.FloatSum).
func (g *gen) accumulateMonos(monos []calculus.Monomial, name string, typ lang.Type, sc scope, ranged, compensated bool) ([]jen.Code, error) {
	code := []jen.Code{jen.Var().Id(name).Add(goType(typ))}
	sk := &sink{typ: typ, emit: func(_ scope, acc *jen.Statement) ([]jen.Code, error) {
		return []jen.Code{g.addTo(name, acc, typ)}, nil
	}}
	if compensated {
		code = []jen.Code{jen.Var().Id(name).Qual(runtimePkg, "FloatSum")}
		sk.emit = func(_ scope, acc *jen.Statement) ([]jen.Code, error) {
			return []jen.Code{jen.Id(name).Dot("Add").Call(acc)}, nil
		}
	}
	for _, mono := range monos {
		var coef *jen.Statement
		if mono.Coef != 1 {
			if typ == lang.TInt {
				coef = jen.Lit(int64(mono.Coef))
			} else {
				coef = jen.Lit(mono.Coef)
			}
		}
		c, err := g.monomial(sk, mono, sc, coef, ranged)
		if err != nil {
			return nil, err
		}
		code = append(code, jen.Block(c...))
	}
	return code, nil
}

// monomial emits one monomial into sk, times coef. With ranged, a
// monomial that sums a range of one map's entries (rangeSum) is one
// O(log n) read, which the other factors, over bound variables only,
// multiply or guard; otherwise its factors loop.
func (g *gen) monomial(sk *sink, mono calculus.Monomial, sc scope, coef *jen.Statement, ranged bool) ([]jen.Code, error) {
	if ranged {
		if pre, rest := boundPrefix(mono.Factors, sc); len(pre) > 0 && len(rest) > 0 {
			// Bind the prefix (a pinned presence flag, conditions on the
			// event), then read the rest as a range or threshold if it is one.
			inner := &sink{typ: sk.typ, uses: sk.uses, emit: func(sc2 scope, acc *jen.Statement) ([]jen.Code, error) {
				return g.monomial(sk, calculus.Monomial{Coef: 1, Factors: rest}, sc2, acc, ranged)
			}}
			return g.factors(inner, pre, sc, coef)
		}
		if code, ok, err := g.thresholdSum(sk, mono, sc, coef); ok || err != nil {
			return code, err
		}
		read, rest, ok, err := g.rangeSum(mono, sc)
		if err != nil {
			return nil, err
		}
		if ok {
			mi := g.maps[read.r.Name]
			code := g.hoist.read(g, read, mono.Factors, rest, sc)
			return g.factors(sk, rest, sc, jen.Add(g.mul(coef, convert(code, mi.m.Type, sk.typ), sk.typ)))
		}
	} else if code, ok, err := g.thresholdLoopSum(sk, mono, sc, coef); ok || err != nil {
		return code, err
	}
	return g.factors(sk, mono.Factors, sc, coef)
}

func usesAny(fs []calculus.Term, vs []calculus.Var) bool {
	for _, v := range vs {
		if usesVar(fs, v.Name) {
			return true
		}
	}
	return false
}

// zeroProduct reports whether fs holds a condition of literals that is FALSE.
func zeroProduct(fs []calculus.Term) bool {
	for _, f := range fs {
		if v, ok := f.(*calculus.Val); ok {
			if c, ok := calculus.ConstBool(v.E); ok && !c {
				return true
			}
		}
	}
	return false
}

func usesVar(fs []calculus.Term, name string) bool {
	if zeroProduct(fs) {
		return false // a product with a FALSE condition emits nothing
	}
	for _, f := range fs {
		if termUses(f, name) {
			return true
		}
	}
	return false
}

// termUses reports whether the code of t reads variable name (usesVar).
func termUses(t calculus.Term, name string) bool {
	switch x := t.(type) {
	case *calculus.Prod:
		return usesVar(x.Factors, name)
	case *calculus.Sum:
		for _, u := range x.Terms {
			if termUses(u, name) {
				return true
			}
		}
		return false
	case *calculus.Neg:
		return termUses(x.T, name)
	case *calculus.Exists:
		return termUses(x.T, name)
	case *calculus.Lift:
		return x.V.Name == name || termUses(x.T, name)
	case *calculus.Extreme:
		return x.Arg.Name == name || termUses(x.T, name)
	case *calculus.AggSum:
		for _, v := range x.Group {
			if v.Name == name {
				return true
			}
		}
		for _, m := range calculus.Expand(x.T) {
			if usesVar(m.Factors, name) {
				return true
			}
		}
		return false
	}
	for _, v := range calculus.Vars(t) {
		if v.Name == name {
			return true
		}
	}
	return false
}

func (g *gen) allBound(vs []calculus.Var, sc scope) bool {
	for _, v := range vs {
		if _, ok := sc[v.Name]; !ok {
			return false
		}
	}
	return true
}

// mapReadAs reads a map; with exists set, each entry counts as 1 (Exists).
func (g *gen) mapReadAs(sk *sink, r *calculus.MapRef, rest []calculus.Term, sc scope, acc *jen.Statement, exists bool) ([]jen.Code, error) {
	mi := g.maps[r.Name]
	if exists {
		r = &calculus.MapRef{Name: r.Name, Keys: r.Keys, Type: lang.TInt}
	}
	vt := sk.typ
	val := g.fresh("val")
	next := g.fresh("acc")
	if !mi.keyed {
		body, err := g.factors(sk, rest, sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(jen.Id(val).Op(":=").Add(keylessValue(mi)), jen.Id(val).Op("!=").Lit(0)).Block(
			append([]jen.Code{jen.Id(next).Op(":=").Add(g.times(acc, convert(jen.Id(val), r.Type, vt), exists, vt))}, body...)...)}, nil
	}
	var bound []int
	for i, k := range r.Keys {
		if _, ok := sc[k.Name]; ok {
			bound = append(bound, i)
		}
	}
	n := len(r.Keys)
	if len(bound) == n {
		vals := make([]jen.Code, n)
		for i, k := range r.Keys {
			vals[i] = sc[k.Name].Clone()
		}
		body, err := g.factors(sk, rest, sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(jen.Id(val).Op(":=").Add(mi.get(g.keyValue(mi.m.Keys, vals))), jen.Id(val).Op("!=").Lit(0)).Block(
			append([]jen.Code{jen.Id(next).Op(":=").Add(g.times(acc, convert(jen.Id(val), r.Type, vt), exists, vt))}, body...)...)}, nil
	}
	// Loop: bind the unbound keys from each entry, test repeated ones.
	ent := g.fresh("ent")
	var key *jen.Statement
	var loop *jen.Statement
	var newLoop func() *jen.Statement // a whole-map loop's header, built anew for a retry
	var valExpr *jen.Statement
	// A fused map's entries include those whose own value is 0: skip them.
	var live []jen.Code
	// (jen's Clone shares the statement it clones: build each use anew.)
	stored := func(x func() *jen.Statement) *jen.Statement {
		if mi.tab == nil {
			return x().Dot("val")
		}
		if mi.m.Type == lang.TFloat {
			live = []jen.Code{jen.If(x().Dot(mi.slot).Dot("IsZero").Call()).Block(jen.Continue())}
		} else {
			live = []jen.Code{jen.If(x().Dot(mi.slot).Op("==").Lit(0)).Block(jen.Continue())}
		}
		return x().Dot(mi.slot)
	}
	if len(bound) == 0 {
		mi.usesScan = true
		if exists && mi.tab == nil {
			// Only the keys matter: every stored entry is non-zero.
			newLoop = func() *jen.Statement {
				return jen.For(jen.Id(ent).Op(":=").Range().Add(rangeIndex(mi.index(), jen.Id("e").Dot(mi.field))))
			}
			loop = newLoop()
			key = jen.Id(ent)
			valExpr = jen.Lit(1)
		} else {
			idx := g.fresh("idx")
			newLoop = func() *jen.Statement {
				return jen.For(jen.List(jen.Id(keyVar(ent, rest, r.Keys, sk)), jen.Id(idx)).Op(":=").Range().Add(rangeIndex(mi.index(), jen.Id("e").Dot(mi.field))))
			}
			loop = newLoop()
			key = jen.Id(ent)
			valExpr = valueOf(mi, stored(func() *jen.Statement { return jen.Id("e").Dot(mi.field).Dot("entries").Index(jen.Id(idx)) }))
			if exists {
				valExpr = jen.Lit(1)
			}
		}
	} else {
		ix := mi.indexFor(bound)
		vals := make([]jen.Code, len(bound))
		for j, p := range bound {
			vals[j] = sc[r.Keys[p].Name].Clone()
		}
		idx := g.fresh("idx")
		loop = jen.For(jen.List(jen.Id("_"), jen.Id(idx)).Op(":=").Range().Id("e").Dot(mi.field).Dot(fmt.Sprintf("idx%d", ix)).Index(g.keyValue(subVars(mi.m.Keys, bound), vals)))
		key = jen.Id(ent).Dot("key")
		valExpr = valueOf(mi, stored(func() *jen.Statement { return jen.Id(ent) }))
		inner := sc
		var pre []jen.Code
		pre = append(pre, jen.Id(ent).Op(":=").Op("&").Id("e").Dot(mi.field).Dot("entries").Index(jen.Id(idx)))
		pre = append(pre, live...)
		if exists && len(live) == 0 {
			pre = append(pre, jen.Id("_").Op("=").Id(ent)) // the entry's presence is all that counts
		}
		return g.loopBody(sk, r, rest, inner, acc, next, key, valExpr, loop, pre, exists)
	}
	pre := live
	if exists && len(bound) == 0 && mi.tab == nil && !usesAny(rest, r.Keys) {
		pre = append(pre, jen.Id("_").Op("=").Add(key)) // only the number of entries matters
	}
	code, err := g.loopBody(sk, r, rest, sc, acc, next, key, valExpr, loop, pre, exists)
	if err == nil && onlyOnce(code, ent) {
		// The rest reads the keys in factors that compiled to nothing
		// (sums over maps that a false condition keeps empty).
		code, err = g.loopBody(sk, r, rest, sc, acc, next, key, valExpr, newLoop(), append(pre, jen.Id("_").Op("=").Add(key)), exists)
	}
	return code, err
}

// onlyOnce reports whether identifier id occurs once in code (where a loop
// declares it: then nothing reads it).
func onlyOnce(code []jen.Code, id string) bool { return occurrences(code, id, 2) == 1 }

// occurrences counts the occurrences of identifier id in code, up to max.
func occurrences(code []jen.Code, id string, max int) int {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(id) + `\b`)
	return len(re.FindAllStringIndex(fmt.Sprintf("%#v", jen.Block(code...)), max))
}

// keyVar names the key of a loop over a whole map: ent, or _ when neither
// the rest of the product nor the sink reads a key variable.
func keyVar(ent string, rest []calculus.Term, keys []calculus.Var, sk *sink) string {
	if usesAny(rest, keys) {
		return ent
	}
	for _, k := range keys {
		if hasVarNamed(sk.uses, k.Name) {
			return ent
		}
	}
	return "_"
}

func (g *gen) loopBody(sk *sink, r *calculus.MapRef, rest []calculus.Term, sc scope, acc *jen.Statement, next string, key, valExpr, loop *jen.Statement, pre []jen.Code, exists bool) ([]jen.Code, error) {
	n := len(r.Keys)
	var conds []jen.Code
	inner := sc
	for i, k := range r.Keys {
		field := keyField(key, n, i)
		if c, ok := inner[k.Name]; ok {
			if _, outer := sc[k.Name]; !outer {
				conds = append(conds, c.Clone().Op("==").Add(field))
			}
			continue
		}
		inner = inner.with(k.Name, field)
	}
	body, err := g.factors(sk, rest, inner, jen.Id(next))
	if err != nil {
		return nil, err
	}
	body = append([]jen.Code{jen.Id(next).Op(":=").Add(g.times(acc, convert(valExpr, r.Type, sk.typ), exists, sk.typ))}, body...)
	if len(conds) > 0 {
		var c *jen.Statement
		for _, x := range conds {
			if c == nil {
				c = jen.Add(x)
			} else {
				c = c.Op("&&").Add(x)
			}
		}
		body = []jen.Code{jen.If(c).Block(body...)}
	}
	return []jen.Code{loop.Block(append(pre, body...)...)}, nil
}

// convert converts a numeric Go expression between lang types.
func convert(e jen.Code, from, to lang.Type) jen.Code {
	if from == to || !(to == lang.TInt || to == lang.TFloat) {
		return e
	}
	if to == lang.TFloat && from == lang.TInt {
		return jen.Float64().Call(e)
	}
	if to == lang.TInt && from == lang.TFloat {
		return jen.Int64().Call(e)
	}
	return e
}
