package calculus

import (
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// NULL, where the dialect meets it. Columns always hold a value, and an
// ungrouped aggregate over no rows is 0, but a scalar subquery with GROUP BY
// (grouped.go) has no row when its group is empty: its value is SQL's NULL.
// Such a value never reaches a map: the translator keeps, per nullable
// variable, the condition under which it holds a value (translator.present),
// and every place where an expression becomes a term spells SQL's
// three-valued logic out in two-valued expressions over that condition:
//
//   - a condition (WHERE, HAVING, CASE WHEN) holds where it is TRUE (truth);
//     NOT of an unknown is unknown, so NOT c holds where c is FALSE
//     (falsity); a comparison, LIKE or arithmetic over a NULL is unknown;
//   - an aggregate skips the rows whose argument is NULL; an aggregate of a
//     grouped block (GROUP BY) over no non-NULL argument is NULL itself,
//     one of an ungrouped block is 0 (the dialect's COALESCE);
//   - a view column that SQL makes NULL reads as its type's zero, as the
//     oracle reads it (orZero).
//
// Expressions without nullable variables are left exactly as they were.

// maybe is a value that may be NULL: V where P holds. It only lives while a
// view's SELECT and HAVING expressions are read out (query.go), where
// variables have become aggregate references; truth, valueOf and orZero
// remove it.
type maybe struct {
	V, P lang.Expr
}

// Pos implements lang.Expr.
func (m *maybe) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (m *maybe) Type() lang.Type { return m.V.Type() }

// nullable reports whether e reads a value that may be NULL.
func (t *translator) nullable(e lang.Expr) bool {
	found := false
	walkExpr(e, func(x lang.Expr) {
		switch y := x.(type) {
		case *VarRef:
			if t.present[y.V.Name] != nil {
				found = true
			}
		case *maybe:
			found = true
		}
	})
	return found
}

// setPresent records that variable v holds a value only where p holds (nil:
// always).
func (t *translator) setPresent(v Var, p lang.Expr) {
	if p == nil {
		return
	}
	if t.present == nil {
		t.present = map[string]lang.Expr{}
	}
	t.present[v.Name] = p
}

func isBool(e lang.Expr) bool { return e.Type() == lang.TBool }

// andExpr and orExpr build conjunctions and disjunctions; a nil operand of
// andExpr is TRUE (a presence that always holds).
func andExpr(es ...lang.Expr) lang.Expr {
	var out lang.Expr
	for _, e := range es {
		switch {
		case e == nil:
		case out == nil:
			out = e
		default:
			out = &lang.Binary{Op: "AND", L: out, R: e, T: lang.TBool}
		}
	}
	return out
}

func orExpr(l, r lang.Expr) lang.Expr { return &lang.Binary{Op: "OR", L: l, R: r, T: lang.TBool} }

func notExpr(e lang.Expr) lang.Expr { return &lang.Unary{Op: "NOT", X: e, T: lang.TBool} }

// presence is the condition under which e is not NULL; nil when it never is.
func (t *translator) presence(e lang.Expr) lang.Expr {
	if !t.nullable(e) {
		return nil
	}
	switch x := e.(type) {
	case *VarRef:
		return t.present[x.V.Name]
	case *maybe:
		return andExpr(x.P, t.presence(x.V))
	}
	if isBool(e) {
		// A condition has a truth value where it is TRUE or FALSE.
		return orExpr(t.truth(e), t.falsity(e))
	}
	switch x := e.(type) {
	case *lang.Case:
		// The arm that is taken decides; an arm is taken when its condition
		// is TRUE and no earlier one's is.
		var arms, earlier []lang.Expr
		for _, w := range x.Whens {
			c := t.truth(w.Cond)
			taken := andExpr(append(append([]lang.Expr{}, earlier...), c)...)
			if p := t.presence(w.Then); p != nil {
				arms = append(arms, andExpr(taken, notExpr(p)))
			}
			earlier = append(earlier, notExpr(c))
		}
		if x.Else != nil {
			if p := t.presence(x.Else); p != nil {
				arms = append(arms, andExpr(append(append([]lang.Expr{}, earlier...), notExpr(p))...))
			}
		}
		if len(arms) == 0 {
			return nil
		}
		null := arms[0]
		for _, a := range arms[1:] {
			null = orExpr(null, a)
		}
		return notExpr(null)
	}
	// Arithmetic and functions are NULL when an operand is.
	var ps []lang.Expr
	mapChildren(e, func(c lang.Expr) lang.Expr {
		ps = append(ps, t.presence(c))
		return c
	})
	return andExpr(ps...)
}

// truth is the condition under which boolean e is TRUE.
func (t *translator) truth(e lang.Expr) lang.Expr {
	if !t.nullable(e) {
		return e
	}
	switch x := e.(type) {
	case *lang.Binary:
		switch x.Op {
		case "AND":
			return andExpr(t.truth(x.L), t.truth(x.R))
		case "OR":
			return orExpr(t.truth(x.L), t.truth(x.R))
		}
	case *lang.Unary:
		if x.Op == "NOT" {
			return t.falsity(x.X)
		}
	case *lang.InList:
		return t.truth(inListOr(x))
	case *maybe:
		return andExpr(x.P, t.truth(x.V))
	}
	return andExpr(t.operandsPresent(e), t.valueOf(e, false))
}

// falsity is the condition under which boolean e is FALSE.
func (t *translator) falsity(e lang.Expr) lang.Expr {
	if !t.nullable(e) {
		return notExpr(e)
	}
	switch x := e.(type) {
	case *lang.Binary:
		switch x.Op {
		case "AND":
			return orExpr(t.falsity(x.L), t.falsity(x.R))
		case "OR":
			return andExpr(t.falsity(x.L), t.falsity(x.R))
		}
	case *lang.Unary:
		if x.Op == "NOT" {
			return t.truth(x.X)
		}
	case *lang.InList:
		return t.falsity(inListOr(x))
	case *maybe:
		return andExpr(x.P, t.falsity(x.V))
	}
	return andExpr(t.operandsPresent(e), notExpr(t.valueOf(e, false)))
}

// operandsPresent is the presence of a comparison's (LIKE's, a boolean
// variable's) operands: where they all have values, it is TRUE or FALSE.
func (t *translator) operandsPresent(e lang.Expr) lang.Expr {
	if r, ok := e.(*VarRef); ok {
		return t.present[r.V.Name]
	}
	var ps []lang.Expr
	mapChildren(e, func(c lang.Expr) lang.Expr {
		ps = append(ps, t.presence(c))
		return c
	})
	return andExpr(ps...)
}

// inListOr spells x [NOT] IN (a, b) as [NOT] (x = a OR x = b), SQL's
// definition, whose NULL cases then follow from those of = and OR.
func inListOr(x *lang.InList) lang.Expr {
	var d lang.Expr
	for _, l := range x.List {
		eq := &lang.Binary{Op: "=", L: x.X, R: l, T: lang.TBool}
		if d == nil {
			d = eq
		} else {
			d = orExpr(d, eq)
		}
	}
	if x.Not {
		return notExpr(d)
	}
	return d
}

// valueOf is e's value where it is not NULL: conditions inside it (CASE
// WHEN) are replaced by their truth, maybe values by their values. With
// top set, a boolean e is replaced by its truth.
func (t *translator) valueOf(e lang.Expr, top bool) lang.Expr {
	if !t.nullable(e) {
		return e
	}
	if top && isBool(e) {
		return t.truth(e)
	}
	switch x := e.(type) {
	case *VarRef:
		return x
	case *maybe:
		return t.valueOf(x.V, true)
	case *lang.Case:
		y := *x
		y.Whens = make([]*lang.When, len(x.Whens))
		for i, w := range x.Whens {
			y.Whens[i] = &lang.When{Cond: t.truth(w.Cond), Then: t.valueOf(w.Then, true)}
		}
		if x.Else != nil {
			y.Else = t.valueOf(x.Else, true)
		}
		return &y
	}
	return mapChildren(e, func(c lang.Expr) lang.Expr { return t.valueOf(c, true) })
}

// orZero is e's value, or its type's zero where it is NULL: how a view
// column reads a NULL (the oracle converts NULL to the zero of the column
// type).
func (t *translator) orZero(e lang.Expr) lang.Expr {
	p := t.presence(e)
	v := t.valueOf(e, true)
	if p == nil {
		return v
	}
	return &lang.Case{Whens: []*lang.When{{Cond: p, Then: v}}, Else: zeroLit(e.Type()), T: e.Type()}
}

// zeroLit is the zero of a column type: 0, 0.0, the empty string or the date 0.
func zeroLit(ty lang.Type) lang.Expr {
	switch ty {
	case lang.TFloat:
		return FloatLit(0)
	case lang.TString:
		return &lang.Lit{T: lang.TString}
	case lang.TDate:
		return &lang.Lit{T: lang.TDate, Date: runtime.Date(0)}
	}
	return IntLit(0)
}

// notNullable reports a positioned error if e (translated) may be NULL in a
// place that does not handle NULL yet: what names the place.
func (t *translator) notNullable(e lang.Expr, p lang.Pos, what string) error {
	if t.nullable(e) {
		return errorAt(p, "%s can be NULL here (a scalar subquery with GROUP BY over an empty group), which is not supported yet", what)
	}
	return nil
}
