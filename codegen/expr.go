package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// expr translates a scalar expression to Go. Variables come from sc;
// aggregates of a view (AggRef) from sc["#i"].
func (g *gen) expr(e lang.Expr, sc scope) (*jen.Statement, error) {
	if e.Type() == lang.TBool {
		if v, ok := calculus.ConstBool(e); ok {
			return jen.Lit(v), nil
		}
		e = calculus.FoldBool(e)
	}
	switch x := e.(type) {
	case *calculus.VarRef:
		c, ok := sc[x.V.Name]
		if !ok {
			return nil, fmt.Errorf("codegen: variable %s is not bound", x.V.Name)
		}
		return c.Clone(), nil
	case *calculus.AggRef:
		c, ok := sc[fmt.Sprintf("#%d", x.Index)]
		if !ok {
			return nil, fmt.Errorf("codegen: aggregate #%d is not available", x.Index)
		}
		return c.Clone(), nil
	case *calculus.RangeRef:
		c, ok := sc[rangeName(x)]
		if !ok {
			return nil, fmt.Errorf("codegen: running sum #%d is not available", x.Index)
		}
		return c.Clone(), nil
	case *calculus.ExtremeRef:
		c, ok := sc[fmt.Sprintf("extreme#%d", x.Index)]
		if !ok {
			return nil, fmt.Errorf("codegen: extreme #%d is not available", x.Index)
		}
		return c.Clone(), nil
	case *lang.Lit:
		switch x.T {
		case lang.TInt:
			return jen.Lit(x.Int), nil
		case lang.TFloat:
			return jen.Lit(x.Float), nil
		case lang.TString:
			return jen.Lit(x.Str), nil
		case lang.TDate:
			return jen.Qual(runtimePkg, "Date").Call(jen.Lit(int(x.Date))), nil
		}
	case *lang.Unary:
		a, err := g.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		if x.Op == "NOT" {
			return jen.Op("!").Parens(a), nil
		}
		if x.X.Type() == lang.TInt && g.checked {
			return g.arith("-", jen.Lit(0), a, lang.TInt), nil
		}
		return jen.Op("-").Parens(a), nil
	case *lang.Binary:
		l, err := g.expr(x.L, sc)
		if err != nil {
			return nil, err
		}
		r, err := g.expr(x.R, sc)
		if err != nil {
			return nil, err
		}
		lt, rt := x.L.Type(), x.R.Type()
		switch x.Op {
		case "AND", "OR":
			if calculus.ExprString(x.L) == calculus.ExprString(x.R) {
				// x AND x: two columns' presence tests that became one.
				return l, nil
			}
			if x.Op == "AND" {
				return jen.Parens(l).Op("&&").Parens(r), nil
			}
			return jen.Parens(l).Op("||").Parens(r), nil
		case "/":
			if g.p.Dialect == lang.SQL && x.T == lang.TInt {
				// INT / INT truncates (the calculus reads it only where r != 0).
				return jen.Qual(runtimePkg, "DivInt").Call(l, r), nil
			}
			return jen.Qual(runtimePkg, "Div").Call(convert(l, lt, lang.TFloat), convert(r, rt, lang.TFloat)), nil
		case "%":
			// SQLite's %: on the operands truncated to integers.
			m := jen.Qual(runtimePkg, "ModInt").Call(convert(l, lt, lang.TInt), convert(r, rt, lang.TInt))
			if x.T == lang.TFloat {
				return jen.Float64().Call(m), nil
			}
			return m, nil
		case "=", "!=", "<", "<=", ">", ">=":
			op := x.Op
			if op == "=" {
				op = "=="
			}
			if lt != rt && lt.Numeric() && rt.Numeric() {
				return jen.Parens(convert(l, lt, lang.TFloat)).Op(op).Parens(convert(r, rt, lang.TFloat)), nil
			}
			return jen.Parens(l).Op(op).Parens(r), nil
		case "+", "-", "*":
			return g.arith(x.Op, convert(l, lt, x.T), convert(r, rt, x.T), x.T), nil
		}
	case *lang.Like:
		a, err := g.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		v, ok := g.likes[x.Pattern]
		if !ok {
			v = fmt.Sprintf("like%d", len(g.likes)+1)
			g.likes[x.Pattern] = v
		}
		m := jen.Id(v).Dot("Match").Call(a)
		if x.Not {
			return jen.Op("!").Add(m), nil
		}
		return m, nil
	case *lang.InList:
		a, err := g.expr(x.X, sc)
		if err != nil {
			return nil, err
		}
		var c *jen.Statement
		for _, item := range x.List {
			b, err := g.expr(item, sc)
			if err != nil {
				return nil, err
			}
			t := x.X.Type()
			if t != item.Type() && t.Numeric() && item.Type().Numeric() {
				t = lang.TFloat
			}
			eq := jen.Parens(convert(a.Clone(), x.X.Type(), t)).Op("==").Parens(convert(b, item.Type(), t))
			if c == nil {
				c = eq
			} else {
				c = c.Op("||").Add(eq)
			}
		}
		if x.Not {
			return jen.Op("!").Parens(c), nil
		}
		return jen.Parens(c), nil
	case *lang.Case:
		// An immediately called closure: Go has no conditional expression.
		var body []jen.Code
		for _, w := range x.Whens {
			c, err := g.expr(w.Cond, sc)
			if err != nil {
				return nil, err
			}
			v, err := g.expr(w.Then, sc)
			if err != nil {
				return nil, err
			}
			body = append(body, jen.If(c).Block(jen.Return(convert(v, w.Then.Type(), x.T))))
		}
		if x.Else != nil {
			v, err := g.expr(x.Else, sc)
			if err != nil {
				return nil, err
			}
			body = append(body, jen.Return(convert(v, x.Else.Type(), x.T)))
		} else {
			body = append(body, jen.Return(zero(x.T)))
		}
		return jen.Func().Params().Add(goType(x.T)).Block(body...).Call(), nil
	case *lang.Call:
		return g.call(x, sc)
	}
	return nil, fmt.Errorf("codegen: unsupported expression %s", calculus.ExprString(e))
}

func zero(t lang.Type) jen.Code {
	switch t {
	case lang.TString:
		return jen.Lit("")
	case lang.TFloat:
		return jen.Lit(0.0)
	case lang.TDate:
		return jen.Qual(runtimePkg, "Date").Call(jen.Lit(0))
	}
	return jen.Lit(0)
}

func (g *gen) call(x *lang.Call, sc scope) (*jen.Statement, error) {
	args := make([]*jen.Statement, len(x.Args))
	for i, a := range x.Args {
		c, err := g.expr(a, sc)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	if c, ok := plainCall(x, args); ok {
		return c, nil
	}
	rt := func(name string, as ...jen.Code) *jen.Statement { return jen.Qual(runtimePkg, name).Call(as...) }
	switch x.Name {
	case "SUBSTRING":
		return rt("Substring", args[0], convert(args[1], x.Args[1].Type(), lang.TInt), convert(args[2], x.Args[2].Type(), lang.TInt)), nil
	case "DATE_PART":
		if l, ok := x.Args[0].(*lang.Lit); ok {
			switch strings.ToUpper(l.Str) {
			case "YEAR":
				return args[1].Dot("Year").Call(), nil
			case "MONTH":
				return args[1].Dot("Month").Call(), nil
			case "DAY":
				return args[1].Dot("Day").Call(), nil
			}
		}
		return rt("DatePart", args[0], args[1]), nil
	case "DATE_ADD":
		return rt("DateAdd", args[0], convert(args[1], x.Args[1].Type(), lang.TInt), args[2]), nil
	case "CAST_INT":
		switch x.Args[0].Type() {
		case lang.TString:
			return rt("CastIntFromString", args[0]), nil
		case lang.TFloat:
			return rt("CastIntFromFloat", args[0]), nil
		}
		return jen.Int64().Call(args[0]), nil
	case "CAST_FLOAT":
		if x.Args[0].Type() == lang.TString {
			return rt("CastFloatFromString", args[0]), nil
		}
		return jen.Float64().Call(args[0]), nil
	case "CAST_STRING":
		switch x.Args[0].Type() {
		case lang.TInt:
			return rt("CastStringFromInt", args[0]), nil
		case lang.TFloat:
			return rt("CastStringFromFloat", args[0]), nil
		case lang.TDate:
			return rt("CastStringFromDate", args[0]), nil
		}
		return args[0], nil
	case "CAST_DATE":
		if x.Args[0].Type() == lang.TString {
			return rt("CastDate", args[0]), nil
		}
		return args[0], nil
	case "INT_LIMB", "SQUARE_LIMB", "EXACT_VARIANCE":
		// Exact INT variance (calculus' stats.go).
		name := map[string]string{"INT_LIMB": "IntLimb", "SQUARE_LIMB": "SquareLimb", "EXACT_VARIANCE": "ExactVariance"}[x.Name]
		cs := make([]jen.Code, len(args))
		for i, a := range args {
			cs[i] = convert(a, x.Args[i].Type(), lang.TInt)
		}
		return rt(name, cs...), nil
	case "LISTMIN", "LISTMAX":
		name := "ListMin"
		if x.Name == "LISTMAX" {
			name = "ListMax"
		}
		cs := make([]jen.Code, len(args))
		for i, a := range args {
			cs[i] = convert(a, x.Args[i].Type(), x.T)
		}
		return jen.Qual(runtimePkg, name).Types(goType(x.T)).Call(cs...), nil
	case "REGEXP_MATCH":
		l, ok := x.Args[0].(*lang.Lit)
		if !ok {
			return nil, fmt.Errorf("codegen: REGEXP_MATCH needs a literal pattern")
		}
		v, ok := g.regexps[l.Str]
		if !ok {
			v = fmt.Sprintf("regexp%d", len(g.regexps)+1)
			g.regexps[l.Str] = v
		}
		return rt("RegexpMatch", jen.Id(v), args[1]), nil
	case "HASH":
		switch x.Args[0].Type() {
		case lang.TFloat:
			return rt("HashFloat", args[0]), nil
		case lang.TString:
			return rt("HashString", args[0]), nil
		case lang.TDate:
			return rt("Hash", jen.Int64().Call(args[0])), nil
		}
		return rt("Hash", args[0]), nil
	}
	if m, ok := runtime.MathFuncs[x.Name]; ok {
		cs := make([]jen.Code, len(args))
		for i, a := range args {
			cs[i] = convert(a, x.Args[i].Type(), lang.TFloat)
		}
		return rt(m.GoName, cs...), nil
	}
	return nil, fmt.Errorf("codegen: unsupported function %s", x.Name)
}
