package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// mapType emits the storage type of a keyed map and its methods: get
// (point lookup), add (removing an entry whose value returns to zero from
// every index; for an INT map it reports an overflow of the entry's sum)
// and, for the target of a replacement, remove. An INT map stores int64
// values, a FLOAT map runtime.FloatSum values (see numbers.go).
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
	g.arenaMapType(mi)
}

// addMethod emits the add method of a keyed map with the given body.
func (g *gen) addMethod(mi *mapInfo, kt, vt jen.Code, body []jen.Code) {
	recv := jen.Id("m").Op("*").Id(mi.typ)
	if mi.checkedInt() {
		g.f.Comment("add adds v to the value of k and reports whether the sum overflowed int64 (it then wraps).")
		g.f.Func().Params(recv).Id("add").Params(jen.Id("k").Add(kt), jen.Id("v").Add(vt)).Params(jen.Id("overflow").Bool()).Block(body...)
		return
	}
	g.f.Comment("add adds v to the value of k.")
	g.f.Func().Params(recv).Id("add").Params(jen.Id("k").Add(kt), jen.Id("v").Add(vt)).Block(body...)
}

// arenaMapType emits the storage of a keyed map: entries in a slice,
// recycled through a free list, with a primary index (key to position)
// and the secondary indexes by partial key that statements loop over.
func (g *gen) arenaMapType(mi *mapInfo) {
	m := mi.m
	kt := g.keyType(m.Keys)
	vt := goType(m.Type)
	isInt := m.Type == lang.TInt
	recv := jen.Id("m").Op("*").Id(mi.typ)
	ctor := ctorName(mi)
	entry := "entry" + mi.stem
	// The entry keeps its key when the secondary indexes' loops read it.
	keep := len(mi.indexes) > 0
	ck := chainKey(mi)
	chained := ck != nil
	if chained {
		keep = true // find compares whole keys
	}
	ix := indexOf(m.Keys, chained)
	var efields []jen.Code
	if keep {
		efields = append(efields, jen.Id("key").Add(kt))
	}
	efields = append(efields, jen.Id("val").Add(storedType(m.Type)))
	if chained {
		efields = append(efields, jen.Id("next").Int32().Comment("next entry with the same hash key, or -1"))
	}
	var fields []jen.Code
	if len(mi.indexes) > 0 {
		g.f.Commentf("%s is an entry of map %s; pos holds its position in each secondary index.", entry, m.Name)
		efields = append(efields, jen.Id("pos").Index(jen.Lit(len(mi.indexes))).Int32())
		if mi.usesScratch {
			fields = append(fields, jen.Id("scratch").Index().Add(kt).Comment("keys of a slice being replaced"))
		}
	} else {
		g.f.Commentf("%s is an entry of map %s.", entry, m.Name)
	}
	g.f.Type().Id(entry).Struct(efields...)
	ikt, icomment := kt, "primary index"
	if chained {
		ikt, icomment = g.keyType(subVars(m.Keys, ck)), "primary index: the first entry by hash key ["+varNames(subVars(m.Keys, ck))+"]"
	}
	fields = append(fields,
		jen.Id("entries").Index().Id(entry).Comment("live and free entries"),
		jen.Id("free").Index().Int32().Comment("positions of free entries"),
		jen.Id("index").Add(indexType(ix, ikt)).Comment(icomment),
	)
	inits := indexInits(ix, ikt)
	for i, ix := range mi.indexes {
		ikt := g.keyType(subVars(m.Keys, ix))
		fields = append(fields, jen.Id(fmt.Sprintf("idx%d", i)).Map(ikt).Index().Int32().Commentf("by %s", varNames(subVars(m.Keys, ix))))
		inits[jen.Id(fmt.Sprintf("idx%d", i))] = jen.Make(jen.Map(ikt).Index().Int32())
	}
	fields = append(fields, g.ordFields(mi)...)
	fields = append(fields, g.rngFields(mi)...)
	fields = append(fields, g.modeFields(mi)...)
	fields = append(fields, g.touchFields(mi)...)
	if len(mi.indexes) > 0 {
		g.f.Commentf("%s stores map %s[%s] with secondary indexes.", mi.typ, m.Name, varNames(m.Keys))
	} else {
		g.f.Commentf("%s stores map %s[%s], its entries in a slice.", mi.typ, m.Name, varNames(m.Keys))
	}
	g.f.Type().Id(mi.typ).Struct(fields...)
	g.f.Func().Id(ctor).Params().Op("*").Id(mi.typ).Block(jen.Return(jen.Op("&").Id(mi.typ).Values(inits)))
	if chained {
		g.chainMethods(mi.typ, kt, func(k *jen.Statement) jen.Code { return g.partialKeyOf(m, k, ck) })
	}
	if mi.usesGet {
		g.f.Func().Params(recv).Id("get").Params(jen.Id("k").Add(kt)).Add(vt).Block(
			jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok")).Block(
				jen.Return(valueOf(mi, jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("val")))),
			jen.Return(jen.Lit(0)),
		)
	}
	resetBody := append(g.touchAll(mi),
		jen.Id("m").Dot("entries").Op("=").Id("m").Dot("entries").Index(jen.Empty(), jen.Lit(0)),
		jen.Id("m").Dot("free").Op("=").Id("m").Dot("free").Index(jen.Empty(), jen.Lit(0)),
		clearIndex(ix),
	)
	for i := range mi.indexes {
		ix := jen.Id("m").Dot(fmt.Sprintf("idx%d", i))
		// Keep the slices' capacity: re-evaluation refills them.
		resetBody = append(resetBody, jen.For(jen.List(jen.Id("k"), jen.Id("s")).Op(":=").Range().Add(ix)).Block(
			ix.Clone().Index(jen.Id("k")).Op("=").Id("s").Index(jen.Empty(), jen.Lit(0))))
	}
	resetBody = append(resetBody, g.ordResets(mi)...)
	resetBody = append(resetBody, g.rngResets(mi)...)
	resetBody = append(resetBody, g.modeResets(mi)...)
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
	var body []jen.Code
	var setVal []jen.Code
	// A checked INT add reports overflows (addMethod).
	noOverflow := jen.Return()
	if mi.checkedInt() {
		noOverflow = jen.Return(jen.False())
	}
	if isInt {
		body = append(body, jen.If(jen.Id("v").Op("==").Lit(0)).Block(noOverflow))
		body = append(body, g.touches(mi)...)
		body = append(body, g.rngUpdates(mi)...)
		body = append(body, g.modeUpdates(mi)...)
		setVal = []jen.Code{jen.Id("ent").Dot("val").Op("=").Id("v")}
	} else {
		body = append(body, jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return()))
		body = append(body, g.touches(mi)...)
		setVal = []jen.Code{
			jen.Id("ent").Dot("val").Op("=").Qual(runtimePkg, "FloatSum").Values(),
			jen.Id("ent").Dot("val").Dot("Add").Call(jen.Id("v")),
		}
		setVal = append(setVal, g.rngSets(mi, jen.Id("v"))...)
	}
	if keep {
		setVal = append([]jen.Code{jen.Id("ent").Dot("key").Op("=").Id("k")}, setVal...)
	}
	ret := noOverflow
	link := setIndex(ix, jen.Id("k"), jen.Id("i"))
	if chained {
		link = jen.Id("m").Dot("link").Call(jen.Id("k"), jen.Id("i"))
	}
	body = append(body,
		jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))),
		jen.If(jen.Op("!").Id("ok")).Block(append(append([]jen.Code{
			jen.If(jen.Id("n").Op(":=").Len(jen.Id("m").Dot("free")), jen.Id("n").Op(">").Lit(0)).Block(
				jen.Id("i").Op("=").Id("m").Dot("free").Index(jen.Id("n").Op("-").Lit(1)),
				jen.Id("m").Dot("free").Op("=").Id("m").Dot("free").Index(jen.Empty(), jen.Id("n").Op("-").Lit(1)),
			).Else().Block(
				jen.Id("i").Op("=").Int32().Call(jen.Len(jen.Id("m").Dot("entries"))),
				jen.Id("m").Dot("entries").Op("=").Append(jen.Id("m").Dot("entries"), jen.Id(entry).Values()),
			),
			jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")),
		}, setVal...), append(append([]jen.Code{link}, insert...), append(g.ordUpdates(mi, 1), ret)...)...)...),
		jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")),
	)
	if isInt && mi.counter {
		body = append(body,
			jen.Id("ent").Dot("val").Op("+=").Id("v"),
			jen.If(jen.Id("ent").Dot("val").Op("==").Lit(0)).Block(jen.Id("m").Dot("unlink").Call(jen.Id("k"), jen.Id("i"))),
		)
	} else if isInt {
		body = append(body,
			jen.List(jen.Id("ent").Dot("val"), jen.Id("overflow")).Op("=").Qual(runtimePkg, "AddInt").Call(jen.Id("ent").Dot("val"), jen.Id("v")),
			jen.If(jen.Id("ent").Dot("val").Op("==").Lit(0)).Block(jen.Id("m").Dot("unlink").Call(jen.Id("k"), jen.Id("i"))),
			jen.Return(jen.Id("overflow")),
		)
	} else {
		body = append(body, jen.Id("ent").Dot("val").Dot("Add").Call(jen.Id("v")))
		body = append(body, g.rngSets(mi, jen.Id("ent").Dot("val").Dot("Value").Call())...)
		body = append(body, jen.If(jen.Id("ent").Dot("val").Dot("IsZero").Call()).Block(jen.Id("m").Dot("unlink").Call(jen.Id("k"), jen.Id("i"))))
	}
	g.addMethod(mi, kt, vt, body)
	if mi.usesLoad {
		g.loadMethod(mi, kt, ix)
	}
	var unlink []jen.Code
	if len(mi.indexes) > 0 {
		unlink = append(unlink, jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")))
	}
	drop := deleteIndex(ix, jen.Id("k"))
	if chained {
		drop = jen.Id("m").Dot("unchain").Call(jen.Id("k"), jen.Id("i"))
	}
	unlink = append(append(unlink, drop), remove...)
	unlink = append(unlink, g.ordUpdates(mi, -1)...)
	unlink = append(unlink, jen.Id("m").Dot("free").Op("=").Append(jen.Id("m").Dot("free"), jen.Id("i")))
	g.f.Comment("unlink removes the entry of k, at position i, from every index.")
	g.f.Func().Params(recv).Id("unlink").Params(jen.Id("k").Add(kt), jen.Id("i").Int32()).Block(unlink...)
	if mi.usesSet {
		cur := jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("val")
		if isInt {
			g.f.Comment("set sets the value of k to v (0 removes the entry).")
			g.f.Func().Params(recv).Id("set").Params(jen.Id("k").Add(kt), jen.Id("v").Int64()).Block(
				jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok")).Block(
					jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Id("m").Dot("unlink").Call(jen.Id("k"), jen.Id("i")), jen.Return()),
					cur.Clone().Op("=").Id("v"),
					jen.Return()),
				jen.Id("_").Op("=").Id("m").Dot("add").Call(jen.Id("k"), jen.Id("v")), // no overflow from 0
			)
		} else {
			g.f.Comment("set sets the value of k to the sum v (0 removes the entry).")
			g.f.Func().Params(recv).Id("set").Params(jen.Id("k").Add(kt), jen.Id("v").Qual(runtimePkg, "FloatSum")).Block(
				jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok")).Block(
					jen.If(jen.Id("v").Dot("IsZero").Call()).Block(jen.Id("m").Dot("unlink").Call(jen.Id("k"), jen.Id("i")), jen.Return()),
					cur.Clone().Op("=").Id("v"),
					jen.Return()),
				jen.If(jen.Id("v").Dot("IsZero").Call()).Block(jen.Return()),
				jen.Id("m").Dot("add").Call(jen.Id("k"), jen.Id("v").Dot("Value").Call()),
				jen.List(jen.Id("i"), jen.Id("_")).Op(":=").Add(lookup(ix, jen.Id("k"))),
				jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("val").Op("=").Id("v"),
			)
		}
	}
	if mi.removes {
		g.f.Comment("remove removes the entry of k, if any.")
		g.f.Func().Params(recv).Id("remove").Params(jen.Id("k").Add(kt)).Block(
			jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok")).Block(
				append(append(append(g.touches(mi), g.rngSets(mi, jen.Lit(0))...), g.modeRemoves(mi)...), jen.Id("m").Dot("unlink").Call(jen.Id("k"), jen.Id("i")))...))
	}
}

// partialKey builds the key made of the positions pos of the map key k.
func (g *gen) partialKey(m *viewlet.Map, pos []int) jen.Code {
	return g.partialKeyOf(m, jen.Id("k"), pos)
}

// partialKeyOf is the part at positions pos of m's key held in k.
func (g *gen) partialKeyOf(m *viewlet.Map, k *jen.Statement, pos []int) jen.Code {
	return g.keyPart(m.Keys, k, pos)
}

// keyPart builds the key made of the positions pos of the key k, whose
// variables are keys.
func (g *gen) keyPart(keys []calculus.Var, k *jen.Statement, pos []int) jen.Code {
	vals := make([]jen.Code, len(pos))
	for j, p := range pos {
		vals[j] = keyField(k.Clone(), len(keys), p)
	}
	return g.keyValue(subVars(keys, pos), vals)
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
		if p, lane := mi.pairOf(i); p != nil {
			if lane == 0 {
				var ikt jen.Code = jen.Struct()
				by := "" // an index without groups: the one group struct{}{}
				if len(o.group) > 0 {
					ikt = g.keyType(subVars(m.Keys, o.group))
					by = " by " + varNames(subVars(m.Keys, o.group))
				}
				fields = append(fields, jen.Id(p.field).Qual(runtimePkg, "RangeSumPairIndex").Types(ikt, kt, goType(m.Type), goType(p.lanes[1].m.Type)).
					Commentf("sums over ranges of %s%s: lane 1 %s, lane 2 %s", m.Keys[o.val].Name, by, m.Name, p.lanes[1].m.Name))
			}
			continue
		}
		f := jen.Id(rngName(mi, i))
		if len(o.group) == 0 {
			fields = append(fields, f.Qual(runtimePkg, "RangeSum").Types(kt, goType(m.Type)).Commentf("sums over ranges of %s", m.Keys[o.val].Name))
			continue
		}
		ikt := g.keyType(subVars(m.Keys, o.group))
		fields = append(fields, f.Qual(runtimePkg, "RangeSumIndex").Types(ikt, kt, goType(m.Type)).Commentf("sums over ranges of %s by %s", m.Keys[o.val].Name, varNames(subVars(m.Keys, o.group))))
	}
	return fields
}

// rngName is the field of a map's range-sum index i: in a table (fused
// maps), named after the member.
func rngName(mi *mapInfo, i int) string {
	if mi.tab != nil {
		return fmt.Sprintf("rng%s%d", mi.stem, i)
	}
	return fmt.Sprintf("rng%d", i)
}

// rngUpdates adds the delta v of the entry with key k to the range-sum
// indexes of a map (before add changes v). Each index holds exactly the
// map's entries, by the same additions, so an entry leaves the index when
// it leaves the map.
func (g *gen) rngUpdates(mi *mapInfo) []jen.Code {
	return g.rngUpdatesAt(mi, jen.Id("m"), jen.Id("k"), jen.Id("v"))
}

// rngUpdatesAt adds the delta v of the entry with key k to the range-sum
// indexes of map mi, whose storage is m.
func (g *gen) rngUpdatesAt(mi *mapInfo, m, k *jen.Statement, v jen.Code) []jen.Code {
	return g.rngWrites(mi, m, k, v, "Add")
}

// rngWrites calls method op (Add or Set) of each range-sum index of map
// mi, stored in m, at key k with v: of a pair, op of mi's lane (but for
// the pairs the entry scope being emitted sets at its end).
func (g *gen) rngWrites(mi *mapInfo, m, k *jen.Statement, v jen.Code, op string) []jen.Code {
	var code []jen.Code
	for i, o := range mi.ranges {
		val := keyField(k.Clone(), len(mi.m.Keys), o.val)
		if p, lane := mi.pairOf(i); p != nil {
			if !g.deferred[p] {
				code = append(code, m.Clone().Dot(p.field).Dot(fmt.Sprintf("%s%d", op, lane+1)).Call(g.pairGroup(mi, k, p), val, v))
			}
			continue
		}
		f := m.Clone().Dot(rngName(mi, i)).Dot(op)
		if len(o.group) == 0 {
			code = append(code, f.Call(val, v))
		} else {
			code = append(code, f.Call(g.partialKeyOf(mi.m, k, o.group), val, v))
		}
	}
	return code
}

// rngSets sets the value of the entry with key k in the range-sum
// indexes of a map to v (0 removes it): a FLOAT map's indexes hold its
// entries' values as read (sum plus compensation), set after each change.
func (g *gen) rngSets(mi *mapInfo, v jen.Code) []jen.Code {
	return g.rngSetsAt(mi, jen.Id("m"), jen.Id("k"), v)
}

// rngSetsAt is rngSets for map mi stored in m, at key k.
func (g *gen) rngSetsAt(mi *mapInfo, m, k *jen.Statement, v jen.Code) []jen.Code {
	return g.rngWrites(mi, m, k, v, "Set")
}

func (g *gen) rngResets(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for i := range mi.ranges {
		if p, _ := mi.pairOf(i); p != nil {
			panic(fmt.Sprintf("the paired range-sum index %d of %s is reset", i, mi.m.Name)) // fused maps are never reset
		}
		code = append(code, jen.Id("m").Dot(rngName(mi, i)).Dot("Reset").Call())
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

// loadMethod emits load, which adds an entry read from a snapshot through
// add, so that every index is built as the triggers keep it; a FLOAT
// entry then gets the snapshot's compensated sum as it was. It refuses
// (false) a key that has an entry and a zero value.
func (g *gen) loadMethod(mi *mapInfo, kt jen.Code, ix primaryIndex) {
	recv := jen.Id("m").Op("*").Id(mi.typ)
	g.f.Comment("load adds the entry of k with the value v, read from a snapshot; false if k has an entry or v is 0.")
	if mi.m.Type == lang.TFloat {
		g.f.Func().Params(recv).Id("load").Params(jen.Id("k").Add(kt), jen.Id("v").Qual(runtimePkg, "FloatSum")).Bool().Block(
			jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok").Op("||").Id("v").Dot("IsZero").Call()).Block(jen.Return(jen.False())),
			jen.Id("m").Dot("add").Call(jen.Id("k"), jen.Id("v").Dot("Value").Call()),
			jen.List(jen.Id("i"), jen.Id("_")).Op(":=").Add(lookup(ix, jen.Id("k"))),
			jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("val").Op("=").Id("v"),
			jen.Return(jen.True()))
		return
	}
	add := jen.Id("m").Dot("add").Call(jen.Id("k"), jen.Id("v"))
	if mi.checkedInt() {
		add = jen.Id("_").Op("=").Add(add) // no overflow from 0
	}
	g.f.Func().Params(recv).Id("load").Params(jen.Id("k").Add(kt), jen.Id("v").Int64()).Bool().Block(
		jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok").Op("||").Id("v").Op("==").Lit(0)).Block(jen.Return(jen.False())),
		add,
		jen.Return(jen.True()))
}
