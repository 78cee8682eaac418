package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Ordered-set aggregates (PERCENTILE_CONT, PERCENTILE_DISC, MODE). viewlet
// gives each, like MIN and MAX, a map counting the rows of each (group,
// value); generated code keeps an index over that map's entries and reads
// the aggregate from it in O(log n) for a group of n distinct values:
//
//   - a percentile from a range-sum index of the counts by group, ordered
//     by value (runtime.RangeSumIndex), whose subtree sums make the value
//     at a rank one descent (Select): the group's count is its Total, the
//     ranks come from runtime.ContRanks or runtime.DiscRank;
//   - MODE from a runtime.ModeIndex, which keeps per group the multiset of
//     its values' counts and, per (group, count), the values with that
//     count.
//
// Both indexes are updated with every change of the map's entries, O(log n)
// per update.

// holistic emits the code that reads the ordered-set aggregate ex.Hol of
// the values of ex.Arg counted by ex.T, one map's entries grouped by bound
// keys (see extremeMap), into best (the zero value when there is none).
func (g *gen) holistic(ex *calculus.Extreme, best string, sc scope) ([]jen.Code, error) {
	r, pos, guards, ok := g.extremeMap(ex, sc)
	if !ok || g.maps[r.Name].m.Type != lang.TInt {
		return nil, fmt.Errorf("codegen: %s of %s over %s: not the entries of one counting map", ex.Hol, ex.Arg.Name, calculus.String(ex.T))
	}
	cond, err := g.guardCond(guards, sc)
	if err != nil {
		return nil, err
	}
	// inGuard runs the read only where the guards hold.
	inGuard := func(read ...jen.Code) []jen.Code {
		if cond == nil {
			return read
		}
		return []jen.Code{jen.If(cond).Block(read...)}
	}
	mi := g.maps[r.Name]
	var group []int
	var vals []jen.Code
	for i, k := range r.Keys {
		if c, bound := sc[k.Name]; bound {
			group = append(group, i)
			vals = append(vals, c.Clone())
		}
	}
	var gkey jen.Code
	if len(group) > 0 {
		gkey = g.keyValue(subVars(mi.m.Keys, group), vals)
	}
	h := ex.Hol
	if h.Fn == "MODE" {
		key := gkey
		if key == nil {
			key = jen.Struct().Values()
		}
		read := jen.Id("e").Dot(mi.field).Dot(modeName(mi, mi.modeFor(group, pos))).Dot("Mode").Call(key, jen.Lit(h.Desc))
		if cond == nil {
			return []jen.Code{jen.List(jen.Id(best), jen.Id("_")).Op(":=").Add(read)}, nil
		}
		return append([]jen.Code{jen.Var().Id(best).Add(goType(ex.Arg.Type))}, inGuard(jen.List(jen.Id(best), jen.Id("_")).Op("=").Add(read))...), nil
	}
	ix := mi.rangeFor(group, pos)
	call := func(fn string, args ...jen.Code) *jen.Statement {
		if gkey != nil {
			args = append([]jen.Code{gkey}, args...)
		}
		return g.rangeCall(mi, ix, fn, args...)
	}
	n := g.fresh("n")
	if h.Fn == "PERCENTILE_DISC" {
		return append([]jen.Code{jen.Var().Id(best).Add(goType(ex.Arg.Type))}, inGuard(
			jen.If(jen.Id(n).Op(":=").Add(call("Total")), jen.Id(n).Op(">").Lit(0)).Block(
				jen.Id(best).Op("=").Add(call("Select", jen.Qual(runtimePkg, "DiscRank").Call(jen.Id(n), jen.Lit(h.Frac), jen.Lit(h.Desc))))))...), nil
	}
	a, b, f := g.fresh("a"), g.fresh("b"), g.fresh("f")
	return append([]jen.Code{jen.Var().Id(best).Float64()}, inGuard(
		jen.If(jen.Id(n).Op(":=").Add(call("Total")), jen.Id(n).Op(">").Lit(0)).Block(
			jen.List(jen.Id(a), jen.Id(b), jen.Id(f)).Op(":=").Qual(runtimePkg, "ContRanks").Call(jen.Id(n), jen.Lit(h.Frac), jen.Lit(h.Desc)),
			jen.Id(best).Op("=").Qual(runtimePkg, "Interpolate").Call(
				jen.Float64().Call(call("Select", jen.Id(a))), jen.Float64().Call(call("Select", jen.Id(b))), jen.Id(f))))...), nil
}

// modeFor returns the number of the mode index by group of the key at
// position val, planning it if needed.
func (mi *mapInfo) modeFor(group []int, val int) int {
	for i, o := range mi.modes {
		if o.val == val && equalInts(o.group, group) {
			return i
		}
	}
	mi.modes = append(mi.modes, ordIndex{group: group, val: val})
	return len(mi.modes) - 1
}

func modeName(mi *mapInfo, i int) string { return fmt.Sprintf("mode%d", i) }

// modeKey is the group key of mode index o for the entry with key k.
func (g *gen) modeKey(mi *mapInfo, o ordIndex) jen.Code {
	if len(o.group) == 0 {
		return jen.Struct().Values()
	}
	return g.partialKey(mi.m, o.group)
}

// modeFields declares the mode indexes of a map; their zero values are
// empty.
func (g *gen) modeFields(mi *mapInfo) []jen.Code {
	var fields []jen.Code
	m := mi.m
	for i, o := range mi.modes {
		kt := jen.Struct()
		if len(o.group) > 0 {
			kt = g.keyType(subVars(m.Keys, o.group)).(*jen.Statement)
		}
		fields = append(fields, jen.Id(modeName(mi, i)).Qual(runtimePkg, "ModeIndex").Types(kt, goType(m.Keys[o.val].Type)).Commentf("MODE of %s by %s", m.Keys[o.val].Name, varNames(subVars(m.Keys, o.group))))
	}
	return fields
}

// modeUpdates adds the delta v of the entry with key k to the mode indexes
// of a map (an INT map: the counts).
func (g *gen) modeUpdates(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i, o := range mi.modes {
		code = append(code, jen.Id("m").Dot(modeName(mi, i)).Dot("Add").Call(g.modeKey(mi, o), keyField(jen.Id("k"), len(mi.m.Keys), o.val), jen.Id("v")))
	}
	return code
}

// modeRemoves removes the entry with key k from the mode indexes of a map.
func (g *gen) modeRemoves(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i, o := range mi.modes {
		code = append(code, jen.Id("m").Dot(modeName(mi, i)).Dot("Set").Call(g.modeKey(mi, o), keyField(jen.Id("k"), len(mi.m.Keys), o.val), jen.Lit(0)))
	}
	return code
}

func (g *gen) modeResets(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i := range mi.modes {
		code = append(code, jen.Id("m").Dot(modeName(mi, i)).Dot("Reset").Call())
	}
	return code
}
