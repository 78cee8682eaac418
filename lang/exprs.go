package lang

import (
	"strconv"
	"strings"

	rt "github.com/toastgen/toastgen/runtime"
)

// Expressions: resolving the parse tree of an expression into the typed
// AST, with the type rules of its operators (calls and aggregates are in
// calls.go).

// value returns e as a value: a condition is rejected in dialect dbtoaster
// and is 1 or 0 (NULL when UNKNOWN) in dialect sql (see boolValue).
func (r *resolver) value(e Expr) Expr {
	if e.Type() == TBool {
		if r.sql {
			return boolValue(e)
		}
		r.fail(e.Pos(), "a condition cannot be used as a value")
	}
	return e
}

// cond requires a condition.
func (r *resolver) cond(e Expr, what string) {
	if e.Type() == TNull {
		settle(TBool, e) // NULL as a condition is UNKNOWN
		return
	}
	if e.Type() != TBool {
		r.fail(e.Pos(), "%s needs a condition, got a %s value", what, e.Type())
	}
}

func (r *resolver) expr(g *gExpr, c ctx) Expr {
	e := r.and(g.Left, c)
	for _, arm := range g.Right {
		e = r.logic(pos(arm.Pos), "OR", e, r.and(arm.X, c))
	}
	return e
}

func (r *resolver) and(g *gAnd, c ctx) Expr {
	e := r.not(g.Left, c)
	for _, arm := range g.Right {
		e = r.logic(pos(arm.Pos), "AND", e, r.not(arm.X, c))
	}
	return e
}

func (r *resolver) logic(p Pos, op string, l, rr Expr) Expr {
	r.cond(l, op)
	r.cond(rr, op)
	return &Binary{P: p, Op: op, L: l, R: rr, T: TBool}
}

func (r *resolver) not(g *gNot, c ctx) Expr {
	if g.Not == nil {
		return r.pred(g.Pred, c)
	}
	x := r.not(g.Not, c)
	if r.sql {
		r.cond(x, "NOT")
		return negate(pos(g.Pos), x)
	}
	if ex, ok := x.(*Exists); ok {
		ex.Not = !ex.Not
		ex.P = pos(g.Pos)
		return ex
	}
	r.cond(x, "NOT")
	return &Unary{P: pos(g.Pos), Op: "NOT", X: x, T: TBool}
}

func (r *resolver) pred(g *gPred, c ctx) Expr {
	x := r.add(g.Left, c)
	switch {
	case g.Cmp != nil:
		op := g.Cmp.Op
		if op == "<>" {
			op = "!="
		}
		p := pos(g.Cmp.Pos)
		if g.Cmp.Sub != nil {
			x = r.value(x)
			q := r.subquery(g.Cmp.Sub, c)
			r.oneColumn(q, p)
			r.comparable(p, op, x.Type(), q.Items[0].Expr.Type())
			return &Quantified{P: p, Op: op, X: x, All: g.Cmp.Quant == "ALL", Q: q}
		}
		return r.binary(p, op, x, r.add(g.Cmp.Right, c))
	case g.Between != nil:
		b := g.Between
		p := pos(b.Pos)
		lo, hi := r.add(b.Lo, c), r.add(b.Hi, c)
		var e Expr = &Binary{P: p, Op: "AND", L: r.binary(p, ">=", x, lo), R: r.binary(p, "<=", x, hi), T: TBool}
		if b.Not && r.sql {
			return negate(p, e)
		}
		if b.Not {
			e = &Unary{P: p, Op: "NOT", X: e, T: TBool}
		}
		return e
	case g.In != nil:
		p := pos(g.In.Pos)
		x = r.value(x)
		if g.In.Sub != nil {
			q := r.subquery(g.In.Sub, c)
			r.oneColumn(q, p)
			r.comparable(p, "IN", x.Type(), q.Items[0].Expr.Type())
			return &InQuery{P: p, X: x, Q: q, Not: g.In.Not}
		}
		in := &InList{P: p, X: x, Not: g.In.Not}
		for _, ge := range g.In.List {
			e := r.expr(ge, c)
			e = r.value(e)
			r.comparable(e.Pos(), "IN", x.Type(), e.Type())
			if x.Type() != TNull {
				settle(x.Type(), e)
			}
			in.List = append(in.List, e)
		}
		if x.Type() == TNull {
			// NULL IN (…): the list's type, its NULLs too.
			t := r.unify(p, "IN", in.List)
			settle(t, x)
			settle(t, in.List...)
		}
		return in
	case g.IsNull != nil:
		return r.isNullPred(x, g.IsNull, c)
	case g.Like != nil:
		p := pos(g.Like.Pos)
		settle(TString, x)
		nullAs(TString, x)
		if x.Type() != TString {
			r.fail(x.Pos(), "LIKE needs a STRING operand, got %s", x.Type())
		}
		pat, ok := r.add(g.Like.Pat, c).(*Lit)
		if !ok || pat.T != TString {
			r.fail(pos(g.Like.Pat.Pos), "the LIKE pattern must be a string literal")
		}
		return &Like{P: p, X: x, Pattern: pat.Str, Not: g.Like.Not}
	}
	return x
}

func (r *resolver) comparable(p Pos, op string, a, b Type) {
	if a == TBool || b == TBool {
		r.fail(p, "a condition cannot be used as a value")
	}
	if a == TNull || b == TNull {
		return // the NULL literal compares with anything (to UNKNOWN)
	}
	if !(a.Numeric() && b.Numeric()) && a != b {
		r.fail(p, "mismatched types %s and %s in %s", a, b, op)
	}
}

// binary builds a typed arithmetic or comparison node.
func (r *resolver) binary(p Pos, op string, l, rr Expr) Expr {
	l, rr = r.operand(l), r.operand(rr)
	lt, rt := l.Type(), rr.Type()
	// A NULL literal takes the other operand's type (INT if both are NULL).
	settle(rt, l)
	settle(lt, rr)
	lt, rt = l.Type(), rr.Type()
	switch op {
	case "=", "!=", "<", "<=", ">", ">=":
		r.comparable(p, op, lt, rt)
		return &Binary{P: p, Op: op, L: l, R: rr, T: TBool}
	}
	if lt == TBool || rt == TBool {
		r.fail(p, "a condition cannot be used as a value")
	}
	if !lt.Numeric() || !rt.Numeric() {
		r.fail(p, "operator %s needs numeric operands, got %s and %s", op, lt, rt)
	}
	if op == "%" && !r.sql {
		r.fail(p, "operator %% is not supported in the dbtoaster dialect (use -dialect sql)")
	}
	t := TFloat
	if (op != "/" || r.sql) && lt == TInt && rt == TInt {
		t = TInt // dialect sql: INT / INT truncates, as SQLite and PostgreSQL do
	}
	return &Binary{P: p, Op: op, L: l, R: rr, T: t}
}

func (r *resolver) add(g *gAdd, c ctx) Expr {
	e := r.mul(g.Left, c)
	for _, arm := range g.Right {
		p := pos(arm.Pos)
		if u := arm.X.unary(); u != nil && u.Prim != nil && u.Prim.Interval != nil {
			e = r.dateAdd(p, arm.Op, e, u.Prim.Interval)
			continue
		}
		e = r.binary(p, arm.Op, e, r.mul(arm.X, c))
	}
	return e
}

// dateAdd normalizes d ± INTERVAL 'n' unit to DATE_ADD(d, ±n, unit), folded
// to a literal when d is one.
func (r *resolver) dateAdd(p Pos, op string, d Expr, iv *gInterval) Expr {
	if d.Type() != TDate {
		r.fail(p, "INTERVAL needs a DATE left operand, got %s", d.Type())
	}
	n, err := strconv.ParseInt(strings.TrimSpace(unquote(iv.N)), 10, 32)
	if err != nil {
		r.fail(pos(iv.Pos), "INTERVAL needs an integer count, got %s", iv.N)
	}
	unit := strings.TrimSuffix(iv.Unit, "S")
	if unit != "DAY" && unit != "MONTH" && unit != "YEAR" {
		r.fail(pos(iv.Pos), "unknown INTERVAL unit %s (want DAY, MONTH or YEAR)", iv.Unit)
	}
	if op == "-" {
		n = -n
	}
	if l, ok := d.(*Lit); ok {
		return &Lit{P: l.P, T: TDate, Date: addDate(l.Date, n, unit)}
	}
	return &Call{P: p, Name: "DATE_ADD", T: TDate, Args: []Expr{d,
		&Lit{P: pos(iv.Pos), T: TInt, Int: n},
		&Lit{P: pos(iv.Pos), T: TString, Str: unit}}}
}

func addDate(d rt.Date, n int64, unit string) rt.Date {
	switch unit {
	case "DAY":
		return d.AddDays(n)
	case "MONTH":
		return d.AddMonths(n)
	}
	return d.AddYears(n)
}

func (r *resolver) mul(g *gMul, c ctx) Expr {
	e := r.concat(g.Left, c)
	for _, arm := range g.Right {
		e = r.binary(pos(arm.Pos), arm.Op, e, r.concat(arm.X, c))
	}
	return e
}

func (r *resolver) unary(g *gUnary, c ctx) Expr {
	if g.Plus != nil {
		x := r.operand(r.unary(g.Plus, c))
		settle(TInt, x)
		if !x.Type().Numeric() {
			r.fail(pos(g.Pos), "unary + needs a numeric operand, got %s", x.Type())
		}
		return x
	}
	if g.Neg == nil {
		return r.prim(g.Prim, c)
	}
	p := pos(g.Pos)
	x := r.operand(r.unary(g.Neg, c))
	settle(TInt, x)
	if l, ok := x.(*Lit); ok && l.Null {
		return l // -NULL is NULL
	}
	if !x.Type().Numeric() {
		r.fail(p, "unary - needs a numeric operand, got %s", x.Type())
	}
	// Fold negative literals so that -1 is a literal, as users read it.
	if l, ok := x.(*Lit); ok {
		if l.T == TInt {
			return &Lit{P: p, T: TInt, Int: -l.Int}
		}
		return &Lit{P: p, T: TFloat, Float: -l.Float}
	}
	return &Unary{P: p, Op: "-", X: x, T: x.Type()}
}

func (r *resolver) prim(g *gPrim, c ctx) Expr {
	p := pos(g.Pos)
	switch {
	case g.Float != nil:
		f, err := strconv.ParseFloat(*g.Float, 64)
		if err != nil {
			r.fail(p, "invalid number %s", *g.Float)
		}
		return &Lit{P: p, T: TFloat, Float: f}
	case g.Int != nil:
		n, err := strconv.ParseInt(*g.Int, 10, 64)
		if err != nil {
			r.fail(p, "integer %s out of range", *g.Int)
		}
		return &Lit{P: p, T: TInt, Int: n}
	case g.Str != nil:
		return &Lit{P: p, T: TString, Str: unquote(*g.Str)}
	case g.Null:
		r.noNulls(p, "NULL")
		return nullLit(p)
	case g.DateLit != nil:
		return r.dateLit(p, unquote(*g.DateLit))
	case g.Interval != nil:
		r.fail(p, "INTERVAL is only allowed as the right operand of + or - with a DATE left operand")
	case g.Case != nil:
		return r.caseExpr(g.Case, c)
	case g.Exists != nil:
		return &Exists{P: p, Q: r.subquery(g.Exists, c)}
	case g.Sub != nil:
		q := r.subquery(g.Sub, c)
		r.oneColumn(q, p)
		t := q.Items[0].Expr.Type()
		return &Subquery{P: p, Q: q, T: t, Null: r.sql && scalarNull(q)}
	case g.Paren != nil:
		return r.expr(g.Paren, c)
	case g.Call != nil:
		return r.call(g.Call, c)
	case g.Col != nil:
		qual, name := "", g.Col.First
		if g.Col.Second != "" {
			qual, name = g.Col.First, g.Col.Second
		}
		ref, err := r.lookup(c.sc, p, qual, name)
		if err != nil && qual == "" && c.clause == "QUALIFY" {
			// QUALIFY may name a SELECT item, as its windows are.
			for _, it := range c.sc.q.Items {
				if it.Name == name {
					return it.Expr
				}
			}
		}
		if err != nil {
			panic(bailout{err})
		}
		return ref
	}
	r.fail(p, "unsupported expression")
	return nil
}

func (r *resolver) dateLit(p Pos, s string) *Lit {
	// The runtime's check, so that literals and data accept the same dates.
	d, err := rt.ParseDate([]byte(s))
	switch err {
	case nil:
	case rt.ErrDateInvalid:
		r.fail(p, "invalid date %q (no such day: dates run from 0001-01-01 to 9999-12-31)", s)
	default:
		r.fail(p, "invalid date %q (want yyyy-mm-dd)", s)
	}
	return &Lit{P: p, T: TDate, Date: d}
}

func (r *resolver) subquery(g *gUnion, c ctx) *Query {
	// In an expression a subquery's rows are only tested for presence (IN,
	// EXISTS, SOME/ALL) or it has one row (a scalar subquery): DISTINCT
	// changes nothing, and needs no rewriting. It is nested as a derived
	// table is: a LIMIT or a window function in it is rejected (order.go,
	// window.go), not dropped.
	r.unionDepth++
	defer func() { r.unionDepth-- }()
	return r.unionOf(g, c.sc, "", func(q *Query) *Query { return q })
}

func (r *resolver) oneColumn(q *Query, p Pos) {
	if len(q.Items) != 1 {
		r.fail(p, "subquery must return exactly one column, not %d", len(q.Items))
	}
}

func (r *resolver) caseExpr(g *gCase, c ctx) Expr {
	ce := &Case{P: pos(g.Pos)}
	var subj Expr
	if g.Subject != nil {
		subj = r.expr(g.Subject, c)
		subj = r.value(subj)
	}
	var results []Expr
	for _, w := range g.Whens {
		cond := r.expr(w.Cond, c)
		if subj != nil {
			cond = r.binary(pos(w.Pos), "=", subj, cond)
		} else {
			r.cond(cond, "WHEN")
		}
		th := r.expr(w.Then, c)
		th = r.value(th)
		results = append(results, th)
		ce.Whens = append(ce.Whens, &When{Cond: cond, Then: th})
	}
	switch {
	case g.Else != nil:
		ce.Else = r.expr(g.Else, c)
		ce.Else = r.value(ce.Else)
		results = append(results, ce.Else)
	case r.sql:
		ce.Else = nullLit(ce.P) // CASE without ELSE is NULL when no arm holds
		results = append(results, ce.Else)
	}
	ce.T = settledType(r.unify(ce.P, "CASE", results))
	settle(ce.T, results...)
	return ce
}

// unify gives the common type of CASE results or LISTMIN/LISTMAX arguments:
// INT and FLOAT mix to FLOAT; otherwise all must be the same type.
func (r *resolver) unify(p Pos, what string, es []Expr) Type {
	t := es[0].Type()
	for _, e := range es[1:] {
		u := e.Type()
		switch {
		case t == u, u == TNull:
		case t == TNull:
			t = u
		case t.Numeric() && u.Numeric():
			t = TFloat
		default:
			r.fail(e.Pos(), "%s mixes %s and %s", what, t, u)
		}
	}
	return t
}
