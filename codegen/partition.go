package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// Partitioned engines (runtime.Partitioned). Given a partition plan that
// splits the work (Options.Partition), the package says per relation
// which column routes its events (PartitionColumns), makes engines of
// the same query (NewPartition) and merges several engines' views
// (MergeViews): a new engine whose view maps are the sum of the
// engines' — each less New's initial entries, which every engine
// starts with and the sum must hold once —, or the first engine's for
// the aggregates the plan replicates, and whose views are then read as
// usual (the top-K orders repositioned as after a restore). The maps and
// the rule are viewlet.MergeMaps'; where the views do not merge so (a
// view tree, a triangle kernel), Generate emits no partition methods, and
// drivers run one engine.

// partitionMethods emits PartitionColumns, NewPartition and MergeViews
// when the plan splits the work and the views merge by their maps.
func (g *gen) partitionMethods(plan *calculus.PartitionPlan) {
	sum, one, why := viewlet.MergeMaps(g.p, plan)
	if why != "" {
		return
	}
	var cols []jen.Code
	for _, c := range viewlet.PartitionColumns(g.p, plan) {
		cols = append(cols, jen.Lit(c))
	}
	g.f.Comment(`PartitionColumns returns, per relation (in the order of Relations), the column
whose value routes its events to a partition, or runtime.Broadcast (every
partition gets them): the query's partition plan (toastgen m3 -partitions).`)
	g.f.Func().Params(jen.Op("*").Id("Engine")).Id("PartitionColumns").Params().Index().Int().Block(
		jen.Return(jen.Index().Int().Values(cols...)))
	g.f.Comment("NewPartition returns a new engine of the query (New).")
	g.f.Func().Params(jen.Op("*").Id("Engine")).Id("NewPartition").Params().Qual(runtimePkg, "Partitioned").Block(
		jen.Return(jen.Id("New").Call()))

	var body []jen.Code
	body = append(body, jen.Id("e").Op(":=").Id("New").Call())
	// The replicated maps hold the first engine's entries alone.
	for _, m := range one {
		body = append(body, g.addInitial(m, -1)...)
	}
	var each []jen.Code
	for _, m := range sum {
		mi := g.maps[m.Name]
		each = append(each, g.addEntries(mi, jen.Id("p"))...)
		each = append(each, g.addInitial(m, -1)...)
	}
	loop := []jen.Code{
		jen.List(jen.Id("p"), jen.Id("ok")).Op(":=").Id("part").Assert(jen.Op("*").Id("Engine")),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(
			jen.Lit("MergeViews: part %d is a %T, not an engine of this package"), jen.Id("pi"), jen.Id("part")))),
	}
	if len(one) > 0 {
		loop = append(loop, jen.If(jen.Id("pi").Op("==").Lit(0)).Block(g.oneEntries(one)...))
	}
	body = append(body, jen.For(jen.List(jen.Id("pi"), jen.Id("part")).Op(":=").Range().Id("parts")).Block(append(loop, each...)...))
	body = append(body, g.topReorders(nil)...)
	if g.hasChecks {
		body = append(body, jen.If(jen.Id("e").Dot("overflow")).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(
			jen.Lit("MergeViews: an INT sum of the partitions leaves int64")))))
	}
	body = append(body, jen.Return(jen.Id("e").Dot("Views").Call(), jen.Nil()))
	g.f.Comment(`MergeViews returns the views of the events the parts were given together:
the parts (engines of this package, each given one partition's events and every
broadcast relation's) are read, not changed. A new engine holds the sum of their
view maps (the aggregates over broadcast relations alone from the first part),
and its views are read.`)
	g.f.Func().Params(jen.Op("*").Id("Engine")).Id("MergeViews").Params(jen.Id("parts").Index().Qual(runtimePkg, "Partitioned")).Params(
		jen.Index().Qual(runtimePkg, "View"), jen.Error()).Block(body...)
	g.f.Var().Id("_").Qual(runtimePkg, "Partitioned").Op("=").Parens(jen.Op("*").Id("Engine")).Parens(jen.Nil())
}

// oneEntries adds the first part's entries of the replicated maps.
func (g *gen) oneEntries(one []*viewlet.Map) []jen.Code {
	var code []jen.Code
	for _, m := range one {
		code = append(code, g.addEntries(g.maps[m.Name], jen.Id("p"))...)
	}
	return code
}

// addEntries adds every entry of map mi in engine s to e's.
func (g *gen) addEntries(mi *mapInfo, s *jen.Statement) []jen.Code {
	// A FLOAT sum is added as its two parts (FloatSum.Parts), so that the
	// merged sum is rounded once, as the one engine's would be.
	add := func(k jen.Code, v *jen.Statement) []jen.Code {
		if mi.m.Type != lang.TFloat {
			return g.addToMap(mi, k, v)
		}
		return append([]jen.Code{jen.List(jen.Id("hi"), jen.Id("lo")).Op(":=").Add(v).Dot("Parts").Call()},
			append(g.addToMap(mi, k, jen.Id("hi")), g.addToMap(mi, k, jen.Id("lo"))...)...)
	}
	if !mi.keyed {
		return []jen.Code{jen.Block(add(nil, s.Clone().Dot(mi.field))...)}
	}
	return []jen.Code{g.eachEntry(s, mi, false, func(k, v *jen.Statement) []jen.Code {
		return add(k, v)
	})}
}

// addInitial adds sign times New's initial entries of m to e's.
func (g *gen) addInitial(m *viewlet.Map, sign float64) []jen.Code {
	mi := g.maps[m.Name]
	var code []jen.Code
	if !mi.keyed {
		if m.Init != 0 {
			code = append(code, g.addToMap(mi, nil, valueLit(m.Type, sign*m.Init))...)
		}
		return code
	}
	for _, ie := range m.InitEntries {
		vals := make([]jen.Code, len(ie.Keys))
		for i, k := range ie.Keys {
			vals[i] = keyLit(m.Keys[i].Type, k)
		}
		code = append(code, g.addToMap(mi, g.keyValue(m.Keys, vals), valueLit(m.Type, sign*ie.Value))...)
	}
	return code
}
