package codegen

import (
	"path/filepath"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Snapshots (runtime.Snapshotter). WriteSnapshot writes every map's live
// entries, in the Program's map order, in the format of
// runtime.SnapshotWriter — the interpreter writes the same — and
// RestoreSnapshot reads them into a new engine through each storage
// type's load method, which adds an entry the way the triggers do, so
// that the secondary, ordered, range-sum and mode indexes and the top-K
// touch lists are built as they are kept. What is not in the maps is
// rebuilt from them: the triangle kernels from their inputs' entries, the
// factorized views' levels by touching every node at every key of its
// count factor, the top-K orders by repositioning the touched rows. The
// new engine replaces the receiver's state only once the whole snapshot
// has been read and its checksum verified.

// snapshotMethods emits WriteSnapshot, RestoreSnapshot and ReadSnapshot,
// and marks the maps' load methods used.
func (g *gen) snapshotMethods() {
	g.f.Comment("snapshotQuery and snapshotHash identify the compiled maps in snapshots (viewlet's Program.Fingerprint).")
	g.f.Const().Defs(
		jen.Id("snapshotQuery").Op("=").Lit(filepath.Base(g.src)),
		jen.Id("snapshotHash").Op("=").Lit(g.p.Fingerprint()),
	)
	sw := jen.Id("sw")
	var write []jen.Code
	write = append(write, jen.Id("sw").Op(":=").Qual(runtimePkg, "NewSnapshotWriter").Call(jen.Id("w"), jen.Qual(runtimePkg, "SnapshotHeader").Values(jen.Dict{
		jen.Id("Query"): jen.Id("snapshotQuery"), jen.Id("Hash"): jen.Id("snapshotHash"), jen.Id("Sources"): jen.Id("sources"),
	})))
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		write = append(write, sw.Clone().Dot("Map").Call(jen.Lit(m.Name)))
		if !mi.keyed {
			f := jen.Id("e").Dot(mi.field)
			write = append(write, sw.Clone().Dot("Entry").Call(), g.snapValue(m.Type, sw, f))
		} else {
			write = append(write, g.eachEntry(jen.Id("e"), mi, false, func(k, v *jen.Statement) []jen.Code {
				code := []jen.Code{sw.Clone().Dot("Entry").Call()}
				code = append(code, g.snapKey(m.Keys, sw, k)...)
				return append(code, g.snapValue(m.Type, sw, v))
			}))
		}
		write = append(write, sw.Clone().Dot("End").Call())
	}
	write = append(write, jen.Return(sw.Clone().Dot("Close").Call()))
	g.f.Comment(`WriteSnapshot writes the engine's state — every map's entries — to w, in the
format of runtime.SnapshotWriter, with the event counts of sources (how many
events of each relation the state covers; none is fine). RestoreSnapshot and
ReadSnapshot read it back, in an engine generated from the same compiled query
(or the interpreter). Writing is O(entries); the engine is not changed.`)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("WriteSnapshot").Params(
		jen.Id("w").Qual("io", "Writer"), jen.Id("sources").Op("...").Qual(runtimePkg, "SourceCount")).Error().Block(write...)

	// Reading into n, a new engine.
	sr := jen.Id("sr")
	var read []jen.Code
	read = append(read,
		jen.List(jen.Id("sr"), jen.Err()).Op(":=").Qual(runtimePkg, "NewSnapshotReader").Call(jen.Id("r"), jen.Id("snapshotQuery"), jen.Id("snapshotHash")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("n").Op(":=").Id("New").Call(),
	)
	// New's initial entries are not the snapshot's: take them out first.
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		for _, ie := range m.InitEntries {
			vals := make([]jen.Code, len(ie.Keys))
			for i, k := range ie.Keys {
				vals[i] = keyLit(m.Keys[i].Type, k)
			}
			call := jen.Id("n").Dot(mi.field).Dot("add").Call(g.keyValue(m.Keys, vals), valueLit(m.Type, -ie.Value))
			if mi.checkedInt() {
				call = jen.Id("_").Op("=").Add(call)
			}
			read = append(read, call)
		}
	}
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		read = append(read, sr.Clone().Dot("Map").Call(jen.Lit(m.Name)))
		if !mi.keyed {
			read = append(read,
				jen.If(jen.Op("!").Add(sr.Clone().Dot("Next").Call())).Block(sr.Clone().Dot("Fail").Call(jen.Lit("a keyless map without its value"))),
				jen.Id("n").Dot(mi.field).Op("=").Add(g.readValue(m.Type, sr)),
				jen.If(sr.Clone().Dot("Next").Call()).Block(sr.Clone().Dot("Fail").Call(jen.Lit("a keyless map with two values"))))
			continue
		}
		mi.usesLoad = true
		load := jen.Id("n").Dot(mi.field).Dot("load")
		if mi.tab != nil {
			load = jen.Id("n").Dot(mi.field).Dot("load" + mi.stem)
		}
		read = append(read, jen.For(sr.Clone().Dot("Next").Call()).Block(
			jen.Id("k").Op(":=").Add(g.readKey(m.Keys, sr)),
			jen.Id("v").Op(":=").Add(g.readValue(m.Type, sr)),
			jen.If(sr.Clone().Dot("Err").Call().Op("==").Nil().Op("&&").Op("!").Add(load).Call(jen.Id("k"), jen.Id("v"))).Block(
				sr.Clone().Dot("Fail").Call(jen.Lit("a duplicate key or a zero value")))))
	}
	read = append(read,
		jen.If(jen.Err().Op(":=").Add(sr.Clone().Dot("Close").Call()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("subs").Op(":=").Id("e").Dot("subs"),
		jen.Id("kept").Op(":=").Op("*").Id("e").Comment("the change streams' state"),
		jen.Op("*").Id("e").Op("=").Op("*").Id("n"),
	)
	read = append(read, g.topHookups()...)
	read = append(read, g.rebuildKernels()...)
	read = append(read, g.rebuildTrees()...)
	read = append(read, g.topReorders(nil)...)
	if g.p.StaticTables {
		read = append(read, jen.Id("e").Dot("streamed").Op("=").Qual(runtimePkg, "SnapshotStreamed").Call(jen.Id("relations"), sr.Clone().Dot("Header").Call().Dot("Sources")))
	}
	// A subscriber is told the changes from the views before to the views
	// restored: a replica kept from the stream stays equal.
	var report []jen.Code
	for _, f := range g.changeState() {
		report = append(report, jen.Id("e").Dot(f).Op("=").Id("kept").Dot(f))
	}
	if len(g.p.Views) > 0 {
		report = append(report,
			jen.For(jen.Id("i").Op(":=").Range().Id("e").Dot("dirty")).Block(jen.Id("e").Dot("dirty").Index(jen.Id("i")).Op("=").True()),
			jen.Id("e").Dot("flushChanges").Call())
	}
	read = append(read,
		jen.Id("e").Dot("subs").Op("=").Id("subs"),
		jen.If(jen.Id("kept").Dot("changes").Op("!=").Nil()).Block(report...),
		jen.Return(sr.Clone().Dot("Header").Call().Dot("Sources"), jen.Nil()))
	g.f.Comment(`RestoreSnapshot replaces the engine's state with a snapshot's (written by
WriteSnapshot of an engine of the same compiled query, or by the interpreter)
and returns the event counts it records. A snapshot of another query, of another
format version, truncated or corrupted is an error (a *runtime.SnapshotError),
and the engine is then as it was. A subscriber (OnChanges) stays subscribed and
is told the changes from the views before to the views restored.`)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("RestoreSnapshot").Params(jen.Id("r").Qual("io", "Reader")).Params(
		jen.Index().Qual(runtimePkg, "SourceCount"), jen.Error()).Block(read...)
	g.f.Comment("ReadSnapshot returns a new engine restored from the snapshot in r (see RestoreSnapshot).")
	g.f.Func().Id("ReadSnapshot").Params(jen.Id("r").Qual("io", "Reader")).Params(jen.Op("*").Id("Engine"), jen.Error()).Block(
		jen.Id("e").Op(":=").Id("New").Call(),
		jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("e").Dot("RestoreSnapshot").Call(jen.Id("r")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("e"), jen.Nil()))
}

// eachEntry loops over the live entries of keyed map mi in storage s (an
// Engine expression), calling body with the entry's key and value (as
// stored: an int64 or a runtime.FloatSum). A fused table's entry whose
// value for mi is zero is not mi's.
// The body's value is not read when keysOnly is set.
func (g *gen) eachEntry(s *jen.Statement, mi *mapInfo, keysOnly bool, body func(k, v *jen.Statement) []jen.Code) jen.Code {
	st := s.Clone().Dot(mi.field)
	chained := chainKey(mi) != nil
	slot := "val"
	if mi.tab != nil {
		chained = tableChainKey(mi.tab) != nil
		slot = mi.slot
	}
	ent := jen.Id("ent")
	var inner []jen.Code
	if !keysOnly || chained || mi.tab != nil {
		inner = append(inner, jen.Id("ent").Op(":=").Op("&").Add(st.Clone()).Dot("entries").Index(jen.Id("i")))
	}
	if mi.tab != nil {
		zero := ent.Clone().Dot(slot).Op("==").Lit(0)
		if mi.m.Type == lang.TFloat {
			zero = ent.Clone().Dot(slot).Dot("IsZero").Call()
		}
		inner = append(inner, jen.If(zero).Block(jen.Continue()))
	}
	if chained {
		inner = append(inner, body(ent.Clone().Dot("key"), ent.Clone().Dot(slot))...)
		return jen.For(jen.List(jen.Id("_"), jen.Id("head")).Op(":=").Range().Add(st.Clone()).Dot("index")).Block(
			jen.For(jen.Id("i").Op(":=").Id("head"), jen.Id("i").Op(">=").Lit(0), jen.Id("i").Op("=").Add(st.Clone()).Dot("entries").Index(jen.Id("i")).Dot("next")).Block(inner...))
	}
	inner = append(inner, body(jen.Id("k"), ent.Clone().Dot(slot))...)
	vars := jen.List(jen.Id("k"), jen.Id("i"))
	if len(inner) == 1 {
		vars = jen.Id("k")
	}
	return jen.For(vars.Op(":=").Range().Add(rangeIndex(mi.index(), st.Clone()))).Block(inner...)
}

// snapMethod is the SnapshotWriter/Reader method of a key of type t.
func snapMethod(t lang.Type) string {
	switch t {
	case lang.TFloat:
		return "Float"
	case lang.TString:
		return "String"
	case lang.TDate:
		return "Date"
	}
	return "Int"
}

// snapKey writes the key k of the variables keys.
func (g *gen) snapKey(keys []calculus.Var, sw, k *jen.Statement) []jen.Code {
	if len(keys) == 1 {
		return []jen.Code{sw.Clone().Dot(snapMethod(keys[0].Type)).Call(k)}
	}
	var code []jen.Code
	for i, v := range keys {
		code = append(code, sw.Clone().Dot(snapMethod(v.Type)).Call(keyField(k.Clone(), len(keys), i)))
	}
	return code
}

// snapValue writes the stored value v of a map of type t.
func (g *gen) snapValue(t lang.Type, sw, v *jen.Statement) jen.Code {
	if t == lang.TFloat {
		return sw.Clone().Dot("Sum").Call(v)
	}
	return sw.Clone().Dot("Int").Call(v)
}

// readKey reads a key of the variables keys (in order: Go evaluates the
// calls of a composite literal left to right).
func (g *gen) readKey(keys []calculus.Var, sr *jen.Statement) jen.Code {
	vals := make([]jen.Code, len(keys))
	for i, v := range keys {
		vals[i] = sr.Clone().Dot(snapMethod(v.Type)).Call()
	}
	return g.keyValue(keys, vals)
}

func (g *gen) readValue(t lang.Type, sr *jen.Statement) jen.Code {
	if t == lang.TFloat {
		return sr.Clone().Dot("Sum").Call()
	}
	return sr.Clone().Dot("Int").Call()
}

// rebuildKernels hands every triangle kernel its inputs' entries and
// stores its count.
func (g *gen) rebuildKernels() []jen.Code {
	var code []jen.Code
	for _, m := range g.p.Maps {
		if m.Kernel == nil {
			continue
		}
		mi := g.maps[m.Name]
		for i, input := range m.Kernel.Inputs {
			in := g.maps[input.Name]
			split, keys := m.Kernel.Split[i], input.Keys
			set := []string{"Set1", "Set2", "Set3"}[i]
			code = append(code, g.eachEntry(jen.Id("e"), in, false, func(k, v *jen.Statement) []jen.Code {
				first := g.keyPartRange(keys, k, 0, split)
				second := g.keyPartRange(keys, k, split, len(keys))
				return []jen.Code{jen.Id("e").Dot(kernelField(mi)).Dot(set).Call(first, second, valueOf(in, v))}
			}))
		}
		code = append(code, jen.Id("e").Dot(mi.field).Op("=").Id("e").Dot(kernelField(mi)).Dot("Count").Call())
	}
	return code
}

// keyPartRange is the key made of positions from..to-1 of the key k of
// the variables keys.
func (g *gen) keyPartRange(keys []calculus.Var, k *jen.Statement, from, to int) jen.Code {
	pos := make([]int, 0, to-from)
	for p := from; p < to; p++ {
		pos = append(pos, p)
	}
	return g.keyPart(keys, k, pos)
}

// rebuildTrees touches every node of every factorized view at every key of
// its count factor, leaves first: a node's count propagates to its
// ancestors as it changes.
func (g *gen) rebuildTrees() []jen.Code {
	var code []jen.Code
	for _, v := range g.p.Views {
		if v.Tree == nil {
			continue
		}
		for n := len(v.Tree.Nodes) - 1; n >= 0; n-- {
			nd := v.Tree.Nodes[n]
			if nd.Count < 0 {
				continue
			}
			cm := g.maps[v.Aggs[nd.Count].Name]
			code = append(code, g.eachEntry(jen.Id("e"), cm, true, func(k, _ *jen.Statement) []jen.Code {
				args := make([]jen.Code, len(cm.m.Keys))
				for i := range cm.m.Keys {
					args[i] = keyField(k.Clone(), len(cm.m.Keys), i)
				}
				return []jen.Code{jen.Id("e").Dot(treeTouch(v, n)).Call(args...)}
			}))
		}
	}
	return code
}
