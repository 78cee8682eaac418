package calculus

import (
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Term is a calculus term: a finite map from variable bindings to ring values.
// Terms are immutable once built; transformations return new terms.
type Term interface{ isTerm() }

// Rel is a base relation atom R(x1..xn); its value is the tuple's multiplicity.
type Rel struct {
	Name string
	Vars []Var
}

// Val is the value of a scalar expression over bound variables; a boolean
// expression (a comparison, LIKE, …) has value 1 when true, else 0.
type Val struct{ E lang.Expr }

// Sum is the ring sum (bag union) of its terms.
type Sum struct{ Terms []Term }

// Prod is the ring product (natural join) of its factors, evaluated left to
// right: a variable bound by an earlier factor is an input of later ones.
type Prod struct{ Factors []Term }

// Neg is the additive inverse.
type Neg struct{ T Term }

// AggSum sums T over every variable not in Group.
type AggSum struct {
	Group []Var
	T     Term
}

// Lift binds V to the value of T (or tests equality when V is already bound);
// its value is 1.
type Lift struct {
	V Var
	T Term
}

// Exists is 1 where T is non-zero.
type Exists struct{ T Term }

// Extreme is the least (Max false) or greatest value of Arg over the rows
// of T with a non-zero multiplicity, 0 when there is none: MIN and MAX,
// which are not ring aggregates. With Hol set it is instead that
// ordered-set aggregate of the multiset of Arg's values, each counted with
// its row's multiplicity. It only occurs under Lift.
type Extreme struct {
	Max bool
	Arg Var
	T   Term
	Hol *Holistic
}

// Holistic is an ordered-set aggregate of a multiset of values:
// PERCENTILE_CONT or PERCENTILE_DISC of fraction Frac, or MODE (the most
// frequent value, the least among ties), over the values in ascending
// order, or descending with Desc. PERCENTILE_CONT is FLOAT; the others have
// the values' type. Over no value each is 0 (NULL in dialect sql).
type Holistic struct {
	Fn   string
	Frac float64
	Desc bool
}

// String prints h as in m3: PercentileCont(0.5), PercentileDisc(0.9
// desc), Mode(), Mode(desc).
func (h *Holistic) String() string {
	if s := h.params(); s != "" {
		return h.name() + "(" + s + ")"
	}
	return h.name() + "()"
}

func (h *Holistic) name() string {
	switch h.Fn {
	case "PERCENTILE_CONT":
		return "PercentileCont"
	case "PERCENTILE_DISC":
		return "PercentileDisc"
	}
	return "Mode"
}

// params prints the fraction and the order: "0.5", "0.9 desc", "desc", "".
func (h *Holistic) params() string {
	var s string
	if h.Fn != "MODE" {
		s = strconv.FormatFloat(h.Frac, 'g', -1, 64)
	}
	if h.Desc {
		if s != "" {
			s += " "
		}
		s += "desc"
	}
	return s
}

// MapRef reads a materialized map at Keys.
type MapRef struct {
	Name string
	Keys []Var
	Type lang.Type // value type: TInt or TFloat
}

func (*Rel) isTerm()     {}
func (*Val) isTerm()     {}
func (*Sum) isTerm()     {}
func (*Prod) isTerm()    {}
func (*Neg) isTerm()     {}
func (*AggSum) isTerm()  {}
func (*Lift) isTerm()    {}
func (*Exists) isTerm()  {}
func (*MapRef) isTerm()  {}
func (*Extreme) isTerm() {}

// Zero and One are the ring constants.
var (
	Zero Term = &Sum{}
	One  Term = &Prod{}
)

// Const returns the constant term c.
func Const(c float64, t lang.Type) Term {
	if t == lang.TInt {
		return &Val{E: IntLit(int64(c))}
	}
	return &Val{E: FloatLit(c)}
}

// IsZero reports whether t is syntactically 0.
func IsZero(t Term) bool {
	switch x := t.(type) {
	case *Sum:
		return len(x.Terms) == 0
	case *Val:
		c, ok := litValue(x.E)
		return ok && c == 0
	}
	return false
}

// IsOne reports whether t is syntactically 1.
func IsOne(t Term) bool {
	switch x := t.(type) {
	case *Prod:
		return len(x.Factors) == 0
	case *Val:
		c, ok := litValue(x.E)
		return ok && c == 1
	}
	return false
}

// TypeOf returns the ring type of t: TFloat if any value in it is a float,
// else TInt.
func TypeOf(t Term) lang.Type {
	switch x := t.(type) {
	case *Val:
		if x.E.Type() == lang.TFloat {
			return lang.TFloat
		}
		return lang.TInt
	case *Sum:
		return maxType(x.Terms)
	case *Prod:
		return maxType(x.Factors)
	case *Neg:
		return TypeOf(x.T)
	case *AggSum:
		return TypeOf(x.T)
	case *MapRef:
		return x.Type
	case *Extreme:
		return x.Arg.Type
	}
	return lang.TInt
}

func maxType(ts []Term) lang.Type {
	for _, t := range ts {
		if TypeOf(t) == lang.TFloat {
			return lang.TFloat
		}
	}
	return lang.TInt
}

// Relations returns the names of the base relations t mentions, in order of
// first occurrence.
func Relations(t Term) []string {
	var out []string
	Walk(t, func(u Term) {
		if r, ok := u.(*Rel); ok {
			for _, n := range out {
				if n == r.Name {
					return
				}
			}
			out = append(out, r.Name)
		}
	})
	return out
}

// Walk calls f on t and every subterm, parents first.
func Walk(t Term, f func(Term)) {
	f(t)
	switch x := t.(type) {
	case *Sum:
		for _, u := range x.Terms {
			Walk(u, f)
		}
	case *Prod:
		for _, u := range x.Factors {
			Walk(u, f)
		}
	case *Neg:
		Walk(x.T, f)
	case *AggSum:
		Walk(x.T, f)
	case *Lift:
		Walk(x.T, f)
	case *Exists:
		Walk(x.T, f)
	case *Extreme:
		Walk(x.T, f)
	}
}

// Vars returns every variable t mentions (free or not), in order of first
// occurrence.
func Vars(t Term) []Var {
	var vs []Var
	Walk(t, func(u Term) {
		switch x := u.(type) {
		case *Rel:
			for _, v := range x.Vars {
				vs = addVar(vs, v)
			}
		case *MapRef:
			for _, v := range x.Keys {
				vs = addVar(vs, v)
			}
		case *Val:
			vs = ExprVars(x.E, vs)
		case *Lift:
			vs = addVar(vs, x.V)
		case *Extreme:
			vs = addVar(vs, x.Arg)
		case *AggSum:
			for _, v := range x.Group {
				vs = addVar(vs, v)
			}
		}
	})
	return vs
}

// FreeVars returns the variables of t visible outside it: everything except
// those summed away inside an AggSum.
func FreeVars(t Term) []Var {
	switch x := t.(type) {
	case *AggSum:
		// The group variables, and the inputs: variables the body reads but
		// does not bind (correlation variables of a nested aggregate).
		var out []Var
		for _, g := range x.Group {
			out = addVar(out, g)
		}
		for _, v := range InputVars(x.T) {
			out = addVar(out, v)
		}
		return out
	case *Sum:
		var out []Var
		for _, u := range x.Terms {
			for _, v := range FreeVars(u) {
				out = addVar(out, v)
			}
		}
		return out
	case *Prod:
		var out []Var
		for _, u := range x.Factors {
			for _, v := range FreeVars(u) {
				out = addVar(out, v)
			}
		}
		return out
	case *Neg:
		return FreeVars(x.T)
	case *Lift:
		return addVar(FreeVars(x.T), x.V)
	case *Exists:
		return FreeVars(x.T)
	case *Extreme:
		// Arg is bound by the Extreme: it ranges over the body's values.
		var out []Var
		for _, v := range FreeVars(x.T) {
			if v.Name != x.Arg.Name {
				out = append(out, v)
			}
		}
		return out
	}
	return Vars(t)
}

// InputVars returns the variables t reads without binding them: they must
// be bound where t is evaluated.
func InputVars(t Term) []Var {
	bound := map[string]bool{}
	Walk(t, func(u Term) {
		switch x := u.(type) {
		case *Rel:
			for _, v := range x.Vars {
				bound[v.Name] = true
			}
		case *MapRef:
			for _, v := range x.Keys {
				bound[v.Name] = true
			}
		case *Lift:
			bound[x.V.Name] = true
		case *Extreme:
			bound[x.Arg.Name] = true
		case *AggSum:
			for _, v := range x.Group {
				bound[v.Name] = true
			}
		}
	})
	var out []Var
	for _, v := range Vars(t) {
		if !bound[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// HasRel reports whether t mentions a base relation.
func HasRel(t Term) bool { return len(Relations(t)) > 0 }

func hasVar(vs []Var, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// String prints t in the calculus' text form.
func String(t Term) string {
	var b strings.Builder
	writeTerm(&b, t, 0)
	return b.String()
}

// precedence: 0 sum, 1 product, 2 atom
func writeTerm(b *strings.Builder, t Term, ctx int) {
	switch x := t.(type) {
	case *Rel:
		b.WriteString(x.Name + "(")
		writeVars(b, x.Vars)
		b.WriteString(")")
	case *MapRef:
		b.WriteString(x.Name + "[")
		writeVars(b, x.Keys)
		b.WriteString("]")
	case *Val:
		if x.E.Type() == lang.TBool {
			b.WriteString("{" + ExprString(x.E) + "}")
		} else if _, ok := x.E.(*lang.Lit); ok {
			b.WriteString(ExprString(x.E))
		} else if _, ok := x.E.(*VarRef); ok {
			b.WriteString(ExprString(x.E))
		} else {
			b.WriteString("[" + ExprString(x.E) + "]")
		}
	case *Sum:
		if len(x.Terms) == 0 {
			b.WriteString("0")
			return
		}
		if ctx > 0 {
			b.WriteString("(")
		}
		for i, u := range x.Terms {
			if i > 0 {
				b.WriteString(" + ")
			}
			writeTerm(b, u, 1)
		}
		if ctx > 0 {
			b.WriteString(")")
		}
	case *Prod:
		if len(x.Factors) == 0 {
			b.WriteString("1")
			return
		}
		if ctx > 1 && len(x.Factors) > 1 {
			b.WriteString("(")
		}
		for i, u := range x.Factors {
			if i > 0 {
				b.WriteString(" * ")
			}
			writeTerm(b, u, 2)
		}
		if ctx > 1 && len(x.Factors) > 1 {
			b.WriteString(")")
		}
	case *Neg:
		b.WriteString("-")
		writeTerm(b, x.T, 2)
	case *AggSum:
		b.WriteString("AggSum([")
		writeVars(b, x.Group)
		b.WriteString("], ")
		writeTerm(b, x.T, 0)
		b.WriteString(")")
	case *Lift:
		b.WriteString("(" + x.V.Name + " ^= ")
		writeTerm(b, x.T, 0)
		b.WriteString(")")
	case *Exists:
		b.WriteString("Exists(")
		writeTerm(b, x.T, 0)
		b.WriteString(")")
	case *Extreme:
		if x.Hol != nil {
			b.WriteString(x.Hol.name() + "(")
			if p := x.Hol.params(); p != "" {
				b.WriteString(p + ", ")
			}
		} else if x.Max {
			b.WriteString("Max(")
		} else {
			b.WriteString("Min(")
		}
		b.WriteString(x.Arg.Name + ", ")
		writeTerm(b, x.T, 0)
		b.WriteString(")")
	default:
		b.WriteString("<?>")
	}
}

func writeVars(b *strings.Builder, vs []Var) {
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.Name)
	}
}

// ReplaceRels returns t with every relation atom r replaced by f(r), at
// any depth (inside sums, products, aggregates, lifts, Exists and
// extremes).
func ReplaceRels(t Term, f func(*Rel) Term) Term {
	switch x := t.(type) {
	case *Rel:
		return f(x)
	case *Prod:
		fs := make([]Term, len(x.Factors))
		for i, u := range x.Factors {
			fs[i] = ReplaceRels(u, f)
		}
		return &Prod{Factors: fs}
	case *Sum:
		ts := make([]Term, len(x.Terms))
		for i, u := range x.Terms {
			ts[i] = ReplaceRels(u, f)
		}
		return &Sum{Terms: ts}
	case *Neg:
		return &Neg{T: ReplaceRels(x.T, f)}
	case *AggSum:
		return &AggSum{Group: x.Group, T: ReplaceRels(x.T, f)}
	case *Lift:
		return &Lift{V: x.V, T: ReplaceRels(x.T, f)}
	case *Exists:
		return &Exists{T: ReplaceRels(x.T, f)}
	case *Extreme:
		return &Extreme{Max: x.Max, Arg: x.Arg, T: ReplaceRels(x.T, f), Hol: x.Hol}
	}
	return t
}

// WalkTermExprs calls f on the expression of every Val in t (f walks into
// it with WalkExpr as it needs).
func WalkTermExprs(t Term, f func(lang.Expr)) {
	switch x := t.(type) {
	case *Val:
		f(x.E)
	case *Sum:
		for _, u := range x.Terms {
			WalkTermExprs(u, f)
		}
	case *Prod:
		for _, u := range x.Factors {
			WalkTermExprs(u, f)
		}
	case *Neg:
		WalkTermExprs(x.T, f)
	case *AggSum:
		WalkTermExprs(x.T, f)
	case *Lift:
		WalkTermExprs(x.T, f)
	case *Exists:
		WalkTermExprs(x.T, f)
	case *Extreme:
		WalkTermExprs(x.T, f)
	}
}
