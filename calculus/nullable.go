package calculus

import (
	"strings"

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

// nullable reports whether e reads a value that may be NULL, or (dialect
// sql) holds a construct that makes or tests NULLs: the NULL literal, IS
// [NOT] NULL, IS [NOT] DISTINCT FROM, COALESCE, NULLIF, a CASE without
// ELSE, a division or modulo (x / 0 is NULL). Such expressions are spelled
// out two-valued before they become terms.
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
		case *lang.Lit:
			found = found || y.Null
		case *lang.IsNull:
			found = true
		case *lang.Binary:
			found = found || y.Op == "IS" || y.Op == "IS NOT" || (t.sql && (y.Op == "/" || y.Op == "%") && !nonZeroLit(y.R))
		case *lang.Case:
			found = found || y.Else == nil
		case *lang.Call:
			found = found || y.Name == "COALESCE" || y.Name == "NULLIF"
		}
	})
	return found
}

// nonZeroLit reports whether e is a numeric literal other than 0.
func nonZeroLit(e lang.Expr) bool {
	l, ok := e.(*lang.Lit)
	return ok && !l.Null && ((l.T == lang.TInt && l.Int != 0) || (l.T == lang.TFloat && l.Float != 0))
}

// trueExpr and falseExpr are the constant conditions.
func trueExpr() lang.Expr  { return &lang.Binary{Op: "=", L: IntLit(0), R: IntLit(0), T: lang.TBool} }
func falseExpr() lang.Expr { return &lang.Binary{Op: "!=", L: IntLit(0), R: IntLit(0), T: lang.TBool} }

// presentOrTrue is e's presence, TRUE where it is always present.
func (t *translator) presentOrTrue(e lang.Expr) lang.Expr {
	if p := t.presence(e); p != nil {
		return p
	}
	return trueExpr()
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
	case *lang.Lit:
		if x.Null {
			return falseExpr()
		}
		return nil
	case *lang.IsNull:
		return nil // TRUE or FALSE
	case *lang.Binary:
		switch x.Op {
		case "IS", "IS NOT":
			return nil
		case "/", "%":
			if t.sql && !nonZeroLit(x.R) {
				// x / 0 and x % 0 are NULL.
				r := t.valueOf(x.R, true)
				return andExpr(t.presence(x.L), t.presence(x.R), &lang.Binary{Op: "!=", L: r, R: zeroLit(r.Type()), T: lang.TBool})
			}
		}
	case *lang.Call:
		switch x.Name {
		case "COALESCE":
			// Present where any argument is.
			var p lang.Expr
			for _, a := range x.Args {
				pa := t.presence(a)
				if pa == nil {
					return nil
				}
				if p == nil {
					p = pa
				} else {
					p = orExpr(p, pa)
				}
			}
			return p
		case "NULLIF":
			// NULL where the first argument is, or where they are equal.
			eq := &lang.Binary{Op: "=", L: x.Args[0], R: x.Args[1], T: lang.TBool}
			return andExpr(t.presence(x.Args[0]), notExpr(t.truth(eq)))
		}
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
		} else {
			// No arm taken and no ELSE: NULL.
			arms = append(arms, andExpr(earlier...))
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
	case *lang.IsNull:
		p := t.presentOrTrue(x.X)
		if x.Not {
			return p
		}
		return notExpr(p)
	}
	if x, ok := e.(*lang.Binary); ok && x.Op == "IS" {
		// Two variables that are zero where NULL, with 0/1 flags (keyFlag):
		// not distinct is equal values and equal flags, two equalities a
		// join can look up (an index on both) rather than a disjunction it
		// must loop over.
		l, lok := x.L.(*VarRef)
		r, rok := x.R.(*VarRef)
		if lok && rok {
			fl, lf := t.keyFlag[l.V.Name]
			fr, rf := t.keyFlag[r.V.Name]
			if lf && rf {
				return andExpr(&lang.Binary{Op: "=", L: x.L, R: x.R, T: lang.TBool},
					&lang.Binary{Op: "=", L: Ref(fl), R: Ref(fr), T: lang.TBool})
			}
		}
	}
	if x, ok := e.(*lang.Binary); ok && (x.Op == "IS" || x.Op == "IS NOT") {
		// IS NOT DISTINCT FROM: equal values, or both NULL.
		pl, pr := t.presence(x.L), t.presence(x.R)
		eq := andExpr(pl, pr, t.valueOf(&lang.Binary{Op: "=", L: x.L, R: x.R, T: lang.TBool}, false))
		if pl != nil && pr != nil {
			eq = orExpr(eq, andExpr(notExpr(pl), notExpr(pr)))
		}
		if x.Op == "IS NOT" {
			return notExpr(eq)
		}
		return eq
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
	case *lang.IsNull:
		return notExpr(t.truth(x))
	}
	if x, ok := e.(*lang.Binary); ok && (x.Op == "IS" || x.Op == "IS NOT") {
		return notExpr(t.truth(x)) // two-valued
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
	case *lang.Lit:
		if x.Null {
			return zeroLit(x.T) // never read: its presence is FALSE
		}
		return x
	case *lang.IsNull:
		return t.truth(e)
	case *lang.Binary:
		b := x
		if b.Op == "IS" || b.Op == "IS NOT" {
			return t.truth(e)
		}
		if t.sql && (b.Op == "/" || b.Op == "%") && !nonZeroLit(b.R) {
			// Where the divisor is 0 the value is never read; the division
			// must not fail there.
			l, r := t.valueOf(b.L, true), t.valueOf(b.R, true)
			safe := &lang.Case{Whens: []*lang.When{{Cond: &lang.Binary{Op: "!=", L: r, R: zeroLit(r.Type()), T: lang.TBool}, Then: r}}, Else: oneLit(r.Type()), T: r.Type()}
			y := *b
			y.L, y.R = l, safe
			return &y
		}
	case *lang.Call:
		switch x.Name {
		case "COALESCE":
			// The first argument that is present.
			c := &lang.Case{T: x.T}
			for i, a := range x.Args {
				p := t.presence(a)
				v := t.valueOf(a, true)
				if p == nil || i == len(x.Args)-1 {
					c.Else = v
					break
				}
				c.Whens = append(c.Whens, &lang.When{Cond: p, Then: v})
			}
			if len(c.Whens) == 0 {
				return c.Else
			}
			return c
		case "NULLIF":
			return t.valueOf(x.Args[0], true)
		}
	case *lang.Case:
		y := *x
		y.Whens = make([]*lang.When, len(x.Whens))
		for i, w := range x.Whens {
			y.Whens[i] = &lang.When{Cond: t.truth(w.Cond), Then: t.valueOf(w.Then, true)}
		}
		if x.Else != nil {
			y.Else = t.valueOf(x.Else, true)
		} else {
			y.Else = zeroLit(x.T) // NULL: never read
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

// oneLit is 1 of a numeric type.
func oneLit(ty lang.Type) lang.Expr {
	if ty == lang.TFloat {
		return FloatLit(1)
	}
	return IntLit(1)
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
		return errorAt(p, "%s can be NULL here (a NULL column, or a scalar subquery or aggregate over no rows), which is not supported yet", what)
	}
	return nil
}

// nullColumn lifts e, which may be NULL, to a column v that holds e's value
// or its type's zero, and a column p that holds 1 where e is not NULL, else
// 0 (their Lift factors are appended to rows): every NULL is then one value,
// apart from the others, as DISTINCT and a bag's rows see it. v's presence
// is p != 0.
func (b *block) nullColumn(name string, e lang.Expr, rows []Term, used []Var) (v, p Var, _ []Term) {
	t := b.t
	if r, ok := e.(*VarRef); ok {
		// A column that is already such a pair (keyFlag) is its own key:
		// no lift, so that a delta still binds it by lookup.
		if f, ok := t.keyFlag[r.V.Name]; ok && !hasVar(used, r.V.Name) && !hasVar(used, f.Name) &&
			ExprString(t.presence(e)) == ExprString(countTest(f, true)) {
			return r.V, f, rows
		}
	}
	v = t.newVar(strings.ToLower(name), e.Type())
	p = t.newVar(strings.ToLower(name)+"_present", lang.TInt)
	var flag lang.Expr = IntLit(1)
	if pe := t.presence(e); pe != nil {
		flag = &lang.Case{Whens: []*lang.When{{Cond: pe, Then: IntLit(1)}}, Else: IntLit(0), T: lang.TInt}
	}
	rows = append(rows, &Lift{V: v, T: &Val{E: t.orZero(e)}}, &Lift{V: p, T: &Val{E: flag}})
	t.setPresent(v, countTest(p, true))
	t.setKeyFlag(v, p)
	return v, p, rows
}

// setKeyFlag records that v is zero wherever flag (0 or 1) is 0, and
// present where it is not (keyFlag).
func (t *translator) setKeyFlag(v, flag Var) {
	if t.keyFlag == nil {
		t.keyFlag = map[string]Var{}
	}
	t.keyFlag[v.Name] = flag
}
