package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// Keyed change streams: the changes of a view whose rows are read from
// its maps' entries at the row's own key cost what changed. A keyed view
// (keyedView) is one whose every map is keyed by the view's keys (its map
// keys: the key columns, then the presence flags of those that may be
// NULL), or by them and one value (a MIN/MAX's count map): an event that
// writes an entry changes at most the row of the entry's key prefix.
// While the view has a subscriber, each write of such an entry
// (addToMap, a single remove or set: touchKey) appends that key to the
// view's touched list (chTouched<i>: a slice, emptied in O(1), so that no
// flush costs the size of an earlier batch; a key listed twice is compared
// once); the flush reads the row of each touched key
// (the row method), compares it with the row last reported (chRows<i>,
// the view's rows as its subscribers know them) and reports the
// differences, new and changed rows first, then removed ones, each in key
// order (a view with an ORDER BY: in its order) — the order
// runtime.DiffViews gives, so that both engines print
// the same change lines. A write that the code cannot attribute to one key
// (a map reset, the removal of a slice of entries) and a restore mark the
// view dirty: the next flush compares every row, as for a view that is not
// keyed. Typed subscribers get the rows of engine fields (chOld<i>,
// chNew<i>): nothing is allocated per change once the sets have grown.
//
// Views that are not keyed — scalar views (one row: their snapshot is
// O(1)), top-K views, windows, factorized views,
// numbered bags, views with a LIMIT, views reading a subquery's aggregate keyed by some of
// their keys or by none — are compared with their snapshot at each flush
// after an event that wrote one of their maps, O(rows), and only while
// they have a subscriber.

// keyedView reports whether the changes of view v are tracked by key (see
// above).
func (g *gen) keyedView(v *viewlet.View) bool {
	// An ORDER BY without LIMIT only orders the rows shown: keyed, the
	// changes reported in the view's order (compareRows is then the
	// order's).
	if v.Scalar || v.Tree != nil || v.Limit != nil || len(v.Numbered) > 0 || len(v.AggKeys) > 0 || len(v.Keys) == 0 || v.Aggs[0] == nil {
		return false
	}
	nk := v.MapKeys()
	ranged, extreme := false, map[int]bool{}
	visit := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			switch r := x.(type) {
			case *calculus.RangeRef:
				ranged = true
			case *calculus.ExtremeRef:
				extreme[r.Index] = true
			}
		})
	}
	for _, val := range v.Values {
		visit(val.E)
		visit(val.Present)
	}
	visit(v.Having)
	if ranged {
		return false
	}
	k0 := fmt.Sprintf("%#v", g.keyType(v.Aggs[0].Keys))
	for i, m := range v.Aggs {
		if m == nil {
			continue
		}
		mi := g.maps[m.Name]
		if mi == nil || !mi.keyed || m.Kernel != nil {
			return false
		}
		switch {
		case len(m.Keys) == nk && fmt.Sprintf("%#v", g.keyType(m.Keys)) == k0:
		case len(m.Keys) == nk+1 && extreme[i] && fmt.Sprintf("%#v", g.keyType(m.Keys[:nk])) == k0:
		default:
			return false
		}
	}
	return true
}

// keyedFeeds lists the keyed views that map m feeds, by view index.
func (g *gen) keyedFeeds(m *viewlet.Map) []int {
	var out []int
	for vi, v := range g.p.Views {
		if !g.keyedView(v) {
			continue
		}
		for _, a := range v.Aggs {
			if a != nil && a.Name == m.Name {
				out = append(out, vi)
				break
			}
		}
	}
	return out
}

// touchKey records key (an expression of mi's key type) in the touched list of
// each keyed view mi feeds that has a subscriber.
func (g *gen) touchKey(mi *mapInfo, key jen.Code) []jen.Code {
	if key == nil {
		return nil
	}
	var code []jen.Code
	for _, vi := range g.keyedFeeds(mi.m) {
		v := g.p.Views[vi]
		nk := v.MapKeys()
		var vk jen.Code = key
		if len(mi.m.Keys) > nk {
			// A MIN/MAX's count map: the view's key is its prefix.
			vals := make([]jen.Code, nk)
			for i := range nk {
				vals[i] = keyField(jen.Parens(key), len(mi.m.Keys), i)
			}
			vk = g.keyValue(v.Aggs[0].Keys, vals)
		}
		t := jen.Id("e").Dot(chName("Touched", vi))
		code = append(code, jen.If(t.Clone().Op("!=").Nil()).Block(t.Clone().Op("=").Append(t.Clone(), vk)))
	}
	return code
}

// touchAllKeys marks dirty the keyed views mi feeds, for a write of many of
// its entries at once: the next flush compares every row.
func (g *gen) touchAllKeys(mi *mapInfo) []jen.Code {
	var code []jen.Code
	for _, vi := range g.keyedFeeds(mi.m) {
		code = append(code, jen.Id("e").Dot("dirty").Index(jen.Lit(vi)).Op("=").True())
	}
	return code
}

// chName is the name of an Engine field of keyed view vi's change state.
func chName(what string, vi int) string { return fmt.Sprintf("ch%s%d", what, vi) }

// keyedFields are the Engine fields of the keyed views' change state.
func (g *gen) keyedFields() []jen.Code {
	var fields []jen.Code
	for vi, v := range g.p.Views {
		if !g.keyedView(v) {
			continue
		}
		kt := g.keyType(v.Aggs[0].Keys)
		row := viewStem(v.Name, v.Named) + "Row"
		fields = append(fields,
			jen.Commentf("View %s's changes, while it has a subscriber: the keys written since the last report,", v.Name),
			jen.Comment("the rows last reported, the report's buffer and the rows passed to a typed subscriber."),
			jen.Id(chName("Touched", vi)).Index().Add(kt),
			jen.Id(chName("Rows", vi)).Map(kt).Id(row),
			jen.Id(chName("Pending", vi)).Index().Id(lowerFirst(viewStem(v.Name, v.Named))+"Pending"),
			jen.List(jen.Id(chName("Old", vi)), jen.Id(chName("New", vi))).Id(row))
	}
	return fields
}

// keyedLoop is the loop over the live entries of view v's first map, k
// their key (the row method's arguments: keyArgs).
func (g *gen) keyedLoop(v *viewlet.View, body ...jen.Code) jen.Code {
	cm := g.maps[v.Aggs[0].Name]
	cm.usesScan = true
	return jen.For(jen.Id("k").Op(":=").Range().Add(rangeIndex(cm.index(), jen.Id("e").Dot(cm.field)))).Block(body...)
}

// keyArgs are the row method's arguments from key k of view v's maps.
func keyArgs(v *viewlet.View, k *jen.Statement) []jen.Code {
	n := v.MapKeys()
	args := make([]jen.Code, n)
	for i := range n {
		args[i] = keyField(k, n, i)
	}
	return args
}

// keyedMethods emits, for keyed view vi, its pending type, the
// subscription of its change state (watch<i>) and its flush
// (flush<i>), which resubscribe and flushChanges call.
func (g *gen) keyedMethods(vi int, v *viewlet.View) {
	st := viewStem(v.Name, v.Named)
	row := st + "Row"
	pending := lowerFirst(st) + "Pending"
	kt := g.keyType(v.Aggs[0].Keys)
	e := func(f string) *jen.Statement { return jen.Id("e").Dot(f) }
	lower := rowMethod(v)
	g.f.Commentf("%s is a row of view %s that changed since the last report: its key, the row before", pending, v.Name)
	g.f.Comment("(if had) and after (if has).")
	g.f.Type().Id(pending).Struct(
		jen.Id("k").Add(kt),
		jen.List(jen.Id("old"), jen.Id("new")).Id(row),
		jen.List(jen.Id("had"), jen.Id("has")).Bool())

	watch := fmt.Sprintf("watch%d", vi)
	g.f.Commentf("%s starts (on) or stops tracking the changes of view %s by key: its rows as they are now", watch, v.Name)
	g.f.Comment("are those its subscribers know.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(watch).Params(jen.Id("on").Bool()).Block(
		jen.If(jen.Op("!").Id("on")).Block(
			jen.List(e(chName("Touched", vi)), e(chName("Rows", vi)), e(chName("Pending", vi))).Op("=").List(jen.Nil(), jen.Nil(), jen.Nil()),
			jen.Return()),
		jen.If(e(chName("Touched", vi)).Op("!=").Nil()).Block(jen.Return()),
		jen.List(e(chName("Touched", vi)), e(chName("Rows", vi))).Op("=").List(jen.Make(jen.Index().Add(kt), jen.Lit(0), jen.Lit(16)), jen.Map(kt).Id(row).Values()),
		g.keyedLoop(v, jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(keyArgs(v, jen.Id("k"))...), jen.Id("ok")).Block(
			e(chName("Rows", vi)).Index(jen.Id("k")).Op("=").Id("r"))))

	// The cells of a change, as Views shows the row (a nullable column
	// boxed: nil for NULL).
	field := rowFields()
	var keyCells, valCells []jen.Code
	cell := func(r *jen.Statement, name string, nullable bool) jen.Code {
		c := r.Clone().Dot(field(name))
		if nullable {
			return c.Dot("Box").Call()
		}
		return c
	}
	keyCellsOf := func(r *jen.Statement) []jen.Code {
		field = rowFields()
		keyCells = nil
		for _, k := range v.Keys {
			keyCells = append(keyCells, cell(r, k.Name, k.Present.Name != ""))
		}
		return keyCells
	}
	valCellsOf := func(r *jen.Statement) []jen.Code {
		field = rowFields()
		for _, k := range v.Keys {
			field(k.Name)
		}
		valCells = nil
		for _, val := range v.Values {
			valCells = append(valCells, cell(r, val.Name, val.Present != nil && !v.Distinct))
		}
		return valCells
	}
	report := func(had, has jen.Code) []jen.Code {
		var oldCells, newCells jen.Code = jen.Nil(), jen.Nil()
		var oldRow, newRow jen.Code = jen.Nil(), jen.Nil()
		if had != nil {
			oldCells = jen.Index().Any().Values(valCellsOf(jen.Id("p").Dot("old"))...)
			oldRow = jen.Op("&").Add(e(chName("Old", vi)))
		}
		if has != nil {
			newCells = jen.Index().Any().Values(valCellsOf(jen.Id("p").Dot("new"))...)
			newRow = jen.Op("&").Add(e(chName("New", vi)))
		}
		at := jen.Id("p").Dot("new")
		if has == nil {
			at = jen.Id("p").Dot("old")
		}
		code := []jen.Code{
			jen.If(e("subs").Dot("changes").Op("!=").Nil()).Block(
				e("subs").Dot("changes").Call(jen.Qual(runtimePkg, "Change").Values(jen.Dict{
					jen.Id("View"): jen.Lit(v.Name),
					jen.Id("Key"):  jen.Index().Any().Values(keyCellsOf(at)...),
					jen.Id("Old"):  oldCells,
					jen.Id("New"):  newCells,
				}))),
		}
		typed := []jen.Code{}
		if had != nil {
			typed = append(typed, e(chName("Old", vi)).Op("=").Id("p").Dot("old"))
		}
		if has != nil {
			typed = append(typed, e(chName("New", vi)).Op("=").Id("p").Dot("new"))
		}
		typed = append(typed, jen.Id("f").Call(jen.Id(st+"Change").Values(jen.Dict{jen.Id("Old"): oldRow, jen.Id("New"): newRow})))
		code = append(code, jen.If(jen.Id("f").Op(":=").Add(e("subs").Dot("on"+st)), jen.Id("f").Op("!=").Nil()).Block(typed...))
		return code
	}
	flush := fmt.Sprintf("flush%d", vi)
	touched, rows, pend := e(chName("Touched", vi)), e(chName("Rows", vi)), e(chName("Pending", vi))
	g.f.Commentf("%s reports the changes of view %s since the last report: of the rows of the keys", flush, v.Name)
	g.f.Comment("written, or of every row when the view is dirty; new and changed rows first, then removed")
	g.f.Comment("ones, each in key order.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(flush).Params().Block(
		jen.If(e("dirty").Index(jen.Lit(vi))).Block(
			e("dirty").Index(jen.Lit(vi)).Op("=").False(),
			jen.For(jen.Id("k").Op(":=").Range().Add(rows.Clone())).Block(touched.Clone().Op("=").Append(touched.Clone(), jen.Id("k"))),
			g.keyedLoop(v, touched.Clone().Op("=").Append(touched.Clone(), jen.Id("k")))),
		jen.If(jen.Len(touched.Clone()).Op("==").Lit(0)).Block(jen.Return()),
		// A key written twice is compared once: the rows reported are
		// updated as the differences are found.
		jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(touched.Clone())).Block(
			jen.List(jen.Id("r"), jen.Id("has")).Op(":=").Id("e").Dot(lower).Call(keyArgs(v, jen.Id("k"))...),
			jen.List(jen.Id("old"), jen.Id("had")).Op(":=").Add(rows.Clone()).Index(jen.Id("k")),
			jen.If(jen.Id("had").Op("==").Id("has").Op("&&").Parens(jen.Op("!").Id("has").Op("||").Id(sameRows(v)).Call(jen.Id("old"), jen.Id("r")))).Block(jen.Continue()),
			jen.If(jen.Id("has")).Block(rows.Clone().Index(jen.Id("k")).Op("=").Id("r")).Else().Block(jen.Delete(rows.Clone(), jen.Id("k"))),
			pend.Clone().Op("=").Append(pend.Clone(), jen.Id(pending).Values(jen.Dict{
				jen.Id("k"): jen.Id("k"), jen.Id("old"): jen.Id("old"), jen.Id("new"): jen.Id("r"), jen.Id("had"): jen.Id("had"), jen.Id("has"): jen.Id("has")}))),
		touched.Clone().Op("=").Add(touched.Clone()).Index(jen.Empty(), jen.Lit(0)),
		jen.Qual("slices", "SortFunc").Call(pend.Clone(), jen.Func().Params(jen.List(jen.Id("a"), jen.Id("b")).Id(pending)).Int().Block(
			jen.List(jen.Id("x"), jen.Id("y")).Op(":=").List(jen.Id("a").Dot("new"), jen.Id("b").Dot("new")),
			jen.If(jen.Op("!").Id("a").Dot("has")).Block(jen.Id("x").Op("=").Id("a").Dot("old")),
			jen.If(jen.Op("!").Id("b").Dot("has")).Block(jen.Id("y").Op("=").Id("b").Dot("old")),
			jen.Return(jen.Id(compareRows(v)).Call(jen.Id("x"), jen.Id("y"))))),
		jen.For(jen.Id("i").Op(":=").Range().Add(pend.Clone())).Block(
			jen.Id("p").Op(":=").Op("&").Add(pend.Clone()).Index(jen.Id("i")),
			jen.If(jen.Op("!").Id("p").Dot("has")).Block(jen.Continue()),
			jen.If(jen.Id("p").Dot("had")).Block(report(jen.True(), jen.True())...).Else().Block(report(nil, jen.True())...)),
		jen.For(jen.Id("i").Op(":=").Range().Add(pend.Clone())).Block(
			jen.Id("p").Op(":=").Op("&").Add(pend.Clone()).Index(jen.Id("i")),
			jen.If(jen.Id("p").Dot("has")).Block(jen.Continue()),
			jen.Block(report(jen.True(), nil)...)),
		pend.Clone().Op("=").Add(pend.Clone()).Index(jen.Empty(), jen.Lit(0)),
	)
}

// sameRowsFunc emits sameRows(v): whether two rows of view v with the
// same key show the same values, as runtime.DiffViews compares cells.
func (g *gen) sameRowsFunc(v *viewlet.View) {
	st := viewStem(v.Name, v.Named)
	field := rowFields()
	for _, k := range v.Keys {
		field(k.Name)
	}
	var same *jen.Statement
	for _, val := range v.Values {
		f := field(val.Name)
		fn := "SameValue"
		if val.Present != nil {
			fn = "SameNull"
		}
		c := jen.Qual(runtimePkg, fn).Call(jen.Id("a").Dot(f), jen.Id("b").Dot(f))
		if v.Distinct {
			c = jen.Id("a").Dot(f).Op("==").Id("b").Dot(f)
		}
		if same == nil {
			same = c
		} else {
			same = same.Op("&&").Add(c)
		}
	}
	if same == nil {
		same = jen.True()
	}
	g.f.Commentf("%s reports whether rows a and b of view %s (of one key) show the same values.", sameRows(v), v.Name)
	g.f.Func().Id(sameRows(v)).Params(jen.List(jen.Id("a"), jen.Id("b")).Id(st + "Row")).Bool().Block(jen.Return(same))
}

// sameRows is the function that compares the values of two rows of v.
func sameRows(v *viewlet.View) string { return "same" + viewStem(v.Name, v.Named) + "Rows" }

// compareRows is the function that orders the rows of view v by key.
func compareRows(v *viewlet.View) string { return "compare" + viewStem(v.Name, v.Named) + "Rows" }
