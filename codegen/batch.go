package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/lang"
)

// Batches. A Batch holds parsed tuples, per relation, and the order of
// its events. ApplyBatch consolidates it first, as Z-sets add: per
// relation, each distinct tuple's inserts and deletes sum to a net
// multiplicity, and of its events only the first |net| of the net's sign
// fire, in the batch's order (a tuple inserted and deleted fires nothing).
// Only the relations with both inserts and deletes in the batch are
// hashed: the others' events cannot cancel. That is the state the events
// give applied one by one — every map is a sum over the base relations,
// whatever the order — but an integer overflow that the events cancelled
// would have met. A
// Batch marked InOrder fires every event as it was added (what benchmarks
// of per-event triggers time). Tuples are compared as stored: the columns
// the triggers read (narrowTuple), so tuples that differ only in columns no
// view reads cancel too, as their effects do.

// batchRel is what the batch code needs of a relation.
type batchRel struct {
	r      *lang.Relation
	index  int
	tuple  string     // the parsed tuple type
	targs  []jen.Code // the tuple's columns as arguments (nil: not stored), over t
	narrow []bool     // the columns stored, nil for all
}

func (br batchRel) field() string { return fmt.Sprintf("t%d", br.index) }

// batchType emits type Batch (runtime.Batch), its typed Insert, Delete
// and Update methods, NewBatch and ApplyBatch.
func (g *gen) batchType(brels []batchRel, badRel jen.Code) {
	fields := []jen.Code{jen.Id("ops").Index().Uint16().Comment("relation index << 1 | insert")}
	var addCases, inOrderCases []jen.Code
	for _, br := range brels {
		pn := "parse" + exportedName(br.r.Name)
		fields = append(fields, jen.Id(br.field()).Index().Id(br.tuple))
		addCases = append(addCases, jen.Case(jen.Lit(br.index)).Block(
			jen.List(jen.Id("t"), jen.Err()).Op(":=").Id(pn).Call(jen.Id("f")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id("b").Dot(br.field()).Op("=").Append(jen.Id("b").Dot(br.field()), jen.Id("t")),
			jen.Id("b").Dot("op").Call(jen.Lit(br.index), jen.Id("insert")),
		))
		inOrderCases = append(inOrderCases, jen.Case(jen.Lit(br.index)).Block(
			jen.Id("t").Op(":=").Op("&").Id("b").Dot(br.field()).Index(jen.Id("pos").Index(jen.Lit(br.index))),
			jen.Id("pos").Index(jen.Lit(br.index)).Op("++"),
			jen.If(jen.Id("op").Op("&").Lit(1).Op("==").Lit(1)).Block(g.fire("Insert"+exportedName(br.r.Name), br.targs)...).Else().Block(g.fire("Delete"+exportedName(br.r.Name), br.targs)...),
		))
	}
	fields = append(fields, jen.Id("inOrder").Bool().Comment("fire the events as added, unconsolidated"))
	fields = append(fields, jen.Id("policy").Qual(runtimePkg, "Policy").Comment("how ApplyBatch applies the consolidated events"))
	g.f.Comment(`Batch holds events for ApplyBatch: parsed (Add, runtime.Batch) or typed (Insert,
Delete and Update methods per relation). The zero Batch is empty and ready to use.`)
	g.f.Type().Id("Batch").Struct(fields...)
	g.f.Comment("op records an event of relation rel, its tuple appended to the relation's.")
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("op").Params(jen.Id("rel").Int(), jen.Id("insert").Bool()).Block(
		jen.Id("op").Op(":=").Uint16().Call(jen.Id("rel")).Op("<<").Lit(1),
		jen.If(jen.Id("insert")).Block(jen.Id("op").Op("|=").Lit(1)),
		jen.Id("b").Dot("ops").Op("=").Append(jen.Id("b").Dot("ops"), jen.Id("op")))
	g.f.Comment("Add parses one event and appends it to the batch.")
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("Add").Params(jen.Id("rel").Int(), jen.Id("insert").Bool(), jen.Id("f").Index().Index().Byte()).Error().Block(
		jen.Switch(jen.Id("rel")).Block(append(addCases, badRel)...),
		jen.Return(jen.Nil()))
	for _, br := range brels {
		g.typedBatchMethods(br)
	}
	g.f.Comment("Len returns the number of events in the batch.")
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("Len").Params().Int().Block(jen.Return(jen.Len(jen.Id("b").Dot("ops"))))
	g.f.Comment(`InOrder makes ApplyBatch fire every event of the batch as it was added, in order,
without consolidating them first: what a benchmark of the per-event triggers times.`)
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("InOrder").Params().Block(jen.Id("b").Dot("inOrder").Op("=").True())
	g.f.Comment(`SetPolicy sets how ApplyBatch applies the batch's consolidated events: runtime.Auto (the
zero value), runtime.Incremental or runtime.SetAtATime.`)
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("SetPolicy").Params(jen.Id("p").Qual(runtimePkg, "Policy")).Block(jen.Id("b").Dot("policy").Op("=").Id("p"))
	g.f.Comment("NewBatch returns an empty batch of events for ApplyBatch (a *Batch).")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("NewBatch").Params().Qual(runtimePkg, "Batch").Block(jen.Return(jen.Op("&").Id("Batch").Values()))

	g.f.Comment(`ApplyBatch applies a *Batch as one step. It consolidates the batch first, as Z-sets
add: per relation, the inserts and deletes of each distinct tuple sum to a net
multiplicity, and only the tuple's first |net| events of the net's sign fire, in
the batch's order (a tuple inserted and deleted in the batch fires no trigger).
The views are those of the events applied one by one. A batch marked InOrder
fires all its events as added. ApplyBatch stops at the first
event that its trigger rejects (an integer overflow: that event is undone) and
returns its *runtime.EventError; a batch of another engine is an error. A
subscriber (OnChanges) is told the batch's net changes once, at its end.`)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("ApplyBatch").Params(jen.Id("rb").Qual(runtimePkg, "Batch")).Error().Block(
		jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Id("rb").Assert(jen.Op("*").Id("Batch")),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("ApplyBatch: the batch (%T) was not made by this package's NewBatch"), jen.Id("rb")))),
		g.batchGuard(),
		jen.Comment("The events report nothing one by one: the batch reports its net changes at its end."),
		jen.If(jen.Id("f").Op(":=").Id("e").Dot("changes"), jen.Id("f").Op("!=").Nil()).Block(
			jen.Id("e").Dot("changes").Op("=").Nil(),
			jen.Defer().Func().Params().Block(
				jen.Id("e").Dot("changes").Op("=").Id("f"),
				jen.Id("e").Dot("flushChanges").Call(),
			).Call()),
		jen.If(jen.Id("b").Dot("inOrder").Op("||").Len(jen.Id("b").Dot("ops")).Op("<").Lit(2)).Block(
			jen.Return(jen.Id("e").Dot("applyInOrder").Call(jen.Id("b")))),
		jen.Return(jen.Id("e").Dot("applyConsolidated").Call(jen.Id("b"))))

	g.f.Comment("applyInOrder fires the events of b as added.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("applyInOrder").Params(jen.Id("b").Op("*").Id("Batch")).Error().Block(
		jen.Var().Id("pos").Index(jen.Lit(len(brels))).Int(),
		jen.Id("_").Op("=").Id("pos"),
		jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("b").Dot("ops")).Block(
			jen.Var().Err().Error(),
			jen.Switch(jen.Id("op").Op(">>").Lit(1)).Block(inOrderCases...),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))),
		jen.Return(jen.Nil()))

	// applyConsolidated: the net multiplicity of each tuple of the
	// relations with both inserts and deletes in the batch (the others'
	// tuples cannot cancel: they are not hashed), then the events in
	// order, each tuple's first |net| of its net sign fired.
	n := len(brels)
	body := []jen.Code{
		jen.Var().List(jen.Id("ins"), jen.Id("del")).Index(jen.Lit(n)).Int(),
		jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("b").Dot("ops")).Block(
			jen.If(jen.Id("op").Op("&").Lit(1).Op("==").Lit(1)).Block(jen.Id("ins").Index(jen.Id("op").Op(">>").Lit(1)).Op("++")).Else().Block(
				jen.Id("del").Index(jen.Id("op").Op(">>").Lit(1)).Op("++"))),
	}
	var sumCases, fireCases []jen.Code
	for _, br := range brels {
		net, slot, index := fmt.Sprintf("net%d", br.index), fmt.Sprintf("slot%d", br.index), fmt.Sprintf("index%d", br.index)
		tuples := jen.Id("b").Dot(br.field())
		body = append(body,
			jen.Comment(fmt.Sprintf("%s: per distinct tuple of %s, its net multiplicity; %s: each event's tuple's.", net, br.r.Name, slot)),
			jen.Var().Id(net).Index().Int64(),
			jen.Var().Id(slot).Index().Int32(),
			jen.If(jen.Id("ins").Index(jen.Lit(br.index)).Op(">").Lit(0).Op("&&").Id("del").Index(jen.Lit(br.index)).Op(">").Lit(0)).Block(
				jen.Id(index).Op(":=").Make(jen.Map(jen.Id(br.tuple)).Int32(), jen.Len(tuples.Clone())),
				jen.Id(slot).Op("=").Make(jen.Index().Int32(), jen.Len(tuples.Clone())),
				jen.For(jen.Id("i").Op(":=").Range().Add(tuples.Clone())).Block(
					jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Id(index).Index(tuples.Clone().Index(jen.Id("i"))),
					jen.If(jen.Op("!").Id("ok")).Block(
						jen.Id("s").Op("=").Int32().Call(jen.Len(jen.Id(net))),
						jen.Id(index).Index(tuples.Clone().Index(jen.Id("i"))).Op("=").Id("s"),
						jen.Id(net).Op("=").Append(jen.Id(net), jen.Lit(0))),
					jen.Id(slot).Index(jen.Id("i")).Op("=").Id("s"))))
		sumCases = append(sumCases, jen.Case(jen.Lit(br.index)).Block(
			jen.If(jen.Id(slot).Op("!=").Nil()).Block(
				jen.Id(net).Index(jen.Id(slot).Index(jen.Id("pos").Index(jen.Lit(br.index)))).Op("+=").Id("d")),
			jen.Id("pos").Index(jen.Lit(br.index)).Op("++"),
		))
		fireCases = append(fireCases, jen.Case(jen.Lit(br.index)).Block(
			jen.Id("t").Op(":=").Op("&").Add(tuples.Clone()).Index(jen.Id("pos").Index(jen.Lit(br.index))),
			jen.If(jen.Id(slot).Op("!=").Nil()).Block(
				jen.Id("s").Op(":=").Id(slot).Index(jen.Id("pos").Index(jen.Lit(br.index))),
				jen.Id("pos").Index(jen.Lit(br.index)).Op("++"),
				jen.If(jen.Id(net).Index(jen.Id("s")).Op("*").Id("d").Op("<=").Lit(0)).Block(jen.Continue().Comment("cancelled, or its net events fired")),
				jen.Id(net).Index(jen.Id("s")).Op("-=").Id("d")).Else().Block(
				jen.Id("pos").Index(jen.Lit(br.index)).Op("++")),
			jen.If(jen.Id("d").Op("==").Lit(1)).Block(g.fire("Insert"+exportedName(br.r.Name), br.targs)...).Else().Block(g.fire("Delete"+exportedName(br.r.Name), br.targs)...),
		))
	}
	sign := []jen.Code{
		jen.Id("d").Op(":=").Int64().Call(jen.Lit(-1)),
		jen.If(jen.Id("op").Op("&").Lit(1).Op("==").Lit(1)).Block(jen.Id("d").Op("=").Lit(1)),
	}
	body = append(body,
		jen.Var().Id("pos").Index(jen.Lit(n)).Int(),
		jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("b").Dot("ops")).Block(
			append(sign, jen.Switch(jen.Id("op").Op(">>").Lit(1)).Block(sumCases...))...),
		jen.Id("pos").Op("=").Index(jen.Lit(n)).Int().Values())
	if sps := g.setPlans(); len(sps) > 0 {
		body = append(body, g.byRelation(brels, sps, sign)...)
	}
	body = append(body,
		jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("b").Dot("ops")).Block(
			append(append(sign, jen.Var().Err().Error()),
				jen.Switch(jen.Id("op").Op(">>").Lit(1)).Block(fireCases...),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))...),
		jen.Return(jen.Nil()))
	if n == 0 {
		// No relation: a batch holds no event (a file of constant queries).
		body = []jen.Code{jen.Return(jen.Nil())}
	}
	g.f.Comment("applyConsolidated fires the events of b in order but those that cancel: per tuple of a\nrelation, its first |net| events of the net multiplicity's sign fire.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("applyConsolidated").Params(jen.Id("b").Op("*").Id("Batch")).Error().Block(body...)
}

// byRelation is the part of applyConsolidated that applies the events
// relation by relation, unless the batch's policy is Incremental: each
// relation's events that do not cancel (its live positions, and whether
// each is an insert), then per relation, in the order of their first
// events, the set-at-a-time triggers (batchSet<Rel>) where the policy
// chooses them, else the per-event ones (batchEach<Rel>).
func (g *gen) byRelation(brels []batchRel, sps []*setPlan, sign []jen.Code) []jen.Code {
	n := len(brels)
	var keepCases, applyCases []jen.Code
	for _, br := range brels {
		net, slot := fmt.Sprintf("net%d", br.index), fmt.Sprintf("slot%d", br.index)
		keepCases = append(keepCases, jen.Case(jen.Lit(br.index)).Block(
			jen.If(jen.Id(slot).Op("!=").Nil()).Block(
				jen.Id("s").Op(":=").Id(slot).Index(jen.Id("i")),
				jen.If(jen.Id(net).Index(jen.Id("s")).Op("*").Id("d").Op("<=").Lit(0)).Block(jen.Continue().Comment("cancelled, or its net events kept")),
				jen.Id(net).Index(jen.Id("s")).Op("-=").Id("d"))))
		stem := exportedName(br.r.Name)
		args := []jen.Code{jen.Id("b"), jen.Id("live").Index(jen.Lit(br.index)), jen.Id("isIns").Index(jen.Lit(br.index))}
		each := jen.Err().Op("=").Id("e").Dot("batchEach" + stem).Call(args...)
		var sp *setPlan
		for _, x := range sps {
			if x.r == br.r {
				sp = x
			}
		}
		if sp == nil {
			applyCases = append(applyCases, jen.Case(jen.Lit(br.index)).Block(each))
		} else {
			ch := jen.Id("e").Dot("setChoice" + stem)
			live, isIns := jen.Id("live").Index(jen.Lit(br.index)), jen.Id("isIns").Index(jen.Lit(br.index))
			applyCases = append(applyCases, jen.Case(jen.Lit(br.index)).Block(
				jen.Comment("The first k events one by one, the others set-at-a-time (runtime.SetChooser)."),
				jen.Id("n").Op(":=").Len(live.Clone()),
				jen.Id("k").Op(":=").Add(ch.Clone()).Dot("Plan").Call(jen.Id("b").Dot("policy"), jen.Id("n")),
				jen.If(jen.Id("k").Op(">").Lit(0)).Block(
					jen.Id("start").Op(":=").Add(ch.Clone()).Dot("Start").Call(jen.Id("b").Dot("policy"), jen.Id("k")),
					jen.Err().Op("=").Id("e").Dot("batchEach"+stem).Call(jen.Id("b"), live.Clone().Index(jen.Empty(), jen.Id("k")), isIns.Clone().Index(jen.Empty(), jen.Id("k"))),
					ch.Clone().Dot("Stop").Call(jen.Id("start"), jen.False(), jen.Id("k"))),
				jen.If(jen.Err().Op("==").Nil().Op("&&").Id("k").Op("<").Id("n")).Block(
					jen.Id("start").Op(":=").Add(ch.Clone()).Dot("Start").Call(jen.Id("b").Dot("policy"), jen.Id("n").Op("-").Id("k")),
					jen.Err().Op("=").Id("e").Dot("batchSet"+stem).Call(jen.Id("b"), live.Clone().Index(jen.Id("k"), jen.Empty()), isIns.Clone().Index(jen.Id("k"), jen.Empty())),
					ch.Clone().Dot("Stop").Call(jen.Id("start"), jen.True(), jen.Id("n").Op("-").Id("k")))))
			g.batchSetMethod(br, sp)
		}
		g.batchEachMethod(br)
	}
	// Auto goes relation by relation only when a relation with a
	// set-at-a-time form will go set-at-a-time (runtime.SetChooser.Wants:
	// it has enough events and that has been the faster way).
	var wants []jen.Code
	for _, sp := range sps {
		for _, br := range brels {
			if br.r == sp.r {
				wants = append(wants, jen.If(jen.Id("e").Dot("setChoice"+exportedName(br.r.Name)).Dot("Wants").Call(jen.Id("b").Dot("policy"), jen.Id("ins").Index(jen.Lit(br.index)).Op("+").Id("del").Index(jen.Lit(br.index)))).Block(
					jen.Id("want").Op("=").True()))
			}
		}
	}
	pre := []jen.Code{
		jen.Id("want").Op(":=").False(),
		jen.If(jen.Id("b").Dot("policy").Op("==").Qual(runtimePkg, "Auto")).Block(wants...),
	}
	return append(pre,
		jen.If(jen.Id("b").Dot("policy").Op("==").Qual(runtimePkg, "SetAtATime").Op("||").Id("want")).Block(
			jen.Var().Id("live").Index(jen.Lit(n)).Index().Int32(),
			jen.Var().Id("isIns").Index(jen.Lit(n)).Index().Bool(),
			jen.Var().Id("seen").Index(jen.Lit(n)).Bool(),
			jen.Var().Id("order").Index().Int(),
			jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("b").Dot("ops")).Block(
				append(append([]jen.Code{}, sign...),
					jen.Id("r").Op(":=").Int().Call(jen.Id("op").Op(">>").Lit(1)),
					jen.Id("i").Op(":=").Id("pos").Index(jen.Id("r")),
					jen.Id("pos").Index(jen.Id("r")).Op("++"),
					jen.If(jen.Op("!").Id("seen").Index(jen.Id("r"))).Block(
						jen.Id("seen").Index(jen.Id("r")).Op("=").True(),
						jen.Id("order").Op("=").Append(jen.Id("order"), jen.Id("r")),
						jen.Id("live").Index(jen.Id("r")).Op("=").Make(jen.Index().Int32(), jen.Lit(0), jen.Id("ins").Index(jen.Id("r")).Op("+").Id("del").Index(jen.Id("r"))),
						jen.Id("isIns").Index(jen.Id("r")).Op("=").Make(jen.Index().Bool(), jen.Lit(0), jen.Id("ins").Index(jen.Id("r")).Op("+").Id("del").Index(jen.Id("r")))),
					jen.Switch(jen.Id("r")).Block(keepCases...),
					jen.Id("live").Index(jen.Id("r")).Op("=").Append(jen.Id("live").Index(jen.Id("r")), jen.Int32().Call(jen.Id("i"))),
					jen.Id("isIns").Index(jen.Id("r")).Op("=").Append(jen.Id("isIns").Index(jen.Id("r")), jen.Id("d").Op("==").Lit(1)))...),
			jen.For(jen.List(jen.Id("_"), jen.Id("r")).Op(":=").Range().Id("order")).Block(
				jen.Var().Err().Error(),
				jen.Switch(jen.Id("r")).Block(applyCases...),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))),
			jen.Return(jen.Nil())))
}

// batchEachMethod emits batchEach<Rel>: the events at positions live of
// the batch's tuples of the relation, each by its trigger.
func (g *gen) batchEachMethod(br batchRel) {
	stem := exportedName(br.r.Name)
	g.f.Commentf("batchEach%s fires the events of %s at positions live of the batch (inserts where ins),\none by one.", stem, br.r.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("batchEach"+stem).Params(jen.Id("b").Op("*").Id("Batch"), jen.Id("live").Index().Int32(), jen.Id("ins").Index().Bool()).Error().Block(
		jen.For(jen.List(jen.Id("j"), jen.Id("i")).Op(":=").Range().Id("live")).Block(
			jen.Id("t").Op(":=").Op("&").Id("b").Dot(br.field()).Index(jen.Id("i")),
			jen.Var().Err().Error(),
			jen.If(jen.Id("ins").Index(jen.Id("j"))).Block(g.fire("Insert"+stem, br.targs)...).Else().Block(g.fire("Delete"+stem, br.targs)...),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))),
		jen.Return(jen.Nil()))
}

// batchSetMethod emits batchSet<Rel>: the events at positions live of
// the relation's tuples, set-at-a-time. An overflow undoes the
// set-at-a-time statements (their sums negated, in wrapping arithmetic)
// and fires the events one by one, so that the first event that overflows
// is rejected as it would be alone.
func (g *gen) batchSetMethod(br batchRel, sp *setPlan) {
	stem := exportedName(br.r.Name)
	collect := func(name string) []jen.Code {
		reads, ok := g.setCollects[name]
		if !ok {
			return nil
		}
		args := make([]jen.Code, len(reads))
		for i, c := range reads {
			args[i] = br.targs[c]
		}
		return []jen.Code{jen.Id("e").Dot(name).Call(args...)}
	}
	ci, cd := collect("collectInsert"+stem), collect("collectDelete"+stem)
	each := []jen.Code{jen.Id("t").Op(":=").Op("&").Id("b").Dot(br.field()).Index(jen.Id("i"))}
	if len(g.setCollects["collectInsert"+stem])+len(g.setCollects["collectDelete"+stem]) == 0 {
		each = append(each, jen.Id("_").Op("=").Id("t"))
	}
	body := []jen.Code{
		jen.For(jen.List(jen.Id("j"), jen.Id("i")).Op(":=").Range().Id("live")).Block(
			append(each, jen.If(jen.Id("ins").Index(jen.Id("j"))).Block(ci...).Else().Block(cd...))...),
		jen.Id("e").Dot("applySet" + stem).Call(),
	}
	if g.hasChecks {
		body = append(body, jen.If(jen.Id("e").Dot("overflow")).Block(
			jen.Id("e").Dot("undoing").Op("=").True(),
			jen.Id("e").Dot("negateSet"+stem).Call(),
			jen.Id("e").Dot("applySet"+stem).Call(),
			jen.List(jen.Id("e").Dot("undoing"), jen.Id("e").Dot("overflow")).Op("=").List(jen.False(), jen.False()),
			jen.Id("e").Dot("resetSet"+stem).Call(),
			jen.Return(jen.Id("e").Dot("batchEach"+stem).Call(jen.Id("b"), jen.Id("live"), jen.Id("ins")))))
	}
	body = append(body, jen.Id("e").Dot("resetSet"+stem).Call(), jen.Return(jen.Nil()))
	g.f.Commentf("batchSet%s applies the events of %s at positions live of the batch (inserts where ins)\nset-at-a-time: their values summed by the keys the statements read, then the statements once\nper key. On an integer overflow it undoes that and fires them one by one instead.", stem, br.r.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("batchSet"+stem).Params(jen.Id("b").Op("*").Id("Batch"), jen.Id("live").Index().Int32(), jen.Id("ins").Index().Bool()).Error().Block(body...)
}

// typedBatchMethods emits Insert<R>, Delete<R> and Update<R> on Batch:
// the tuple given as typed columns, as the Engine's methods take them (a
// NULL of a nullable column normalized), stored as parsed tuples are.
func (g *gen) typedBatchMethods(br batchRel) {
	stem := exportedName(br.r.Name)
	var params, oldParams []jen.Code
	var norm, normOld []jen.Code // a NULL's value made zero, in the new and the old tuple
	lit, oldLit := jen.Dict{}, jen.Dict{}
	for i, c := range br.r.Columns {
		n := varName(strings.ToLower(c.Name))
		if n == "b" || n == "t" || strings.HasPrefix(n, "old_") {
			n += "_"
		}
		old := "old_" + n
		params = append(params, jen.Id(n).Add(columnType(c)))
		oldParams = append(oldParams, jen.Id(old).Add(columnType(c)))
		if br.narrow != nil && !br.narrow[i] {
			continue
		}
		if c.Nullable {
			zero := func(x string) jen.Code {
				return jen.If(jen.Op("!").Id(x).Dot("Valid")).Block(jen.Id(x).Op("=").Qual(runtimePkg, "Null").Types(goType(c.Type)).Values())
			}
			norm, normOld = append(norm, zero(n)), append(normOld, zero(old))
		}
		lit[jen.Id(fmt.Sprintf("c%d", i))] = jen.Id(n)
		oldLit[jen.Id(fmt.Sprintf("c%d", i))] = jen.Id(old)
	}
	push := func(insert bool, d jen.Dict) []jen.Code {
		return []jen.Code{
			jen.Id("b").Dot(br.field()).Op("=").Append(jen.Id("b").Dot(br.field()), jen.Id(br.tuple).Values(d)),
			jen.Id("b").Dot("op").Call(jen.Lit(br.index), jen.Lit(insert))}
	}
	note := ""
	if n := argumentNote(br.r); n != "" {
		note = "\n\n" + n
	}
	g.f.Commentf("Insert%s adds an insert of one tuple into relation %s to the batch.%s", stem, br.r.Name, note)
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("Insert" + stem).Params(params...).Block(append(slices.Clone(norm), push(true, lit)...)...)
	g.f.Commentf("Delete%s adds a delete of one tuple from relation %s to the batch.%s", stem, br.r.Name, note)
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("Delete" + stem).Params(params...).Block(append(slices.Clone(norm), push(false, lit)...)...)
	g.f.Commentf("Update%s adds an update of a tuple of relation %s to the batch: the delete of the old\ntuple (old_…), then the insert of the new one.%s", stem, br.r.Name, note)
	g.f.Func().Params(jen.Id("b").Op("*").Id("Batch")).Id("Update" + stem).Params(append(oldParams, params...)...).Block(
		append(append(append(normOld, norm...), push(false, oldLit)...), push(true, lit)...)...)
}
