package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/viewlet"
)

// Top-K views: a view with a LIMIT keeps its rows in a runtime.SortedSet in
// the view's order (compare<View>Rows), weighed by their multiplicity in a
// bag view, so that reading the window of the LIMIT costs O(log n + k) and
// Get O(log n), for a view of n rows.
//
// The set follows the view's maps: every map the view reads records, in
// the storage methods that change an entry (add, set, remove, reset), the
// view key of the entry in the Engine's <view>Touched list (a key once for
// a run of changes to it); the trigger methods end by repositioning the
// rows of the touched keys (<view>Reorder): each row is recomputed from the
// maps and, if it changed, deleted from the set and inserted again,
// O(log n). <view>Placed holds the row each key has in the set. A trigger
// that changes k rows of the view thus does O(k log n) more work.
//
// This needs every map the view reads to be keyed by the view's keys (its
// aggregates; its MIN, MAX and ordered-set aggregates' counts by group and
// value), so that a changed entry names the one row it changes. A view that
// reads a map by fewer keys (a subquery's aggregate in SELECT or HAVING,
// uncorrelated or correlated with some group keys only, a window's
// partition) or reads other rows' entries (a running window), whose change
// may move every row, and a scalar view (one row), are ordered when read
// instead (ordered.go). The maps a top-K view reads are not fused into
// tables.

// touchHook records, in a map's storage, the view keys of changed entries
// for a top-K view: the first n keys of the map's key.
type touchHook struct {
	v *viewlet.View
	n int
}

// topIndexed reports whether view v keeps its rows in a sorted set.
func topIndexed(v *viewlet.View) bool {
	if v.Limit == nil || v.Scalar || len(rangeRefs(v)) > 0 {
		return false // a running sum reads other rows' entries too
	}
	n := v.MapKeys()
	for i, m := range v.Aggs {
		if m == nil {
			continue
		}
		if _, partial := v.AggKeys[i]; partial || len(m.Keys) < n {
			return false
		}
	}
	return true
}

// planTouches plans the touch hooks of the maps of top-K views.
func (g *gen) planTouches() {
	for _, mi := range g.maps {
		mi.touch = nil
	}
	for _, v := range g.p.Views {
		if !topIndexed(v) {
			continue
		}
		seen := map[string]bool{}
		for _, m := range v.Aggs {
			if m == nil || seen[m.Name] {
				continue
			}
			seen[m.Name] = true
			mi := g.maps[m.Name]
			mi.touch = append(mi.touch, touchHook{v: v, n: v.MapKeys()})
		}
	}
}

// topNames are the Engine members of a top-K view.
type topNames struct {
	touched, set, placed, reorder string
}

func topNamesOf(v *viewlet.View) topNames {
	lv := lowerFirst(viewStem(v.Name, v.Named))
	return topNames{touched: lv + "Touched", set: lv + "Top", placed: lv + "Placed", reorder: lv + "Reorder"}
}

// viewKeyVars are the variables of a view's map keys: its keys, then the
// presence flags of those that may be NULL.
func viewKeyVars(v *viewlet.View) []calculus.Var {
	var vars []calculus.Var
	for _, k := range v.Keys {
		vars = append(vars, k.Var)
	}
	for _, k := range v.Keys {
		if k.Present.Name != "" {
			vars = append(vars, k.Present)
		}
	}
	return vars
}

// touchFields declares a map's touch hooks: pointers to the Touched lists
// of the views (set by New).
func (g *gen) touchFields(mi *mapInfo) []jen.Code {
	var fields []jen.Code
	for i, h := range mi.touch {
		fields = append(fields, jen.Id(fmt.Sprintf("touched%d", i)).Op("*").Index().Add(g.keyType(viewKeyVars(h.v))).Commentf("keys of view %s whose rows may have changed", h.v.Name))
	}
	return fields
}

// touches records, for each touch hook of map mi, the view key of the
// entry with key k (held in the storage method's variable k).
func (g *gen) touches(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i, h := range mi.touch {
		var key jen.Code = jen.Id("k")
		if h.n < len(mi.m.Keys) {
			pos := make([]int, h.n)
			for j := range pos {
				pos[j] = j
			}
			key = jen.Parens(g.partialKey(mi.m, pos)) // a composite literal in an if header
		}
		t := jen.Id("t")
		code = append(code, jen.If(
			jen.List(t.Clone(), jen.Id("tk")).Op(":=").List(jen.Id("m").Dot(fmt.Sprintf("touched%d", i)), key),
			jen.Len(jen.Op("*").Add(t.Clone())).Op("==").Lit(0).Op("||").Parens(jen.Op("*").Add(t.Clone())).Index(jen.Len(jen.Op("*").Add(t.Clone())).Op("-").Lit(1)).Op("!=").Id("tk")).Block(
			jen.Op("*").Add(t.Clone()).Op("=").Append(jen.Op("*").Add(t.Clone()), jen.Id("tk"))))
	}
	return code
}

// touchAll records every entry of map mi (before a reset).
func (g *gen) touchAll(mi *mapInfo) []jen.Code {
	if len(mi.touch) == 0 {
		return nil
	}
	return []jen.Code{jen.For(jen.Id("k").Op(":=").Range().Add(rangeIndex(mi.index(), jen.Id("m")))).Block(g.touches(mi)...)}
}

// topEngineFields declares the Engine members of the top-K views.
func (g *gen) topEngineFields() []jen.Code {
	var fields []jen.Code
	for _, v := range g.p.Views {
		if !topIndexed(v) {
			continue
		}
		n := topNamesOf(v)
		row := viewStem(v.Name, v.Named) + "Row"
		kt := g.keyType(viewKeyVars(v))
		fields = append(fields,
			jen.Commentf("The rows of view %s in its order (top-K: see %s).", v.Name, n.reorder),
			jen.Id(n.set).Op("*").Qual(runtimePkg, "SortedSet").Types(jen.Id(row)),
			jen.Id(n.placed).Map(kt).Id(row),
			jen.Id(n.touched).Index().Add(kt),
		)
	}
	return fields
}

// topEngineInits initializes the Engine members of the top-K views.
func (g *gen) topEngineInits(d jen.Dict) {
	for _, v := range g.p.Views {
		if !topIndexed(v) {
			continue
		}
		n := topNamesOf(v)
		d[jen.Id(n.set)] = jen.Qual(runtimePkg, "NewSortedSet").Call(jen.Id("compare" + viewStem(v.Name, v.Named) + "Rows"))
		d[jen.Id(n.placed)] = jen.Make(jen.Map(g.keyType(viewKeyVars(v))).Id(viewStem(v.Name, v.Named) + "Row"))
	}
}

// topHookups points the maps' touch hooks at the Engine's lists (in New,
// before any entry is added).
func (g *gen) topHookups() []jen.Code {
	var code []jen.Code
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		for i, h := range mi.touch {
			code = append(code, jen.Id("e").Dot(mi.field).Dot(fmt.Sprintf("touched%d", i)).Op("=").Op("&").Id("e").Dot(topNamesOf(h.v).touched))
		}
	}
	return code
}

// topReorders repositions the touched rows of the top-K views whose maps
// the statements ss update (nil: of every top-K view).
func (g *gen) topReorders(ss []*viewlet.Stmt) []jen.Code {
	var code []jen.Code
	for _, v := range g.p.Views {
		if !topIndexed(v) {
			continue
		}
		reads := ss == nil
		for _, s := range ss {
			for _, m := range v.Aggs {
				if m != nil && m.Name == s.Map.Name {
					reads = true
				}
			}
		}
		if reads {
			n := topNamesOf(v)
			code = append(code, jen.If(jen.Len(jen.Id("e").Dot(n.touched)).Op(">").Lit(0)).Block(jen.Id("e").Dot(n.reorder).Call()))
		}
	}
	return code
}

// topAccessors emits the accessors of a top-K view: Reorder, the window
// (<View>, <View>Rows) and Get.
func (g *gen) topAccessors(v *viewlet.View, row string, valFields []string, getParams, getArgs []jen.Code) {
	vn := viewStem(v.Name, v.Named)
	lower := rowMethod(v)
	n := topNamesOf(v)
	keyVars := viewKeyVars(v)
	kargs := make([]jen.Code, len(keyVars))
	for i := range keyVars {
		kargs[i] = keyField(jen.Id("k"), len(keyVars), i)
	}
	weight := jen.Lit(1)
	if v.Bag {
		weight = jen.Id("r").Dot(valFields[0])
	}
	e := func(f string) *jen.Statement { return jen.Id("e").Dot(f) }
	g.f.Commentf("%s moves the rows of the touched keys of view %s to their place in its order.", n.reorder, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(n.reorder).Params().Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(e(n.touched))).Block(
			jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(kargs...),
			jen.List(jen.Id("old"), jen.Id("had")).Op(":=").Add(e(n.placed)).Index(jen.Id("k")),
			jen.If(jen.Id("had").Op("&&").Id("ok").Op("&&").Id("old").Op("==").Id("r")).Block(jen.Continue()),
			jen.If(jen.Id("had")).Block(
				e(n.set).Dot("Delete").Call(jen.Id("old")),
				jen.Delete(e(n.placed), jen.Id("k"))),
			jen.If(jen.Id("ok")).Block(
				e(n.set).Dot("Insert").Call(jen.Id("r"), weight),
				e(n.placed).Index(jen.Id("k")).Op("=").Id("r"))),
		e(n.touched).Op("=").Add(e(n.touched)).Index(jen.Empty(), jen.Lit(0)))

	off, cnt := jen.Lit(int(v.Limit.Offset)), jen.Lit(int(v.Limit.Count))
	// A bag view's row shows the part of its multiplicity in the window.
	vars := jen.Id("r")
	var shown []jen.Code
	if v.Bag {
		vars = jen.List(jen.Id("r"), jen.Id("w"))
		shown = append(shown, jen.Id("r").Dot(valFields[0]).Op("=").Id("w"))
	}
	g.f.Commentf("%s returns the rows of view %s of its LIMIT, in order (%s): O(log n + k).", vn, v.Name, orderText(v))
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn).Params().Index().Id(row).Block(
		jen.Var().Id("rows").Index().Id(row),
		jen.For(vars.Clone().Op(":=").Range().Add(e(n.set)).Dot("Window").Call(off, cnt)).Block(
			append(shown, jen.Id("rows").Op("=").Append(jen.Id("rows"), jen.Id("r")))...),
		jen.Return(jen.Id("rows")))
	g.f.Commentf("%sRows iterates over the rows of view %s of its LIMIT, in order.", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn+"Rows").Params().Qual("iter", "Seq").Types(jen.Id(row)).Block(
		jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(jen.Id(row)).Bool()).Block(
			jen.For(vars.Clone().Op(":=").Range().Add(e(n.set)).Dot("Window").Call(off, cnt)).Block(
				append(shown, jen.If(jen.Op("!").Id("yield").Call(jen.Id("r"))).Block(jen.Return()))...))))
	get := []jen.Code{
		jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(getArgs...),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Id("r"), jen.False())),
		jen.Id("w").Op(":=").Add(e(n.set)).Dot("Shown").Call(jen.Id("r"), off, cnt),
	}
	get = append(get, jen.If(jen.Id("w").Op("==").Lit(0)).Block(jen.Return(jen.Id(row).Values(), jen.False())))
	if v.Bag {
		get = append(get, jen.Id("r").Dot(valFields[0]).Op("=").Id("w"))
	}
	get = append(get, jen.Return(jen.Id("r"), jen.True()))
	g.f.Commentf("%sGet returns the row of view %s with the given key, if its LIMIT shows it: O(log n).", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn+"Get").Params(getParams...).Params(jen.Id(row), jen.Bool()).Block(get...)
}
