package codegen

import (
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Numbers in generated code.
//
// INT maps hold int64 sums. In the statements of a trigger every integer
// addition to a map or to a nested sum, every integer product and every
// integer +, − and × of an expression is checked (runtime.AddInt, SubInt,
// MulInt): on overflow the result wraps and e.overflow is set, and the
// trigger method, when the statements are done, undoes the event by
// running the inverse trigger and returns a *runtime.EventError (see
// triggers). Wrapping arithmetic is a ring, and the maps' values are
// polynomials in the base tuples, so the inverse trigger restores every
// INT map exactly, and with them the MIN/MAX multisets and the presence
// that COUNT(DISTINCT) counts. Expressions read out of views (SUM(a) * 2
// in a SELECT list) are not checked: they wrap.
//
// FLOAT maps hold compensated sums (runtime.FloatSum): an entry's value is
// read as the sum plus its compensation, and an entry whose value comes
// back to exactly 0 is removed. Nested sums within an event, the scratch
// maps of grouped sums and the range-sum indexes (set to the entries'
// values) add plain float64s.
//
// A counter map is the exception (counterMaps): an INT map that every
// statement writing it adds a constant to, with conditions only — COUNT(*)
// of a relation, the non-NULL count beside a SUM. Its entries change by at
// most counterStep per trigger run, and each call of a trigger method runs
// at most two triggers (the event and its undo), so no entry can leave
// int64 before 2^59 events (18 years at a billion events a second): its
// adds are plain, unchecked.

// counterStep bounds the change of a counter map per trigger run.
const counterStep = 8

// counterMaps marks the counter maps of the program (see above).
func (g *gen) counterMaps() {
	step := map[string]float64{} // per map, the largest change in one trigger
	bad := map[string]bool{}
	for _, t := range g.p.Triggers {
		run := map[string]float64{}
		for _, s := range t.Stmts {
			if s.Map.Type != lang.TInt || s.Replace {
				bad[s.Map.Name] = true
				continue
			}
			for _, mono := range s.RHS {
				if !constantFactors(mono.Factors) {
					bad[s.Map.Name] = true
				}
				run[s.Map.Name] += math.Abs(mono.Coef)
			}
		}
		for m, n := range run {
			step[m] = math.Max(step[m], n)
		}
	}
	for _, m := range g.p.Maps {
		if math.Abs(m.Init) > counterStep || len(m.InitEntries) > 0 {
			bad[m.Name] = true
		}
	}
	for name, n := range step {
		if mi := g.maps[name]; mi != nil && !bad[name] && n <= counterStep {
			mi.counter = true
		}
	}
}

// constantFactors reports whether a monomial's factors are conditions and
// lifts of scalar expressions: its value is its coefficient or 0.
func constantFactors(fs []calculus.Term) bool {
	for _, f := range fs {
		switch x := f.(type) {
		case *calculus.Val:
			if x.E.Type() != lang.TBool {
				return false
			}
		case *calculus.Lift:
			if _, ok := x.T.(*calculus.Val); !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkedArith names the Engine methods of checked integer arithmetic.
var checkedArith = map[string]string{"+": "addInt", "-": "subInt", "*": "mulInt"}

// arith returns the Go expression l op r for op in + − ×, checked when
// it is integer arithmetic in a trigger.
func (g *gen) arith(op string, l, r jen.Code, t lang.Type) *jen.Statement {
	if t == lang.TInt && g.checked {
		g.checks++
		g.helpers[checkedArith[op]] = true
		return jen.Id("e").Dot(checkedArith[op]).Call(l, r)
	}
	return jen.Parens(l).Op(op).Parens(r)
}

// mul multiplies the running product acc (nil: 1) by x, of type t.
func (g *gen) mul(acc *jen.Statement, x jen.Code, t lang.Type) jen.Code {
	if acc == nil {
		return x
	}
	if t == lang.TInt && g.checked {
		return g.arith("*", acc.Clone(), x, t)
	}
	return acc.Clone().Op("*").Parens(x)
}

// times is mul, except that under Exists an entry counts as 1.
func (g *gen) times(acc *jen.Statement, x jen.Code, exists bool, t lang.Type) jen.Code {
	if !exists {
		return g.mul(acc, x, t)
	}
	if acc != nil {
		return acc.Clone()
	}
	if t == lang.TInt {
		return jen.Lit(int64(1))
	}
	return jen.Lit(1.0)
}

// addTo adds x to the local sum name of type t.
func (g *gen) addTo(name string, x jen.Code, t lang.Type) jen.Code {
	if t == lang.TInt && g.checked {
		return jen.Id(name).Op("=").Add(g.arith("+", jen.Id(name), x, t))
	}
	return jen.Id(name).Op("+=").Add(x)
}

// addToMap adds v to the entry key of map mi (key nil for a keyless map),
// recording an overflow of an INT map's sum.
func (g *gen) addToMap(mi *mapInfo, key, v jen.Code) []jen.Code {
	return append(g.addToMapOnly(mi, key, v), g.touchKey(mi, key)...)
}

// addToMapOnly is addToMap without recording the key for change streams.
func (g *gen) addToMapOnly(mi *mapInfo, key, v jen.Code) []jen.Code {
	m := jen.Id("e").Dot(mi.field)
	switch {
	case mi.tab != nil && mi.checkedInt():
		g.checks++
		mi.usesAdd = true
		return []jen.Code{jen.If(m.Dot("add"+mi.stem).Call(key, v)).Block(jen.Id("e").Dot("overflow").Op("=").True())}
	case mi.tab != nil:
		mi.usesAdd = true
		return []jen.Code{m.Dot("add"+mi.stem).Call(key, v)}
	case mi.keyed && mi.checkedInt():
		g.checks++
		return []jen.Code{jen.If(m.Dot("add").Call(key, v)).Block(jen.Id("e").Dot("overflow").Op("=").True())}
	case mi.keyed:
		return []jen.Code{m.Dot("add").Call(key, v)}
	case mi.checkedInt():
		return []jen.Code{m.Clone().Op("=").Add(g.arith("+", m, v, lang.TInt))}
	case mi.m.Type == lang.TInt:
		return []jen.Code{m.Clone().Op("+=").Add(v)}
	}
	return []jen.Code{m.Dot("Add").Call(v)}
}

// keylessValue reads the value of a keyless map.
func keylessValue(mi *mapInfo) *jen.Statement {
	if mi.m.Type == lang.TFloat {
		return jen.Id("e").Dot(mi.field).Dot("Value").Call()
	}
	return jen.Id("e").Dot(mi.field)
}

// valueOf reads the value of a keyed map's stored value v (an entry's val,
// a Go map's element): a runtime.FloatSum is read with Value.
func valueOf(mi *mapInfo, v *jen.Statement) *jen.Statement {
	if mi.m.Type == lang.TFloat {
		return v.Dot("Value").Call()
	}
	return v
}

// storedType is the Go type a map stores its values in.
func storedType(t lang.Type) jen.Code {
	if t == lang.TFloat {
		return jen.Qual(runtimePkg, "FloatSum")
	}
	return goType(t)
}

// arithMethods emits the Engine's checked arithmetic that the triggers use.
func (g *gen) arithMethods() {
	docs := map[string]string{
		"addInt": "addInt returns a + b; on an overflow of int64 it sets e.overflow and the sum wraps.",
		"subInt": "subInt returns a - b; on an overflow of int64 it sets e.overflow and the difference wraps.",
		"mulInt": "mulInt returns a * b; on an overflow of int64 it sets e.overflow and the product wraps.",
	}
	for _, name := range []string{"addInt", "subInt", "mulInt"} {
		if !g.helpers[name] {
			continue
		}
		fn := map[string]string{"addInt": "AddInt", "subInt": "SubInt", "mulInt": "MulInt"}[name]
		g.f.Comment(docs[name])
		g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(name).Params(jen.List(jen.Id("a"), jen.Id("b")).Int64()).Int64().Block(
			jen.List(jen.Id("r"), jen.Id("overflow")).Op(":=").Qual(runtimePkg, fn).Call(jen.Id("a"), jen.Id("b")),
			jen.If(jen.Id("overflow")).Block(jen.Id("e").Dot("overflow").Op("=").True()),
			jen.Return(jen.Id("r")),
		)
	}
}
