package calculus

import "github.com/toastgen/toastgen/lang"

// Walks and rewrites of lang expressions that the translation from SQL
// (fromsql.go) uses.

// mapChildren rebuilds e with f applied to its direct subexpressions.
func mapChildren(e lang.Expr, f func(lang.Expr) lang.Expr) lang.Expr {
	switch x := e.(type) {
	case *lang.Unary:
		y := *x
		y.X = f(x.X)
		return &y
	case *lang.Binary:
		y := *x
		y.L, y.R = f(x.L), f(x.R)
		return &y
	case *lang.IsNull:
		y := *x
		y.X = f(x.X)
		return &y
	case *lang.Like:
		y := *x
		y.X = f(x.X)
		return &y
	case *lang.InList:
		y := *x
		y.X = f(x.X)
		y.List = make([]lang.Expr, len(x.List))
		for i, l := range x.List {
			y.List[i] = f(l)
		}
		return &y
	case *lang.Case:
		y := *x
		y.Whens = make([]*lang.When, len(x.Whens))
		for i, w := range x.Whens {
			y.Whens[i] = &lang.When{Cond: f(w.Cond), Then: f(w.Then)}
		}
		if x.Else != nil {
			y.Else = f(x.Else)
		}
		return &y
	case *lang.Call:
		y := *x
		y.Args = make([]lang.Expr, len(x.Args))
		for i, a := range x.Args {
			y.Args[i] = f(a)
		}
		return &y
	case *RangeRef:
		if x.Exprs == nil {
			return e
		}
		y := *x
		y.Exprs = make([]lang.Expr, len(x.Exprs))
		for i, a := range x.Exprs {
			if a != nil {
				y.Exprs[i] = f(a)
			}
		}
		return &y
	}
	return e
}

func containsSubquery(e lang.Expr) bool {
	found := false
	walkLang(e, func(x lang.Expr) {
		switch x.(type) {
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			found = true
		}
	})
	return found
}

// sqlKey keys a group key by its SQL text (ExprString keys it by its
// translation).
func sqlKey(e lang.Expr) string { return "sql:" + lang.ExprKey(e) }

// conjuncts splits a condition on AND.
func conjuncts(e lang.Expr) []lang.Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*lang.Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []lang.Expr{e}
}

func containsAgg(e lang.Expr) bool {
	found := false
	walkExpr(e, func(x lang.Expr) {
		if _, ok := x.(*lang.Agg); ok {
			found = true
		}
	})
	return found
}

// walkLang walks a lang expression including aggregate arguments.
func walkLang(e lang.Expr, f func(lang.Expr)) {
	walkExpr(e, func(x lang.Expr) {
		f(x)
		if a, ok := x.(*lang.Agg); ok && a.Arg != nil {
			walkLang(a.Arg, f)
		}
	})
}
