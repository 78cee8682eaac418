package codegen

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/viewlet"
)

// Change streams (runtime.ChangeStreamer). Every engine has OnChanges and
// a typed On<View>Change per view: with a subscriber, each exported
// Insert/Delete, Apply and ApplyBatch ends by flushing — passing each row
// the event or batch changed to the subscribers of its view — so a batch
// reports its net changes. Without one, the cost is a nil check per call
// (and one per write of a keyed view's map). Only the views with a
// subscriber (OnChanges subscribes to all) are compared: a keyed view by
// the keys its maps' writes touched, O(changed rows) (keyedchanges.go),
// another with its snapshot as last reported (runtime.DiffViews), O(rows),
// after an event that wrote one of its maps.

// changeMethods emits OnChanges, the typed On<View>Change per view, and
// the dispatch and flush behind them.
func (g *gen) changeMethods() {
	e := func(f string) *jen.Statement { return jen.Id("e").Dot(f) }
	subs := []jen.Code{jen.Id("changes").Func().Params(jen.Qual(runtimePkg, "Change")).Comment("OnChanges")}
	var none *jen.Statement
	var dispatch []jen.Code
	for _, v := range g.p.Views {
		st := viewStem(v.Name, v.Named)
		subs = append(subs, jen.Id("on"+st).Func().Params(jen.Id(st+"Change")).Commentf("On%sChange", st))
		cond := e("subs").Dot("on" + st).Op("==").Nil()
		if none == nil {
			none = cond
		} else {
			none = none.Op("&&").Add(cond)
		}
		dispatch = append(dispatch, jen.Case(jen.Lit(v.Name)).Block(
			jen.If(e("subs").Dot("on"+st).Op("!=").Nil()).Block(
				e("subs").Dot("on"+st).Call(jen.Id(st+"Change").Values(jen.Dict{
					jen.Id("Old"): jen.Id("changeRow"+st).Call(jen.Id("c").Dot("Key"), jen.Id("c").Dot("Old")),
					jen.Id("New"): jen.Id("changeRow"+st).Call(jen.Id("c").Dot("Key"), jen.Id("c").Dot("New")),
				})))))
		g.changeType(v, st)
	}
	allNone := e("subs").Dot("changes").Op("==").Nil()
	if none != nil {
		allNone = allNone.Op("&&").Add(none)
	}
	g.f.Comment("subscribers are the engine's change subscribers.")
	g.f.Type().Id("subscribers").Struct(subs...)
	g.f.Comment(`OnChanges makes the engine call f, after each event applied by an Insert, Delete or
Apply method and after each ApplyBatch, with every view row the event or batch
changed: the row's keys and its values before and after (runtime.Change; nil
before for a new row, nil after for a removed one). A batch reports each row once,
and nothing for a row that changed and changed back. OnChanges(nil) stops the calls.
A report reads the rows of the keys the event or batch wrote where a view is keyed by
them, O(changed rows), and compares another view's snapshot with the last one, O(rows).
The typed On<View>Change methods receive the same changes of one view as its rows.`)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("OnChanges").Params(jen.Id("f").Func().Params(jen.Qual(runtimePkg, "Change"))).Block(
		e("subs").Dot("changes").Op("=").Id("f"),
		e("resubscribe").Call())
	// Each view is watched while it has a subscriber: a keyed view's rows
	// by key (watch<i>), another's snapshot (shown[i]).
	resub := []jen.Code{
		jen.If(allNone).Block(append([]jen.Code{
			jen.List(e("changes"), e("shown")).Op("=").List(jen.Nil(), jen.Nil())}, g.unwatchAll()...)...,
		).Else().If(e("changes").Op("==").Nil()).Block(
			e("changes").Op("=").Add(e("dispatch")),
			e("shown").Op("=").Make(jen.Index().Qual(runtimePkg, "View"), jen.Lit(len(g.p.Views)))),
		jen.If(e("changes").Op("==").Nil()).Block(jen.Return()),
	}
	for vi, v := range g.p.Views {
		st := viewStem(v.Name, v.Named)
		on := e("subs").Dot("changes").Op("!=").Nil().Op("||").Add(e("subs").Dot("on" + st)).Op("!=").Nil()
		if g.keyedView(v) {
			resub = append(resub, e(fmt.Sprintf("watch%d", vi)).Call(on))
			continue
		}
		shown := e("shown").Index(jen.Lit(vi))
		resub = append(resub, jen.If(on).Block(
			jen.If(shown.Clone().Dot("Name").Op("==").Lit("")).Block(shown.Clone().Op("=").Add(e(snapshotName(vi))).Call())).Else().Block(
			shown.Clone().Op("=").Qual(runtimePkg, "View").Values()))
	}
	g.f.Comment("resubscribe routes the views' changes to the subscribers, if any: a view gets a\nsubscriber told the changes from its rows as they are now.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("resubscribe").Params().Block(resub...)
	g.f.Comment("dispatch passes a change to the subscribers.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("dispatch").Params(jen.Id("c").Qual(runtimePkg, "Change")).Block(
		jen.If(e("subs").Dot("changes").Op("!=").Nil()).Block(e("subs").Dot("changes").Call(jen.Id("c"))),
		jen.Switch(jen.Id("c").Dot("View")).Block(dispatch...))
	g.f.Comment("flushChanges reports the changes of the watched views since the last report: of a keyed\nview, the rows of the keys written; of another whose maps were written (dirty), its snapshot\ncompared with the one last reported.")
	var flush []jen.Code
	for vi, v := range g.p.Views {
		if g.keyedView(v) {
			flush = append(flush, jen.If(e(chName("Touched", vi)).Op("!=").Nil()).Block(e(fmt.Sprintf("flush%d", vi)).Call()))
			g.sameRowsFunc(v)
			g.keyedMethods(vi, v)
			continue
		}
		flush = append(flush, jen.If(e("dirty").Index(jen.Lit(vi))).Block(
			e("dirty").Index(jen.Lit(vi)).Op("=").False(),
			jen.If(e("shown").Index(jen.Lit(vi)).Dot("Name").Op("!=").Lit("")).Block( // watched
				jen.Id("now").Op(":=").Index().Qual(runtimePkg, "View").Values(e(snapshotName(vi)).Call()),
				jen.Qual(runtimePkg, "DiffViews").Call(e("shown").Index(jen.Lit(vi), jen.Lit(vi+1)), jen.Id("now"), e("changes")),
				e("shown").Index(jen.Lit(vi)).Op("=").Id("now").Index(jen.Lit(0)))))
	}
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("flushChanges").Params().Block(flush...)
}

// markDirty are the stores that end trigger t: the views one of whose
// maps (View.Aggs: every map a view's rows are read from) its statements
// or kernel syncs write.
func (g *gen) markDirty(t *viewlet.Trigger) []jen.Code {
	written := map[string]bool{}
	for _, s := range t.Stmts {
		written[s.Map.Name] = true
	}
	for _, u := range t.Syncs {
		written[u.Map.Name] = true
	}
	var code []jen.Code
	for vi, v := range g.p.Views {
		if g.keyedView(v) {
			continue // by key (touchKey)
		}
		for _, m := range v.Aggs {
			if m != nil && written[m.Name] {
				code = append(code, jen.Id("e").Dot("dirty").Index(jen.Lit(vi)).Op("=").True())
				break
			}
		}
	}
	return code
}

// changeType emits <View>Change, On<View>Change and changeRow<View>, which
// turns a change's cells back into a row: the inverse of the cells Views
// builds from the row's fields (a nullable column boxed, nil for NULL).
func (g *gen) changeType(v *viewlet.View, st string) {
	row := st + "Row"
	g.f.Commentf("%sChange is a change of a row of view %s: Old is nil for a new row, New for a removed one.", st, v.Name)
	g.f.Comment("The rows may be the engine's own, reused for the next change: copy one to keep it.")
	g.f.Type().Id(st + "Change").Struct(jen.List(jen.Id("Old"), jen.Id("New")).Op("*").Id(row))
	g.f.Commentf("On%sChange makes the engine call f with each change of a row of view %s, as OnChanges\nreports them (when both are set, both are called). On%sChange(nil) stops the calls.", st, v.Name, st)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("On"+st+"Change").Params(jen.Id("f").Func().Params(jen.Id(st+"Change"))).Block(
		jen.Id("e").Dot("subs").Dot("on"+st).Op("=").Id("f"),
		jen.Id("e").Dot("resubscribe").Call())
	field := rowFields()
	d := jen.Dict{}
	unbox := func(t jen.Code, nullable bool, cell jen.Code) jen.Code {
		if nullable {
			return jen.Qual(runtimePkg, "UnboxNull").Types(t).Call(cell)
		}
		return jen.Qual(runtimePkg, "Unbox").Types(t).Call(cell)
	}
	for i, k := range v.Keys {
		d[jen.Id(field(k.Name))] = unbox(goType(k.Var.Type), k.Present.Name != "", jen.Id("key").Index(jen.Lit(i)))
	}
	// A numbered view's changes show the numbers among the keys, after the
	// view's own (runtime.NumberCopies).
	shown, nk := 0, len(v.Keys)
	for i, val := range v.Values {
		cell := jen.Id("vals").Index(jen.Lit(shown))
		if at := slices.Index(v.Numbered, i); at >= 0 {
			cell = jen.Id("key").Index(jen.Lit(nk + at))
		} else {
			shown++
		}
		d[jen.Id(field(val.Name))] = unbox(goType(val.Type), val.Present != nil, cell)
	}
	g.f.Commentf("changeRow%s is the row of view %s with the cells key and vals (nil: no row).", st, v.Name)
	g.f.Func().Id("changeRow"+st).Params(jen.List(jen.Id("key"), jen.Id("vals")).Index().Any()).Op("*").Id(row).Block(
		jen.If(jen.Id("vals").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Op("&").Id(row).Values(d)))
}

// unwatchAll stops watching every keyed view.
func (g *gen) unwatchAll() []jen.Code {
	var code []jen.Code
	for vi, v := range g.p.Views {
		if g.keyedView(v) {
			code = append(code, jen.Id("e").Dot(fmt.Sprintf("watch%d", vi)).Call(jen.False()))
		}
	}
	return code
}

// changeState are the Engine fields that hold its change streams' state,
// which a restore keeps.
func (g *gen) changeState() []string {
	out := []string{"changes", "shown"}
	for vi, v := range g.p.Views {
		if g.keyedView(v) {
			out = append(out, chName("Touched", vi), chName("Rows", vi), chName("Pending", vi))
		}
	}
	return out
}
