package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/viewlet"
)

// mapType emits the storage type of a keyed map and its methods: add
// (with removal of zero entries from every index) and, where the
// generated code calls them, get (point lookup) and reset (clear).
func (g *gen) mapType(mi *mapInfo) {
	m := mi.m
	if len(mi.buffers) > 0 {
		g.f.Commentf("%s is a buffered update of %s.", bufEntry(mi), m.Name)
		var fs []jen.Code
		if mi.keyed {
			fs = append(fs, jen.Id("k").Add(g.keyType(m.Keys)))
		}
		fs = append(fs, jen.Id("v").Add(goType(m.Type)))
		g.f.Type().Id(bufEntry(mi)).Struct(fs...)
	}
	if !mi.keyed {
		return
	}
	kt := g.keyType(m.Keys)
	vt := goType(m.Type)
	recv := jen.Id("m").Op("*").Id(mi.typ)
	ctor := ctorName(mi)
	if !mi.arena() {
		fields := []jen.Code{jen.Id("index").Map(kt).Add(vt)}
		fields = append(fields, g.ordFields(mi)...)
		fields = append(fields, g.rngFields(mi)...)
		switch {
		case len(mi.ordered) > 0 && len(mi.ranges) > 0:
			g.f.Commentf("%s stores map %s[%s] with ordered indexes for MIN/MAX and range sums.", mi.typ, m.Name, varNames(m.Keys))
		case len(mi.ordered) > 0:
			g.f.Commentf("%s stores map %s[%s] with ordered indexes for MIN/MAX.", mi.typ, m.Name, varNames(m.Keys))
		case len(mi.ranges) > 0:
			g.f.Commentf("%s stores map %s[%s] with range-sum indexes.", mi.typ, m.Name, varNames(m.Keys))
		default:
			g.f.Commentf("%s stores map %s[%s].", mi.typ, m.Name, varNames(m.Keys))
		}
		g.f.Type().Id(mi.typ).Struct(fields...)
		g.f.Func().Id(ctor).Params().Op("*").Id(mi.typ).Block(
			jen.Return(jen.Op("&").Id(mi.typ).Values(jen.Dict{jen.Id("index"): jen.Make(jen.Map(kt).Add(vt))})))
		if mi.usesGet {
			g.f.Func().Params(recv).Id("get").Params(jen.Id("k").Add(kt)).Add(vt).Block(
				jen.Return(jen.Id("m").Dot("index").Index(jen.Id("k"))))
		}
		if mi.usesReset {
			g.f.Func().Params(recv).Id("reset").Params().Block(append(append([]jen.Code{jen.Clear(jen.Id("m").Dot("index"))}, g.ordResets(mi)...), g.rngResets(mi)...)...)
		}
		if len(mi.ordered) == 0 {
			g.f.Func().Params(recv).Id("add").Params(jen.Id("k").Add(kt), jen.Id("v").Add(vt)).Block(
				append(append([]jen.Code{jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return())}, g.rngUpdates(mi)...),
					jen.If(jen.Id("v").Op("+=").Id("m").Dot("index").Index(jen.Id("k")), jen.Id("v").Op("==").Lit(0)).Block(
						jen.Delete(jen.Id("m").Dot("index"), jen.Id("k")),
					).Else().Block(
						jen.Id("m").Dot("index").Index(jen.Id("k")).Op("=").Id("v"),
					))...,
			)
			return
		}
		// An entry appearing or disappearing updates the ordered indexes.
		g.f.Func().Params(recv).Id("add").Params(jen.Id("k").Add(kt), jen.Id("v").Add(vt)).Block(append(append(
			[]jen.Code{jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return())}, g.rngUpdates(mi)...),
			jen.List(jen.Id("old"), jen.Id("ok")).Op(":=").Id("m").Dot("index").Index(jen.Id("k")),
			jen.If(jen.Id("v").Op("+=").Id("old"), jen.Id("v").Op("==").Lit(0)).Block(
				append(append([]jen.Code{jen.Delete(jen.Id("m").Dot("index"), jen.Id("k"))}, g.ordUpdates(mi, -1)...), jen.Return())...,
			),
			jen.Id("m").Dot("index").Index(jen.Id("k")).Op("=").Id("v"),
			jen.If(jen.Op("!").Id("ok")).Block(g.ordUpdates(mi, 1)...),
		)...)
		return
	}
	entry := "entry" + mi.stem
	g.f.Commentf("%s is an entry of map %s; pos holds its position in each secondary index.", entry, m.Name)
	g.f.Type().Id(entry).Struct(
		jen.Id("key").Add(kt),
		jen.Id("val").Add(vt),
		jen.Id("pos").Index(jen.Lit(len(mi.indexes))).Int32(),
	)
	var fields []jen.Code
	if mi.usesScratch {
		fields = append(fields, jen.Id("scratch").Index().Add(kt).Comment("keys of a slice being replaced"))
	}
	fields = append(fields,
		jen.Id("entries").Index().Id(entry).Comment("live and free entries"),
		jen.Id("free").Index().Int32().Comment("positions of free entries"),
		jen.Id("index").Map(kt).Int32().Comment("primary index"),
	)
	inits := jen.Dict{jen.Id("index"): jen.Make(jen.Map(kt).Int32())}
	for i, ix := range mi.indexes {
		ikt := g.keyType(subVars(m.Keys, ix))
		fields = append(fields, jen.Id(fmt.Sprintf("idx%d", i)).Map(ikt).Index().Int32().Commentf("by %s", varNames(subVars(m.Keys, ix))))
		inits[jen.Id(fmt.Sprintf("idx%d", i))] = jen.Make(jen.Map(ikt).Index().Int32())
	}
	fields = append(fields, g.ordFields(mi)...)
	fields = append(fields, g.rngFields(mi)...)
	g.f.Commentf("%s stores map %s[%s] with secondary indexes.", mi.typ, m.Name, varNames(m.Keys))
	g.f.Type().Id(mi.typ).Struct(fields...)
	g.f.Func().Id(ctor).Params().Op("*").Id(mi.typ).Block(jen.Return(jen.Op("&").Id(mi.typ).Values(inits)))
	if mi.usesGet {
		g.f.Func().Params(recv).Id("get").Params(jen.Id("k").Add(kt)).Add(vt).Block(
			jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Id("m").Dot("index").Index(jen.Id("k")), jen.Id("ok")).Block(
				jen.Return(jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("val"))),
			jen.Return(jen.Lit(0)),
		)
	}
	resetBody := []jen.Code{
		jen.Id("m").Dot("entries").Op("=").Id("m").Dot("entries").Index(jen.Empty(), jen.Lit(0)),
		jen.Id("m").Dot("free").Op("=").Id("m").Dot("free").Index(jen.Empty(), jen.Lit(0)),
		jen.Clear(jen.Id("m").Dot("index")),
	}
	for i := range mi.indexes {
		ix := jen.Id("m").Dot(fmt.Sprintf("idx%d", i))
		// Keep the slices' capacity: re-evaluation refills them.
		resetBody = append(resetBody, jen.For(jen.List(jen.Id("k"), jen.Id("s")).Op(":=").Range().Add(ix)).Block(
			ix.Clone().Index(jen.Id("k")).Op("=").Id("s").Index(jen.Empty(), jen.Lit(0))))
	}
	resetBody = append(resetBody, g.ordResets(mi)...)
	resetBody = append(resetBody, g.rngResets(mi)...)
	if mi.usesReset {
		g.f.Func().Params(recv).Id("reset").Params().Block(resetBody...)
	}
	partial := func(i int) jen.Code { return g.partialKey(m, mi.indexes[i]) }
	var insert, remove []jen.Code
	for i := range mi.indexes {
		s := fmt.Sprintf("s%d", i)
		last := fmt.Sprintf("last%d", i)
		insert = append(insert,
			jen.Id(s).Op(":=").Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)),
			jen.Id("ent").Dot("pos").Index(jen.Lit(i)).Op("=").Int32().Call(jen.Len(jen.Id(s))),
			jen.Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)).Op("=").Append(jen.Id(s), jen.Id("i")),
		)
		remove = append(remove,
			jen.Id(s).Op(":=").Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)),
			jen.Id(last).Op(":=").Id(s).Index(jen.Len(jen.Id(s)).Op("-").Lit(1)),
			jen.Id(s).Index(jen.Id("ent").Dot("pos").Index(jen.Lit(i))).Op("=").Id(last),
			jen.Id("m").Dot("entries").Index(jen.Id(last)).Dot("pos").Index(jen.Lit(i)).Op("=").Id("ent").Dot("pos").Index(jen.Lit(i)),
			jen.Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)).Op("=").Id(s).Index(jen.Empty(), jen.Len(jen.Id(s)).Op("-").Lit(1)),
		)
	}
	body := append(g.rngUpdates(mi),
		jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Id("m").Dot("index").Index(jen.Id("k")),
		jen.If(jen.Op("!").Id("ok")).Block(append([]jen.Code{
			jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return()),
			jen.If(jen.Id("n").Op(":=").Len(jen.Id("m").Dot("free")), jen.Id("n").Op(">").Lit(0)).Block(
				jen.Id("i").Op("=").Id("m").Dot("free").Index(jen.Id("n").Op("-").Lit(1)),
				jen.Id("m").Dot("free").Op("=").Id("m").Dot("free").Index(jen.Empty(), jen.Id("n").Op("-").Lit(1)),
			).Else().Block(
				jen.Id("i").Op("=").Int32().Call(jen.Len(jen.Id("m").Dot("entries"))),
				jen.Id("m").Dot("entries").Op("=").Append(jen.Id("m").Dot("entries"), jen.Id(entry).Values()),
			),
			jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")),
			jen.List(jen.Id("ent").Dot("key"), jen.Id("ent").Dot("val")).Op("=").List(jen.Id("k"), jen.Id("v")),
			jen.Id("m").Dot("index").Index(jen.Id("k")).Op("=").Id("i"),
		}, append(append(insert, g.ordUpdates(mi, 1)...), jen.Return())...)...),
		jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")),
		jen.Id("ent").Dot("val").Op("+=").Id("v"),
		jen.If(jen.Id("ent").Dot("val").Op("!=").Lit(0)).Block(jen.Return()),
		jen.Delete(jen.Id("m").Dot("index"), jen.Id("k")),
	)
	body = append(body, remove...)
	body = append(body, g.ordUpdates(mi, -1)...)
	body = append(body, jen.Id("m").Dot("free").Op("=").Append(jen.Id("m").Dot("free"), jen.Id("i")))
	g.f.Func().Params(recv).Id("add").Params(jen.Id("k").Add(kt), jen.Id("v").Add(vt)).Block(body...)
}

// partialKey builds the key made of the positions pos of the map key k.
func (g *gen) partialKey(m *viewlet.Map, pos []int) jen.Code {
	vals := make([]jen.Code, len(pos))
	for j, p := range pos {
		vals[j] = keyField(jen.Id("k"), len(m.Keys), p)
	}
	return g.keyValue(subVars(m.Keys, pos), vals)
}

// ordFields declares the ordered indexes of a map (see ordIndex); their
// zero values are empty.
func (g *gen) ordFields(mi *mapInfo) []jen.Code {
	var fields []jen.Code
	for i, o := range mi.ordered {
		m := mi.m
		vt := goType(m.Keys[o.val].Type)
		f := jen.Id(fmt.Sprintf("ord%d", i))
		if len(o.group) == 0 {
			fields = append(fields, f.Qual(runtimePkg, "Multiset").Types(vt).Commentf("MIN/MAX of %s", m.Keys[o.val].Name))
			continue
		}
		ikt := g.keyType(subVars(m.Keys, o.group))
		fields = append(fields, f.Qual(runtimePkg, "OrderedIndex").Types(ikt, vt).Commentf("MIN/MAX of %s by %s", m.Keys[o.val].Name, varNames(subVars(m.Keys, o.group))))
	}
	return fields
}

// ordUpdates adds n (1: the entry with key k appears, -1: it disappears)
// to the ordered indexes of a map.
func (g *gen) ordUpdates(mi *mapInfo, n int) []jen.Code {
	var code []jen.Code
	for i, o := range mi.ordered {
		val := keyField(jen.Id("k"), len(mi.m.Keys), o.val)
		f := jen.Id("m").Dot(fmt.Sprintf("ord%d", i)).Dot("Add")
		if len(o.group) == 0 {
			code = append(code, f.Call(val, jen.Lit(n)))
		} else {
			code = append(code, f.Call(g.partialKey(mi.m, o.group), val, jen.Lit(n)))
		}
	}
	return code
}

func (g *gen) ordResets(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i := range mi.ordered {
		code = append(code, jen.Id("m").Dot(fmt.Sprintf("ord%d", i)).Dot("Reset").Call())
	}
	return code
}

// rngFields declares the range-sum indexes of a map (see rangeFor); their
// zero values are empty.
func (g *gen) rngFields(mi *mapInfo) []jen.Code {
	var fields []jen.Code
	m := mi.m
	for i, o := range mi.ranges {
		kt := goType(m.Keys[o.val].Type)
		f := jen.Id(fmt.Sprintf("rng%d", i))
		if len(o.group) == 0 {
			fields = append(fields, f.Qual(runtimePkg, "RangeSum").Types(kt, goType(m.Type)).Commentf("sums over ranges of %s", m.Keys[o.val].Name))
			continue
		}
		ikt := g.keyType(subVars(m.Keys, o.group))
		fields = append(fields, f.Qual(runtimePkg, "RangeSumIndex").Types(ikt, kt, goType(m.Type)).Commentf("sums over ranges of %s by %s", m.Keys[o.val].Name, varNames(subVars(m.Keys, o.group))))
	}
	return fields
}

// rngUpdates adds the delta v of the entry with key k to the range-sum
// indexes of a map (before add changes v). Each index holds exactly the
// map's entries, by the same additions, so an entry leaves the index when
// it leaves the map.
func (g *gen) rngUpdates(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i, o := range mi.ranges {
		val := keyField(jen.Id("k"), len(mi.m.Keys), o.val)
		f := jen.Id("m").Dot(fmt.Sprintf("rng%d", i)).Dot("Add")
		if len(o.group) == 0 {
			code = append(code, f.Call(val, jen.Id("v")))
		} else {
			code = append(code, f.Call(g.partialKey(mi.m, o.group), val, jen.Id("v")))
		}
	}
	return code
}

func (g *gen) rngResets(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i := range mi.ranges {
		code = append(code, jen.Id("m").Dot(fmt.Sprintf("rng%d", i)).Dot("Reset").Call())
	}
	return code
}

func ctorName(mi *mapInfo) string { return "new" + mi.stem + "Map" }

func subVars(vs []calculus.Var, pos []int) []calculus.Var {
	out := make([]calculus.Var, len(pos))
	for i, p := range pos {
		out[i] = vs[p]
	}
	return out
}
