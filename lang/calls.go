package lang

import (
	"regexp"
	"strings"

	rt "github.com/toastgen/toastgen/runtime"
)

// Function calls and aggregates: their names, arities and types.

var aggFns = map[string]bool{"SUM": true, "COUNT": true, "AVG": true, "MIN": true, "MAX": true,
	"STDDEV": true, "STDDEV_SAMP": true, "STDDEV_POP": true, "VARIANCE": true, "VAR_SAMP": true, "VAR_POP": true}

// StatAggs are the statistical aggregates: FLOAT, NULL over fewer than
// two values (one, for the _POP forms).
var StatAggs = map[string]bool{"STDDEV": true, "STDDEV_SAMP": true, "STDDEV_POP": true, "VARIANCE": true, "VAR_SAMP": true, "VAR_POP": true}

func (r *resolver) call(g *gCall, c ctx) Expr {
	p := pos(g.Pos)
	name := g.Name
	if aggFns[name] {
		return r.agg(g, c)
	}
	if g.Star || g.Distinct || g.All {
		r.fail(p, "%s is not an aggregate", name)
	}
	if name == "EXTRACT" {
		unit, ok := "", false
		if len(g.Args) == 1 && g.From != nil {
			unit, ok = g.Args[0].bareIdent()
		}
		if !ok {
			r.fail(p, "EXTRACT needs the form EXTRACT(YEAR|MONTH|DAY FROM date)")
		}
		d := r.expr(g.From, c)
		return r.datePart(p, &Lit{P: pos(g.Args[0].Pos), T: TString, Str: unit}, d)
	}
	if g.From != nil {
		r.fail(pos(g.From.Pos), "FROM is only allowed in EXTRACT")
	}
	if name == "CAST" {
		if len(g.Args) != 1 || g.As == nil {
			r.fail(p, "CAST needs the form CAST(x AS type)")
		}
		return r.castAs(p, r.expr(g.Args[0], c), g.As)
	}
	if g.As != nil {
		r.fail(pos(g.As.Pos), "AS is only allowed in CAST")
	}
	var args []Expr
	for _, a := range g.Args {
		e := r.expr(a, c)
		e = r.value(e)
		args = append(args, e)
	}
	nargs := func(n int) {
		if len(args) != n {
			noun := "arguments"
			if n == 1 {
				noun = "argument"
			}
			r.fail(p, "%s takes %d %s, got %d", name, n, noun, len(args))
		}
	}
	if e := r.plainCall(p, name, args); e != nil {
		return e
	}
	switch name {
	case "DATE":
		nargs(1)
		if l, ok := args[0].(*Lit); ok && l.T == TString {
			return r.dateLit(p, l.Str)
		}
		return r.cast(p, "CAST_DATE", args[0])
	case "DATE_PART":
		nargs(2)
		return r.datePart(p, args[0], args[1])
	case "CAST_INT", "CAST_FLOAT", "CAST_STRING", "CAST_DATE":
		nargs(1)
		return r.cast(p, name, args[0])
	case "LISTMIN", "LISTMAX":
		if len(args) == 0 {
			r.fail(p, "%s needs at least one argument", name)
		}
		t := settledType(r.unify(p, name, args))
		settle(t, args...)
		return &Call{P: p, Name: name, Args: args, T: t}
	case "COALESCE", "IFNULL", "NULLIF":
		return r.nullCall(p, name, args)
	case "REGEXP_MATCH":
		nargs(2)
		re, ok := args[0].(*Lit)
		if !ok || re.T != TString {
			r.fail(args[0].Pos(), "REGEXP_MATCH needs a string literal pattern")
		}
		if _, err := regexp.Compile(re.Str); err != nil {
			r.fail(re.P, "invalid regular expression: %v", err)
		}
		if args[1].Type() != TString {
			r.fail(args[1].Pos(), "REGEXP_MATCH needs a STRING subject, got %s", args[1].Type())
		}
		return &Call{P: p, Name: name, Args: args, T: TInt}
	case "HASH":
		nargs(1)
		return &Call{P: p, Name: name, Args: args, T: TInt}
	}
	if m, ok := rt.MathFuncs[name]; ok {
		nargs(m.Arity)
		for i, a := range args {
			if !a.Type().Numeric() {
				r.fail(a.Pos(), "%s argument %d must be INT or FLOAT, got %s", name, i+1, a.Type())
			}
		}
		return &Call{P: p, Name: name, Args: args, T: TFloat}
	}
	r.fail(p, "unknown function %s", name)
	return nil
}

func (r *resolver) datePart(p Pos, unit, d Expr) Expr {
	u, ok := unit.(*Lit)
	if !ok || u.T != TString {
		r.fail(unit.Pos(), "the date part must be a string literal ('year', 'month' or 'day')")
	}
	s := strings.ToUpper(u.Str)
	if s != "YEAR" && s != "MONTH" && s != "DAY" {
		r.fail(u.P, "unknown date part %s (want YEAR, MONTH or DAY)", u.Str)
	}
	if d.Type() != TDate {
		r.fail(d.Pos(), "a date part needs a DATE, got %s", d.Type())
	}
	return &Call{P: p, Name: "DATE_PART", Args: []Expr{&Lit{P: u.P, T: TString, Str: s}, d}, T: TInt}
}

func (r *resolver) cast(p Pos, fn string, x Expr) Expr {
	x = r.value(x)
	t := map[string]Type{"CAST_INT": TInt, "CAST_FLOAT": TFloat, "CAST_STRING": TString, "CAST_DATE": TDate}[fn]
	if t == TDate && x.Type() != TString && x.Type() != TDate {
		r.fail(p, "CAST_DATE needs a STRING or DATE, got %s", x.Type())
	}
	return &Call{P: p, Name: fn, Args: []Expr{x}, T: t}
}

func (r *resolver) agg(g *gCall, c ctx) Expr {
	p := pos(g.Pos)
	if !c.aggOK {
		r.fail(p, "aggregate %s is not allowed in %s", g.Name, c.clause)
	}
	if c.inAgg {
		r.fail(p, "aggregate %s cannot be nested in another aggregate", g.Name)
	}
	if g.From != nil || g.As != nil {
		r.fail(p, "invalid %s call", g.Name)
	}
	c.sc.hasAgg = true
	// MIN(DISTINCT x) is MIN(x); SUM and AVG of DISTINCT keep the flag.
	a := &Agg{P: p, Fn: g.Name, Distinct: g.Distinct && g.Name != "MIN" && g.Name != "MAX"}
	if g.Star {
		if g.Name != "COUNT" {
			r.fail(p, "%s(*) is not allowed; only COUNT(*)", g.Name)
		}
		a.T = TInt
		return a
	}
	if len(g.Args) != 1 {
		r.fail(p, "%s takes one argument, got %d", g.Name, len(g.Args))
	}
	c.inAgg = true
	a.Arg = r.expr(g.Args[0], c)
	a.Arg = r.value(a.Arg)
	at := a.Arg.Type()
	switch g.Name {
	case "STDDEV", "STDDEV_SAMP", "STDDEV_POP", "VARIANCE", "VAR_SAMP", "VAR_POP":
		if !at.Numeric() {
			r.fail(a.Arg.Pos(), "%s needs a numeric argument, got %s", g.Name, at)
		}
		if a.Distinct {
			r.fail(p, "%s(DISTINCT …) is not supported yet", g.Name)
		}
		a.T = TFloat
	case "SUM", "AVG":
		if !at.Numeric() {
			r.fail(a.Arg.Pos(), "%s needs a numeric argument, got %s", g.Name, at)
		}
		a.T = at
		if g.Name == "AVG" {
			a.T = TFloat
		}
	case "COUNT":
		a.T = TInt
	default:
		a.T = at
	}
	return a
}

// hasAgg reports whether e contains an aggregate of its own query (not one
// inside a subquery).
func hasAgg(e Expr) bool {
	found := false
	walkExpr(e, 0, func(e Expr, depth int) bool {
		if _, ok := e.(*Agg); ok && depth == 0 {
			found = true
		}
		return !found && depth == 0
	})
	return found
}
