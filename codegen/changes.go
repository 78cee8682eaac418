package codegen

import "github.com/dave/jennifer/jen"

// Change streams (runtime.ChangeStreamer). Every engine has OnChanges:
// with a subscriber, each exported Insert/Delete (and so Apply) and each
// ApplyBatch ends by flushing — comparing the views with those last
// reported (runtime.DiffViews) and passing each changed row to the
// subscriber — so a batch reports its net changes. Without one, the cost
// is a nil check per call. A flush snapshots every view: O(rows of the
// views), not O(changed rows).

// changeMethods emits OnChanges and flushChanges.
func (g *gen) changeMethods() {
	e := func(f string) *jen.Statement { return jen.Id("e").Dot(f) }
	g.f.Comment(`OnChanges makes the engine call f, after each event applied by an Insert, Delete or
Apply method and after each ApplyBatch, with every view row the event or batch
changed: the row's keys and its values before and after (runtime.Change; nil
before for a new row, nil after for a removed one). A batch reports each row once,
and nothing for a row that changed and changed back. OnChanges(nil) stops the calls.
Each report compares snapshots of every view: O(rows of the views) per call.`)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("OnChanges").Params(jen.Id("f").Func().Params(jen.Qual(runtimePkg, "Change"))).Block(
		e("changes").Op("=").Id("f"),
		e("shown").Op("=").Nil(),
		jen.If(jen.Id("f").Op("!=").Nil()).Block(e("shown").Op("=").Add(e("Views")).Call()))
	g.f.Comment("flushChanges reports the changes of the views since the last report.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("flushChanges").Params().Block(
		jen.Id("now").Op(":=").Add(e("Views")).Call(),
		jen.Qual(runtimePkg, "DiffViews").Call(e("shown"), jen.Id("now"), e("changes")),
		e("shown").Op("=").Id("now"))
}
