package codegen

import (
	"fmt"
	"strings"

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

// triggers emits InsertR and DeleteR for relation r.
func (g *gen) triggers(r *lang.Relation) error {
	for _, ins := range []bool{true, false} {
		var t *viewlet.Trigger
		for _, tt := range g.p.Triggers {
			if tt.Event.Rel == r.Name && tt.Event.Insert == ins {
				t = tt
			}
		}
		name := "Delete" + exportedName(r.Name)
		verb := "deletes"
		if ins {
			name, verb = "Insert"+exportedName(r.Name), "inserts"
		}
		var params []jen.Code
		sc := scope{}
		args := make([]calculus.Var, len(r.Columns))
		for i, c := range r.Columns {
			args[i] = calculus.Var{Name: strings.ToLower(c.Name), Type: c.Type}
			if t != nil {
				args[i] = t.Event.Args[i]
			}
			n := varName(args[i].Name)
			params = append(params, jen.Id(n).Add(goType(c.Type)))
			sc[args[i].Name] = jen.Id(n)
		}
		var body []jen.Code
		if t != nil {
			// Buffered statements read the state before the event and apply last.
			for _, s := range t.Stmts {
				if s.Buffered {
					mi := g.maps[s.Map.Name]
					body = append(body, jen.Id("e").Dot(bufName(mi, bufIndex(mi, s))).Op("=").Id("e").Dot(bufName(mi, bufIndex(mi, s))).Index(jen.Empty(), jen.Lit(0)))
				}
			}
			for _, s := range t.Stmts {
				if s.Buffered {
					code, err := g.stmt(s, sc)
					if err != nil {
						return err
					}
					body = append(body, code...)
				}
			}
			for _, s := range t.Stmts {
				if !s.Buffered {
					code, err := g.stmt(s, sc)
					if err != nil {
						return err
					}
					body = append(body, code...)
				}
			}
			for _, s := range t.Stmts {
				if s.Buffered {
					mi := g.maps[s.Map.Name]
					u := jen.Id("u")
					var apply jen.Code
					if mi.keyed {
						apply = jen.Id("e").Dot(mi.field).Dot("add").Call(u.Clone().Dot("k"), u.Clone().Dot("v"))
					} else {
						apply = jen.Id("e").Dot(mi.field).Op("+=").Add(u.Clone().Dot("v"))
					}
					body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("u")).Op(":=").Range().Id("e").Dot(bufName(mi, bufIndex(mi, s)))).Block(apply))
				}
			}
		}
		g.f.Commentf("%s %s one tuple into relation %s (a Z-set: deleting an absent tuple makes its multiplicity negative).", name, verb, r.Name)
		if t != nil && len(t.Stmts) > 0 {
			g.f.Comment("")
			for _, s := range t.Stmts {
				g.f.Comment("\t" + s.String())
			}
		}
		g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(name).Params(params...).Block(body...)
	}
	return nil
}

func bufIndex(mi *mapInfo, s *viewlet.Stmt) int {
	for i, b := range mi.buffers {
		if b == s {
			return i
		}
	}
	panic("codegen: statement not buffered")
}

// stmt emits one statement: nested lookups, loops and conditions per
// monomial, ending in an update of the target (or its buffer).
func (g *gen) stmt(s *viewlet.Stmt, sc scope) ([]jen.Code, error) {
	mi := g.maps[s.Map.Name]
	var out []jen.Code
	if s.Replace {
		for _, k := range s.Keys {
			if _, bound := sc[k.Name]; bound {
				return nil, fmt.Errorf("codegen: replacement of a slice of map %s is not supported", s.Map.Name)
			}
		}
		if mi.keyed {
			out = append(out, jen.Id("e").Dot(mi.field).Op("=").Id("new"+exportedName(mi.typ)).Call())
		} else {
			out = append(out, jen.Id("e").Dot(mi.field).Op("=").Lit(0))
		}
	}
	for _, mono := range s.RHS {
		var coef *jen.Statement
		switch {
		case mono.Coef == 1:
			// nil: the product starts at 1
		case s.Map.Type == lang.TInt:
			coef = jen.Lit(int64(mono.Coef))
		default:
			coef = jen.Lit(mono.Coef)
		}
		code, err := g.factors(s, mono.Factors, sc, coef)
		if err != nil {
			return nil, err
		}
		out = append(out, jen.Block(code...))
	}
	return out, nil
}

// mul multiplies the running product acc (nil: 1) by x.
func mul(acc *jen.Statement, x jen.Code) jen.Code {
	if acc == nil {
		return x
	}
	return acc.Clone().Op("*").Parens(x)
}

// factors emits the code of the remaining factors of a monomial; acc holds
// the product so far (nil for 1).
func (g *gen) factors(s *viewlet.Stmt, fs []calculus.Term, sc scope, acc *jen.Statement) ([]jen.Code, error) {
	vt := s.Map.Type
	if len(fs) == 0 {
		if acc == nil {
			if vt == lang.TInt {
				acc = jen.Lit(int64(1))
			} else {
				acc = jen.Lit(1.0)
			}
		}
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
		if !mi.keyed {
			return []jen.Code{jen.Id("e").Dot(mi.field).Op("+=").Add(acc)}, nil
		}
		return []jen.Code{jen.Id("e").Dot(mi.field).Dot("add").Call(key, acc)}, nil
	}
	switch x := fs[0].(type) {
	case *calculus.Val:
		e, err := g.expr(x.E, sc)
		if err != nil {
			return nil, err
		}
		if x.E.Type() == lang.TBool {
			rest, err := g.factors(s, fs[1:], sc, acc)
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.If(e).Block(rest...)}, nil
		}
		next := g.fresh("acc")
		rest, err := g.factors(s, fs[1:], sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return append([]jen.Code{jen.Id(next).Op(":=").Add(mul(acc, convert(e, x.E.Type(), vt)))}, rest...), nil
	case *calculus.Lift:
		val, ok := x.T.(*calculus.Val)
		if !ok {
			return nil, fmt.Errorf("codegen: nested aggregates are not supported yet: %s", calculus.String(x))
		}
		e, err := g.expr(val.E, sc)
		if err != nil {
			return nil, err
		}
		if old, bound := sc[x.V.Name]; bound {
			rest, err := g.factors(s, fs[1:], sc, acc)
			if err != nil {
				return nil, err
			}
			return []jen.Code{jen.If(old.Clone().Op("==").Add(convert(e, val.E.Type(), x.V.Type))).Block(rest...)}, nil
		}
		n := varName(x.V.Name) + fmt.Sprint(g.tmp)
		g.tmp++
		rest, err := g.factors(s, fs[1:], sc.with(x.V.Name, jen.Id(n)), acc)
		if err != nil {
			return nil, err
		}
		return append([]jen.Code{jen.Id(n).Op(":=").Add(convert(e, val.E.Type(), x.V.Type))}, rest...), nil
	case *calculus.MapRef:
		return g.mapRead(s, x, fs[1:], sc, acc)
	}
	return nil, fmt.Errorf("codegen: unsupported factor %s", calculus.String(fs[0]))
}

// mapRead emits a point lookup when every key is bound, else a loop over a
// secondary index (or the whole map) binding the other keys.
func (g *gen) mapRead(s *viewlet.Stmt, r *calculus.MapRef, rest []calculus.Term, sc scope, acc *jen.Statement) ([]jen.Code, error) {
	mi := g.maps[r.Name]
	vt := s.Map.Type
	val := g.fresh("val")
	next := g.fresh("acc")
	if !mi.keyed {
		body, err := g.factors(s, rest, sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(jen.Id(val).Op(":=").Id("e").Dot(mi.field), jen.Id(val).Op("!=").Lit(0)).Block(
			append([]jen.Code{jen.Id(next).Op(":=").Add(mul(acc, convert(jen.Id(val), r.Type, vt)))}, body...)...)}, nil
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
		body, err := g.factors(s, rest, sc, jen.Id(next))
		if err != nil {
			return nil, err
		}
		return []jen.Code{jen.If(jen.Id(val).Op(":=").Id("e").Dot(mi.field).Dot("get").Call(g.keyValue(mi.m.Keys, vals)), jen.Id(val).Op("!=").Lit(0)).Block(
			append([]jen.Code{jen.Id(next).Op(":=").Add(mul(acc, convert(jen.Id(val), r.Type, vt)))}, body...)...)}, nil
	}
	// Loop: bind the unbound keys from each entry, test repeated ones.
	ent := g.fresh("ent")
	var key *jen.Statement
	var loop *jen.Statement
	var valExpr *jen.Statement
	if len(bound) == 0 {
		if mi.arena() {
			idx := g.fresh("idx")
			loop = jen.For(jen.List(jen.Id(ent), jen.Id(idx)).Op(":=").Range().Id("e").Dot(mi.field).Dot("index"))
			key = jen.Id(ent)
			valExpr = jen.Id("e").Dot(mi.field).Dot("entries").Index(jen.Id(idx)).Dot("val")
		} else {
			v := g.fresh("val")
			loop = jen.For(jen.List(jen.Id(ent), jen.Id(v)).Op(":=").Range().Id("e").Dot(mi.field).Dot("index"))
			key = jen.Id(ent)
			valExpr = jen.Id(v)
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
		valExpr = jen.Id(ent).Dot("val")
		defer func() {}()
		inner := sc
		var pre []jen.Code
		pre = append(pre, jen.Id(ent).Op(":=").Op("&").Id("e").Dot(mi.field).Dot("entries").Index(jen.Id(idx)))
		return g.loopBody(s, r, rest, inner, acc, next, key, valExpr, loop, pre)
	}
	return g.loopBody(s, r, rest, sc, acc, next, key, valExpr, loop, nil)
}

func (g *gen) loopBody(s *viewlet.Stmt, r *calculus.MapRef, rest []calculus.Term, sc scope, acc *jen.Statement, next string, key, valExpr, loop *jen.Statement, pre []jen.Code) ([]jen.Code, error) {
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
	body, err := g.factors(s, rest, inner, jen.Id(next))
	if err != nil {
		return nil, err
	}
	body = append([]jen.Code{jen.Id(next).Op(":=").Add(mul(acc, convert(valExpr, r.Type, s.Map.Type)))}, body...)
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
