package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/lang"
)

// Static tables (viewlet.Program.StaticTables, dialect dbtoaster): the
// triggers lack the statements that matter only when a table changes after
// stream events, so an event on a table after the first stream event is
// rejected, state unchanged (runtime.ErrStaticTable). Engine.streamed
// records the first stream event; each entry point checks: the exported
// Insert and Delete methods, Apply (before parsing) and ApplyBatch (the
// whole batch, before any event fires).

// staticGuard is the start of relation r's exported Insert or Delete
// method args: a table's rejects the event once a stream event has run, a
// stream's notes one. Nil without static tables.
func (g *gen) staticGuard(r *lang.Relation, insert bool, args []jen.Code) []jen.Code {
	if !g.p.StaticTables {
		return nil
	}
	if r.Stream {
		return []jen.Code{jen.Id("e").Dot("streamed").Op("=").True()}
	}
	errArgs := append([]jen.Code{jen.Lit(r.Name), jen.Lit(insert)}, args...)
	return []jen.Code{jen.If(jen.Id("e").Dot("streamed")).Block(
		jen.Return(jen.Qual(runtimePkg, "StaticTableError").Call(errArgs...)))}
}

// isStream is the condition that relation index rel (an int expression)
// is a stream's, nil if every relation is a table.
func (g *gen) isStream(rel jen.Code) *jen.Statement {
	var c *jen.Statement
	for i, r := range g.p.Relations {
		if !r.Stream {
			continue
		}
		eq := jen.Add(rel).Op("==").Lit(i)
		if c == nil {
			c = eq
		} else {
			c = c.Op("||").Add(eq)
		}
	}
	return c
}

// applyGuard is Apply's check of relation index rel before its fields are
// parsed (nil without static tables).
func (g *gen) applyGuard() jen.Code {
	if !g.p.StaticTables {
		return jen.Null()
	}
	stream := g.isStream(jen.Id("rel"))
	if stream == nil {
		return jen.Null()
	}
	return jen.If(stream).Block(jen.Id("e").Dot("streamed").Op("=").True()).Else().If(
		jen.Id("e").Dot("streamed").Op("&&").Id("rel").Op(">=").Lit(0).Op("&&").Id("rel").Op("<").Len(jen.Id("relations"))).Block(
		jen.Return(jen.Qual(runtimePkg, "StaticTableError").Call(jen.Id("relations").Index(jen.Id("rel")).Dot("Name"), jen.Id("insert"),
			jen.Qual(runtimePkg, "FieldValues").Call(jen.Id("f")).Op("..."))))
}

// batchGuard is ApplyBatch's check of the batch b: an event on a static
// table after a stream event, in the batch or before it, rejects it whole.
func (g *gen) batchGuard() jen.Code {
	if !g.p.StaticTables {
		return jen.Null()
	}
	stream := g.isStream(jen.Id("rel"))
	if stream == nil {
		return jen.Null()
	}
	return jen.Block(
		jen.Id("streamed").Op(":=").Id("e").Dot("streamed"),
		jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("b").Dot("ops")).Block(
			jen.Id("rel").Op(":=").Int().Call(jen.Id("op").Op(">>").Lit(1)),
			jen.If(stream).Block(jen.Id("streamed").Op("=").True()).Else().If(jen.Id("streamed")).Block(
				jen.Return(jen.Qual(runtimePkg, "StaticTableError").Call(jen.Id("relations").Index(jen.Id("rel")).Dot("Name"), jen.Id("op").Op("&").Lit(1).Op("==").Lit(1))))),
		// Set when the batch is done: its table events (all before its
		// first stream event) fire first.
		jen.Defer().Func().Params().Block(jen.Id("e").Dot("streamed").Op("=").Id("e").Dot("streamed").Op("||").Id("streamed")).Call(),
	)
}
