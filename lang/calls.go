package lang

import (
	"regexp"
	"strings"

	rt "github.com/toastgen/toastgen/runtime"
)

// Function calls and aggregates: their names, arities and types.

var aggFns = map[string]bool{"SUM": true, "COUNT": true, "AVG": true, "MIN": true, "MAX": true,
	"STDDEV": true, "STDDEV_SAMP": true, "STDDEV_POP": true, "VARIANCE": true, "VAR_SAMP": true, "VAR_POP": true,
	"MEDIAN": true, "PERCENTILE_CONT": true, "PERCENTILE_DISC": true, "MODE": true}

// HolisticAggs are the ordered-set aggregates, which read the multiset of
// a group's values (the resolver makes MEDIAN a PERCENTILE_CONT).
var HolisticAggs = map[string]bool{"PERCENTILE_CONT": true, "PERCENTILE_DISC": true, "MODE": true}

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
	if g.Within != nil {
		r.fail(pos(g.Within.Pos), "WITHIN GROUP is only allowed with PERCENTILE_CONT, PERCENTILE_DISC and MODE")
	}
	if g.Over != nil && (name == "RANK" || name == "DENSE_RANK" || name == "ROW_NUMBER") {
		return r.window(g, c)
	}
	if g.Over != nil {
		if rankingFns[name] {
			r.fail(p, "%s is not supported yet (window functions: SUM, COUNT, AVG, MIN, MAX OVER ([PARTITION BY …]), and SUM, COUNT, AVG, RANK, DENSE_RANK, ROW_NUMBER OVER ([PARTITION BY …] ORDER BY x))", name)
		}
		r.fail(pos(g.Over.Pos), "%s is not a window function", name)
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
	if g.Over != nil && !c.inAgg {
		return r.window(g, c)
	}
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
	switch g.Name {
	case "MEDIAN", "PERCENTILE_CONT", "PERCENTILE_DISC", "MODE":
		return r.holistic(g, c)
	}
	if g.Within != nil {
		r.fail(pos(g.Within.Pos), "WITHIN GROUP is only allowed with PERCENTILE_CONT, PERCENTILE_DISC and MODE")
	}
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
	c.inAgg = !c.windowArg
	c.windowArg = false
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

// holistic resolves an ordered-set aggregate: MEDIAN(x),
// PERCENTILE_CONT(p) and PERCENTILE_DISC(p) WITHIN GROUP (ORDER BY x),
// MODE() WITHIN GROUP (ORDER BY x) or MODE(x). The fraction p must be a
// constant in [0, 1]; PERCENTILE_CONT and MEDIAN interpolate, so x must be
// numeric, and are FLOAT; PERCENTILE_DISC and MODE have x's type.
func (r *resolver) holistic(g *gCall, c ctx) Expr {
	p := pos(g.Pos)
	if g.Star || g.Distinct || g.All {
		r.fail(p, "%s does not take * or DISTINCT", g.Name)
	}
	a := &Agg{P: p, Fn: g.Name}
	var arg *gExpr
	switch g.Name {
	case "MEDIAN":
		if g.Within != nil {
			r.fail(pos(g.Within.Pos), "MEDIAN takes its argument in parentheses, not WITHIN GROUP; write PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x)")
		}
		if len(g.Args) != 1 {
			r.fail(p, "MEDIAN takes one argument, got %d", len(g.Args))
		}
		a.Fn, a.Frac, arg = "PERCENTILE_CONT", 0.5, g.Args[0]
	case "MODE":
		switch {
		case g.Within != nil && len(g.Args) == 0:
			arg, a.Desc = g.Within.Order.Expr, g.Within.Order.Dir == "DESC"
		case g.Within == nil && len(g.Args) == 1:
			arg = g.Args[0]
		default:
			r.fail(p, "MODE needs the form MODE() WITHIN GROUP (ORDER BY x) or MODE(x)")
		}
	default: // PERCENTILE_CONT, PERCENTILE_DISC
		if len(g.Args) != 1 || g.Within == nil {
			r.fail(p, "%s needs the form %s(fraction) WITHIN GROUP (ORDER BY x)", g.Name, g.Name)
		}
		f, ok := constFraction(r.expr(g.Args[0], c))
		if !ok || f < 0 || f > 1 {
			r.fail(pos(g.Args[0].Pos), "the fraction of %s must be a constant between 0 and 1", g.Name)
		}
		a.Frac, arg, a.Desc = f, g.Within.Order.Expr, g.Within.Order.Dir == "DESC"
	}
	c.inAgg = true
	a.Arg = r.value(r.expr(arg, c))
	at := a.Arg.Type()
	switch {
	case a.Fn == "PERCENTILE_CONT":
		if !at.Numeric() {
			r.fail(a.Arg.Pos(), "%s needs a numeric argument, got %s", g.Name, at)
		}
		a.T = TFloat
	case at == TBool:
		r.fail(a.Arg.Pos(), "%s needs a value to order, got %s", g.Name, at)
	default:
		a.T = at
	}
	return a
}

// constFraction reads a numeric literal, possibly negated.
func constFraction(e Expr) (float64, bool) {
	neg := false
	if u, ok := e.(*Unary); ok && u.Op == "-" {
		neg, e = true, u.X
	}
	l, ok := e.(*Lit)
	if !ok {
		return 0, false
	}
	var f float64
	switch l.T {
	case TInt:
		f = float64(l.Int)
	case TFloat:
		f = l.Float
	default:
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

// hasAgg reports whether e contains an aggregate of its own query (not one
// inside a subquery).
func hasAgg(e Expr) bool {
	found := false
	walkExpr(e, 0, func(e Expr, depth int) bool {
		if a, ok := e.(*Agg); ok && depth == 0 && a.Over == nil {
			found = true
		}
		return !found && depth == 0
	})
	return found
}
