package calculus

import (
	"sort"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Monomial is a product of atomic factors with a constant coefficient.
// Factors are Rel, MapRef, Val (never a literal), Lift, Exists or a nested
// AggSum.
type Monomial struct {
	Coef    float64
	Factors []Term
}

// Term returns the monomial as a term.
func (m Monomial) Term(t lang.Type) Term {
	fs := m.Factors
	if m.Coef != 1 {
		fs = append([]Term{Const(m.Coef, t)}, fs...)
	}
	if len(fs) == 1 {
		return fs[0]
	}
	return &Prod{Factors: fs}
}

// Expand multiplies t out into a sum of monomials. Sum, Prod and Neg are
// flattened; every other term is atomic (an AggSum is kept whole: its
// summed-away variables are local to it).
func Expand(t Term) []Monomial {
	switch x := t.(type) {
	case *Sum:
		var out []Monomial
		for _, u := range x.Terms {
			out = append(out, Expand(u)...)
		}
		return out
	case *Neg:
		ms := Expand(x.T)
		for i := range ms {
			ms[i].Coef = -ms[i].Coef
		}
		return ms
	case *Prod:
		out := []Monomial{{Coef: 1}}
		for _, f := range x.Factors {
			fm := Expand(f)
			var next []Monomial
			for _, a := range out {
				for _, b := range fm {
					next = append(next, Monomial{
						Coef:    a.Coef * b.Coef,
						Factors: append(append([]Term{}, a.Factors...), b.Factors...),
					})
				}
			}
			out = next
		}
		return out
	case *Val:
		if c, ok := litValue(x.E); ok {
			if c == 0 {
				return nil
			}
			return []Monomial{{Coef: c}}
		}
	}
	return []Monomial{{Coef: 1, Factors: []Term{t}}}
}

// SimplifyMonomial substitutes away variables bound by lifts to expressions
// over bound variables, turns lifts of bound variables into equality tests,
// and folds constants. bound holds the variables bound outside the monomial
// (trigger arguments); keep holds variables that must stay visible (the keys
// of the map being maintained). When a kept variable is lifted to a bound
// variable it is substituted too, and keySub records the replacement so that
// the caller can rewrite its keys. ok is false when the monomial is zero.
func SimplifyMonomial(m Monomial, bound, keep []Var) (out Monomial, keySub map[string]Var, ok bool) {
	isBound := map[string]bool{}
	for _, v := range bound {
		isBound[v.Name] = true
	}
	isKeep := map[string]bool{}
	for _, v := range keep {
		isKeep[v.Name] = true
	}
	keySub = map[string]Var{}
	fs := append([]Term{}, m.Factors...)
	coef := m.Coef
	for changed := true; changed; {
		changed = false
		for i, f := range fs {
			// An equality between a bound and an unbound variable binds the
			// latter: substitute it (a lookup instead of a loop).
			if v, isVal := f.(*Val); isVal {
				if x, y, ok := boundEquality(v.E, isBound); ok {
					sub := map[string]lang.Expr{y.Name: Ref(x)}
					fs = append(fs[:i:i], fs[i+1:]...)
					for j := range fs {
						fs[j] = SubstTerm(fs[j], sub)
					}
					if isKeep[y.Name] {
						keySub[y.Name] = x
					}
					changed = true
					break
				}
			}
			l, isLift := f.(*Lift)
			if !isLift {
				continue
			}
			val, isVal := l.T.(*Val)
			if !isVal || !allBound(ExprVars(val.E, nil), isBound) {
				continue
			}
			if isBound[l.V.Name] {
				// A lift of a bound variable is an equality test.
				fs[i] = &Val{E: &lang.Binary{Op: "=", L: Ref(l.V), R: val.E, T: lang.TBool}}
				changed = true
				continue
			}
			r, isRef := val.E.(*VarRef)
			if !isRef && (isKeep[l.V.Name] || occursAsBinder(fs, i, l.V.Name)) {
				continue
			}
			sub := map[string]lang.Expr{l.V.Name: val.E}
			fs = append(fs[:i:i], fs[i+1:]...)
			for j := range fs {
				fs[j] = SubstTerm(fs[j], sub)
			}
			if isRef {
				if isKeep[l.V.Name] {
					keySub[l.V.Name] = r.V
					for k, w := range keySub {
						if w.Name == l.V.Name {
							keySub[k] = r.V
						}
					}
				}
			}
			changed = true
			break
		}
	}
	// Fold literal values into the coefficient.
	var kept []Term
	for _, f := range fs {
		if v, isVal := f.(*Val); isVal && v.E.Type() == lang.TBool && alwaysFalse(v.E) {
			return Monomial{}, nil, false
		}
		if v, isVal := f.(*Val); isVal {
			if c, isLit := litValue(v.E); isLit {
				coef *= c
				continue
			}
			if c, isConst := ConstBool(v.E); isConst {
				// {1 != 0}: a padded row flag's presence test after its lift.
				if !c {
					return Monomial{}, nil, false
				}
				continue
			}
			if b, isCmp := v.E.(*lang.Binary); isCmp && b.Op == "=" && ExprString(b.L) == ExprString(b.R) {
				continue
			}
		}
		kept = append(kept, f)
	}
	if coef == 0 {
		return Monomial{}, nil, false
	}
	return Monomial{Coef: coef, Factors: kept}, keySub, true
}

// boundEquality matches x = y (either way round) with x bound and y an
// unbound variable of the same type.
func boundEquality(e lang.Expr, isBound map[string]bool) (x, y Var, ok bool) {
	b, isBin := e.(*lang.Binary)
	if !isBin || b.Op != "=" {
		return Var{}, Var{}, false
	}
	l, lok := b.L.(*VarRef)
	r, rok := b.R.(*VarRef)
	if !lok || !rok || l.V.Type != r.V.Type {
		return Var{}, Var{}, false
	}
	switch {
	case isBound[l.V.Name] && !isBound[r.V.Name]:
		return l.V, r.V, true
	case isBound[r.V.Name] && !isBound[l.V.Name]:
		return r.V, l.V, true
	}
	return Var{}, Var{}, false
}

func allBound(vs []Var, isBound map[string]bool) bool {
	for _, v := range vs {
		if !isBound[v.Name] {
			return false
		}
	}
	return true
}

// occursAsBinder reports whether name occurs in a variable position (a
// relation or map argument, a lift target, a group variable) of a factor
// other than fs[skip]; an expression cannot be substituted there.
func occursAsBinder(fs []Term, skip int, name string) bool {
	found := false
	for i, f := range fs {
		if i == skip {
			continue
		}
		Walk(f, func(u Term) {
			switch x := u.(type) {
			case *Rel:
				found = found || hasVar(x.Vars, name)
			case *MapRef:
				found = found || hasVar(x.Keys, name)
			case *Lift:
				found = found || x.V.Name == name
			case *AggSum:
				found = found || hasVar(x.Group, name)
			}
		})
	}
	return found
}

// SubstTerm replaces variables in t. A substitution into a variable position
// (relation or map argument, lift target, group variable) must be a *VarRef.
func SubstTerm(t Term, sub map[string]lang.Expr) Term {
	if len(sub) == 0 {
		return t
	}
	subVar := func(v Var) Var {
		if r, ok := sub[v.Name]; ok {
			if ref, ok := r.(*VarRef); ok {
				return ref.V
			}
			panic("calculus.SubstTerm: expression substituted for a variable in binding position: " + v.Name)
		}
		return v
	}
	subVars := func(vs []Var) []Var {
		out := make([]Var, len(vs))
		for i, v := range vs {
			out[i] = subVar(v)
		}
		return out
	}
	switch x := t.(type) {
	case *Rel:
		return &Rel{Name: x.Name, Vars: subVars(x.Vars)}
	case *MapRef:
		return &MapRef{Name: x.Name, Keys: subVars(x.Keys), Type: x.Type}
	case *Val:
		return &Val{E: SubstExpr(x.E, sub)}
	case *Sum:
		ts := make([]Term, len(x.Terms))
		for i, u := range x.Terms {
			ts[i] = SubstTerm(u, sub)
		}
		return &Sum{Terms: ts}
	case *Prod:
		ts := make([]Term, len(x.Factors))
		for i, u := range x.Factors {
			ts[i] = SubstTerm(u, sub)
		}
		return &Prod{Factors: ts}
	case *Neg:
		return &Neg{T: SubstTerm(x.T, sub)}
	case *AggSum:
		return &AggSum{Group: subVars(x.Group), T: SubstTerm(x.T, sub)}
	case *Lift:
		return &Lift{V: subVar(x.V), T: SubstTerm(x.T, sub)}
	case *Exists:
		return &Exists{T: SubstTerm(x.T, sub)}
	case *Extreme:
		return &Extreme{Max: x.Max, Arg: subVar(x.Arg), T: SubstTerm(x.T, sub), Hol: x.Hol}
	}
	return t
}

// Combine merges monomials with the same factors (as printed) by adding
// their coefficients, dropping those that cancel. Order of first occurrence
// is kept.
func Combine(ms []Monomial) []Monomial {
	idx := map[string]int{}
	var out []Monomial
	for _, m := range ms {
		k := factorsKey(m.Factors)
		if i, ok := idx[k]; ok {
			out[i].Coef += m.Coef
			continue
		}
		idx[k] = len(out)
		out = append(out, m)
	}
	kept := out[:0]
	for _, m := range out {
		if m.Coef != 0 {
			kept = append(kept, m)
		}
	}
	return kept
}

func factorsKey(fs []Term) string {
	ss := make([]string, len(fs))
	for i, f := range fs {
		ss[i] = String(f)
	}
	sort.Strings(ss)
	return strings.Join(ss, " * ")
}

// Simplify expands t into monomials, simplifies each (no variable is bound
// from outside) and returns their sum. Deltas are printed through it.
func Simplify(t Term, bound []Var) Term {
	if a, ok := t.(*AggSum); ok {
		var terms []Term
		for _, m := range Expand(a.T) {
			sm, ks, ok := SimplifyMonomial(m, bound, a.Group)
			if !ok {
				continue
			}
			g := make([]Var, len(a.Group))
			for i, v := range a.Group {
				if w, ok := ks[v.Name]; ok {
					v = w
				}
				g[i] = v
			}
			terms = append(terms, &AggSum{Group: g, T: sm.Term(TypeOf(a.T))})
		}
		return mkSum(terms)
	}
	var terms []Term
	for _, m := range Combine(Expand(t)) {
		if sm, _, ok := SimplifyMonomial(m, bound, nil); ok {
			terms = append(terms, sm.Term(TypeOf(t)))
		}
	}
	return mkSum(terms)
}

// Flatten expands t into monomials and inlines every AggSum factor whose
// summed-away variables occur in no other factor of its monomial: the
// product then sums them away itself. A derived table without aggregates
// (or a UNION ALL of them) thus joins the enclosing query's relations
// instead of being maintained as a nested aggregate.
func Flatten(t Term) Term {
	var out []Term
	var typ = TypeOf(t)
	for _, m := range flattenMonomials(Expand(t)) {
		out = append(out, m.Term(typ))
	}
	return mkSum(out)
}

func flattenMonomials(ms []Monomial) []Monomial {
	var out []Monomial
	for _, m := range ms {
		done := true
		for i, f := range m.Factors {
			a, ok := f.(*AggSum)
			if !ok {
				continue
			}
			others := map[string]bool{}
			for j, g := range m.Factors {
				if j != i {
					for _, v := range Vars(g) {
						others[v.Name] = true
					}
				}
			}
			clash := false
			for _, v := range Vars(a.T) {
				if !hasVar(a.Group, v.Name) && others[v.Name] {
					clash = true
				}
			}
			if clash {
				continue
			}
			for _, inner := range Expand(a.T) {
				fs := append(append(append([]Term{}, m.Factors[:i]...), inner.Factors...), m.Factors[i+1:]...)
				out = append(out, flattenMonomials([]Monomial{{Coef: m.Coef * inner.Coef, Factors: fs}})...)
			}
			done = false
			break
		}
		if done {
			out = append(out, m)
		}
	}
	return out
}

// alwaysFalse recognizes conditions that substitution made contradictory,
// such as x = 'A' AND x = 'B' (a self-join's ΔA·ΔB term binds both sides to
// one tuple).
func alwaysFalse(e lang.Expr) bool {
	b, ok := e.(*lang.Binary)
	if !ok {
		return false
	}
	switch b.Op {
	case "<", ">":
		// x < x is false for every value, NaN and NULL included (BrokerSpread's
		// {t > t}, the event's tuple compared with itself).
		return ExprString(b.L) == ExprString(b.R)
	case "OR":
		return alwaysFalse(b.L) && alwaysFalse(b.R)
	case "AND":
		if alwaysFalse(b.L) || alwaysFalse(b.R) {
			return true
		}
		eqs := map[string]string{}
		conflict := false
		for _, c := range []lang.Expr{b.L, b.R} {
			for _, x := range andTerms(c) {
				eq, ok := x.(*lang.Binary)
				if !ok || eq.Op != "=" {
					continue
				}
				l, isLit := eq.R.(*lang.Lit)
				if !isLit {
					continue
				}
				k, v := ExprString(eq.L), LitString(l)
				if old, seen := eqs[k]; seen && old != v {
					conflict = true
				}
				eqs[k] = v
			}
		}
		return conflict
	}
	return false
}

func andTerms(e lang.Expr) []lang.Expr {
	if b, ok := e.(*lang.Binary); ok && b.Op == "AND" {
		return append(andTerms(b.L), andTerms(b.R)...)
	}
	return []lang.Expr{e}
}

// ConstBool evaluates a condition without variables built from integer
// literals: comparisons of two of them (trueExpr and falseExpr are 0 = 0
// and 0 != 0), NOT, AND and OR. ok is false for anything else, also for
// x OR TRUE.
func ConstBool(e lang.Expr) (value, ok bool) {
	switch x := e.(type) {
	case *lang.Unary:
		if x.Op == "NOT" {
			v, ok := ConstBool(x.X)
			return !v, ok
		}
	case *lang.Binary:
		switch x.Op {
		case "AND", "OR":
			// Both sides must be constant: code generated for x OR TRUE
			// still reads x's variables, which the loops binding them
			// expect.
			l, lok := ConstBool(x.L)
			r, rok := ConstBool(x.R)
			if !lok || !rok {
				return false, false
			}
			if x.Op == "AND" {
				return l && r, true
			}
			return l || r, true
		}
		l, lok := x.L.(*lang.Lit)
		r, rok := x.R.(*lang.Lit)
		if !lok || !rok || l.T != lang.TInt || r.T != lang.TInt || l.Null || r.Null {
			return false, false
		}
		switch x.Op {
		case "=":
			return l.Int == r.Int, true
		case "!=", "<>":
			return l.Int != r.Int, true
		case "<":
			return l.Int < r.Int, true
		case "<=":
			return l.Int <= r.Int, true
		case ">":
			return l.Int > r.Int, true
		case ">=":
			return l.Int >= r.Int, true
		}
	}
	return false, false
}

// FoldBool simplifies the constant parts of a condition's AND, OR and NOT
// tree (ConstBool): TRUE AND x is x, FALSE OR x is x; x AND FALSE and
// x OR TRUE stay (x's variables are read). Other expressions are returned
// as they are.
func FoldBool(e lang.Expr) lang.Expr {
	if v, ok := ConstBool(e); ok {
		if v {
			return trueExpr()
		}
		return falseExpr()
	}
	switch x := e.(type) {
	case *lang.Unary:
		if x.Op == "NOT" {
			// Folding never makes a non-constant operand constant, so
			// NOT of a constant was decided above.
			y := *x
			y.X = FoldBool(x.X)
			return &y
		}
	case *lang.Binary:
		if x.Op != "AND" && x.Op != "OR" {
			return e
		}
		l, r := FoldBool(x.L), FoldBool(x.R)
		neutral := x.Op == "AND" // TRUE AND x, FALSE OR x
		if v, ok := ConstBool(l); ok && v == neutral {
			return r
		}
		if v, ok := ConstBool(r); ok && v == neutral {
			return l
		}
		y := *x
		y.L, y.R = l, r
		return &y
	}
	return e
}
