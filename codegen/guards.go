package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// Guard hoisting. The statements of a trigger often test the same
// conditions of the event's arguments: TPC-H Q6's SUM and the row count
// that makes it NULL over no rows both filter on l_shipdate, l_discount and
// l_quantity, and in dialect sql every nullable column adds a presence
// test. A trigger's body is a list of units, one per monomial in statement
// order; each unit's leading conditions over the arguments (split at AND,
// each kept once) are its guards, and consecutive units that share a
// prefix of guards test it once:
//
//	if l_shipdate >= 1994-01-01 { if … { count += 1; revenue += … } }
//
// instead of two nests that evaluate the same comparisons. Conditions are
// pure, so testing one before units that do not depend on it, or once for
// several units, changes nothing but the work; the units still run in
// statement order.

// unit is one monomial of a statement (or, with mono nil, the clearing of
// a replaced target), its guards hoisted out of its factors.
type unit struct {
	s      *viewlet.Stmt
	mono   *calculus.Monomial // the factors left after the guards
	guards []lang.Expr
	keys   []string // calculus.String of each guard, to compare them
}

// units splits the statements ss of a trigger into units.
func (g *gen) units(ss []*viewlet.Stmt, sc scope) []unit {
	var us []unit
	for _, s := range ss {
		if s.Replace {
			us = append(us, unit{s: s})
		}
		for _, mono := range s.RHS {
			if zeroProduct(mono.Factors) {
				continue // a FALSE condition of literals: nothing to add
			}
			u := unit{s: s}
			rest := mono
			rest.Factors = nil
			hoisting := true
			for _, f := range mono.Factors {
				v, ok := f.(*calculus.Val)
				if hoisting && ok && v.E.Type() == lang.TBool && boundIn(v, sc) {
					for _, c := range conjuncts(v.E) {
						if _, lit := calculus.ConstBool(c); lit {
							continue // TRUE (FALSE made the product zero above)
						}
						k := calculus.String(&calculus.Val{E: c})
						if !hasString(u.keys, k) {
							u.guards, u.keys = append(u.guards, c), append(u.keys, k)
						}
					}
					continue
				}
				hoisting = false
				rest.Factors = append(rest.Factors, f)
			}
			u.mono = &rest
			us = append(us, u)
		}
	}
	return us
}

// emitUnits emits units whose first depth guards are tested already:
// each run of consecutive units sharing their next guard tests it once.
func (g *gen) emitUnits(us []unit, depth int, sc scope) ([]jen.Code, error) {
	var out []jen.Code
	for i := 0; i < len(us); {
		u := us[i]
		if len(u.guards) <= depth {
			if u.mono == nil {
				out = append(out, g.stmtClear(u.s, sc)...)
			} else {
				code, err := g.stmtMonomial(u.s, *u.mono, sc)
				if err != nil {
					return nil, &unitError{s: u.s, err: err}
				}
				if len(code) == 1 {
					// One statement declares nothing its siblings could see.
					out = append(out, code[0])
				} else {
					out = append(out, jen.Block(code...))
				}
			}
			i++
			continue
		}
		j := i + 1
		for j < len(us) && len(us[j].guards) > depth && us[j].keys[depth] == u.keys[depth] {
			j++
		}
		inner, err := g.emitUnits(us[i:j], depth+1, sc)
		if err != nil {
			return nil, err
		}
		cond, err := g.expr(u.guards[depth], sc)
		if err != nil {
			return nil, &unitError{s: u.s, err: err}
		}
		out = append(out, jen.If(cond).Block(inner...))
		i = j
	}
	return out, nil
}

// unitError is an error of the code of one statement.
type unitError struct {
	s   *viewlet.Stmt
	err error
}

func (e *unitError) Error() string { return e.err.Error() }
func (e *unitError) Unwrap() error { return e.err }

// conjuncts splits a condition at its top-level ANDs.
func conjuncts(e lang.Expr) []lang.Expr {
	if b, ok := e.(*lang.Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []lang.Expr{e}
}

// boundIn reports whether every variable of v is bound in sc.
func boundIn(v *calculus.Val, sc scope) bool {
	for _, x := range calculus.Vars(v) {
		if _, ok := sc[x.Name]; !ok {
			return false
		}
	}
	return true
}

func hasString(ss []string, s string) bool {
	for _, t := range ss {
		if t == s {
			return true
		}
	}
	return false
}
