package calculus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Var is a calculus variable: a column of a query, a group key, a trigger
// argument or a map key.
type Var struct {
	Name string
	Type lang.Type
}

func (v Var) String() string { return v.Name }

// VarRef is a lang.Expr leaf that reads a calculus variable.
type VarRef struct{ V Var }

// Pos implements lang.Expr; calculus expressions carry no position.
func (r *VarRef) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (r *VarRef) Type() lang.Type { return r.V.Type }

// Ref returns an expression reading v.
func Ref(v Var) lang.Expr { return &VarRef{V: v} }

// IntLit and FloatLit build literals.
func IntLit(i int64) lang.Expr     { return &lang.Lit{T: lang.TInt, Int: i} }
func FloatLit(f float64) lang.Expr { return &lang.Lit{T: lang.TFloat, Float: f} }

// ExprVars appends the variables e reads, without duplicates, in order of
// first occurrence.
func ExprVars(e lang.Expr, vs []Var) []Var {
	walkExpr(e, func(x lang.Expr) {
		if r, ok := x.(*VarRef); ok {
			vs = addVar(vs, r.V)
		}
	})
	return vs
}

func addVar(vs []Var, v Var) []Var {
	for _, w := range vs {
		if w.Name == v.Name {
			return vs
		}
	}
	return append(vs, v)
}

// WalkExpr calls f on e and its subexpressions, parents first.
func WalkExpr(e lang.Expr, f func(lang.Expr)) { walkExpr(e, f) }

func walkExpr(e lang.Expr, f func(lang.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch x := e.(type) {
	case *lang.Unary:
		walkExpr(x.X, f)
	case *lang.Binary:
		walkExpr(x.L, f)
		walkExpr(x.R, f)
	case *lang.Like:
		walkExpr(x.X, f)
	case *lang.IsNull:
		walkExpr(x.X, f)
	case *lang.InList:
		walkExpr(x.X, f)
		for _, y := range x.List {
			walkExpr(y, f)
		}
	case *lang.Case:
		for _, w := range x.Whens {
			walkExpr(w.Cond, f)
			walkExpr(w.Then, f)
		}
		walkExpr(x.Else, f)
	case *lang.Call:
		for _, y := range x.Args {
			walkExpr(y, f)
		}
	case *RangeRef:
		for _, y := range x.Exprs {
			walkExpr(y, f)
		}
	}
}

// SubstExpr returns e with every variable named in sub replaced. It shares
// unchanged subtrees.
func SubstExpr(e lang.Expr, sub map[string]lang.Expr) lang.Expr {
	if e == nil || len(sub) == 0 {
		return e
	}
	if x, ok := e.(*VarRef); ok {
		if r, ok := sub[x.V.Name]; ok {
			return r
		}
		return x
	}
	return mapChildren(e, func(c lang.Expr) lang.Expr { return SubstExpr(c, sub) })
}

// ExprString prints a scalar expression in the calculus' text form.
func ExprString(e lang.Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

// precedence levels for minimal parenthesization
func exprPrec(e lang.Expr) int {
	switch x := e.(type) {
	case *lang.Binary:
		switch x.Op {
		case "OR":
			return 1
		case "AND":
			return 2
		case "=", "!=", "<", "<=", ">", ">=":
			return 4
		case "+", "-":
			return 5
		case "*", "/":
			return 6
		}
	case *lang.Unary:
		if x.Op == "NOT" {
			return 3
		}
		return 7
	case *lang.Like, *lang.InList:
		return 4
	}
	return 8
}

func writeExpr(b *strings.Builder, e lang.Expr, ctx int) {
	p := exprPrec(e)
	if p < ctx {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch x := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *VarRef:
		b.WriteString(x.V.Name)
	case *AggRef:
		fmt.Fprintf(b, "#%d", x.Index)
	case *RangeRef:
		op := "<="
		switch {
		case x.Desc && x.Strict:
			op = ">"
		case x.Desc:
			op = ">="
		case x.Strict:
			op = "<"
		}
		at := fmt.Sprintf("key%d", x.Order)
		if x.Exprs != nil && x.Exprs[x.Order] != nil {
			at = "(" + ExprString(x.Exprs[x.Order]) + ")"
		}
		if x.Flag >= 0 {
			fmt.Fprintf(b, "running#%d[%s %s, NULL where key%d = 0]", x.Index, at, op, x.Flag)
		} else {
			fmt.Fprintf(b, "running#%d[%s %s]", x.Index, at, op)
		}
	case *ExtremeRef:
		if x.Hol != nil {
			fmt.Fprintf(b, "%s#%d", x.Hol, x.Index)
		} else if x.Max {
			fmt.Fprintf(b, "max#%d", x.Index)
		} else {
			fmt.Fprintf(b, "min#%d", x.Index)
		}
	case *lang.Lit:
		b.WriteString(LitString(x))
	case *lang.Unary:
		if x.Op == "NOT" {
			b.WriteString("NOT ")
		} else {
			b.WriteString("-")
		}
		writeExpr(b, x.X, p)
	case *lang.Binary:
		writeExpr(b, x.L, p)
		b.WriteString(" " + x.Op + " ")
		writeExpr(b, x.R, p+1)
	case *lang.Like:
		writeExpr(b, x.X, p+1)
		if x.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" LIKE " + strconv.Quote(x.Pattern))
	case *lang.InList:
		writeExpr(b, x.X, p+1)
		if x.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, l := range x.List {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, l, 0)
		}
		b.WriteString(")")
	case *lang.Case:
		b.WriteString("CASE")
		for _, w := range x.Whens {
			b.WriteString(" WHEN ")
			writeExpr(b, w.Cond, 0)
			b.WriteString(" THEN ")
			writeExpr(b, w.Then, 0)
		}
		if x.Else != nil {
			b.WriteString(" ELSE ")
			writeExpr(b, x.Else, 0)
		}
		b.WriteString(" END")
	case *lang.Call:
		b.WriteString(x.Name + "(")
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a, 0)
		}
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// LitString prints a literal.
func LitString(l *lang.Lit) string {
	switch l.T {
	case lang.TInt:
		return strconv.FormatInt(l.Int, 10)
	case lang.TFloat:
		s := strconv.FormatFloat(l.Float, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	case lang.TString:
		return strconv.Quote(l.Str)
	case lang.TDate:
		return "DATE('" + l.Date.String() + "')"
	}
	return "?"
}

// litValue returns the numeric value of a numeric literal.
func litValue(e lang.Expr) (float64, bool) {
	l, ok := e.(*lang.Lit)
	if !ok {
		return 0, false
	}
	switch l.T {
	case lang.TInt:
		return float64(l.Int), true
	case lang.TFloat:
		return l.Float, true
	}
	return 0, false
}
