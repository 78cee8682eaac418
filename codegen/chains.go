package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Hash keys. A map whose keys are determined by some of them through the
// relations' primary keys (viewlet.Map.HashKey: Q18's customer-order map,
// keyed by order key, customer key and name, price and date, is determined
// by the order key) is indexed by those keys alone: its primary index maps
// them to the first of a chain of entries (entry.next links the others),
// and a lookup compares the whole key of each. Where the data keep their
// primary keys, every chain has one entry and a lookup hashes one integer
// instead of strings and floats; where they do not, the chains grow and the
// results stay right. A map whose index a statement or view ranges over
// keeps the whole key as its index (usesScan).

// chainKey returns the positions of mi's keys that its primary index is
// keyed by when it is chained, or nil.
func chainKey(mi *mapInfo) []int {
	if mi.usesScan || len(mi.touch) > 0 {
		return nil
	}
	return mi.m.HashKey
}

// tableChainKey returns the positions of the table's keys that its primary
// index is keyed by when it is chained (the union of its members' hash
// keys), or nil.
func tableChainKey(t *table) []int {
	in := make([]bool, len(t.keys))
	for _, mi := range t.members {
		ck := chainKey(mi)
		if ck == nil {
			return nil
		}
		for _, p := range ck {
			in[p] = true
		}
	}
	var out []int
	for p, ok := range in {
		if ok {
			out = append(out, p)
		}
	}
	if len(out) == len(t.keys) {
		return nil
	}
	return out
}

// primaryIndex is the kind of a storage type's primary index (field
// index): a Go map from the key to the entry's position, the same from a
// hash key to a chain of entries (chained), or, for one FLOAT key, a
// runtime.FloatIndex (a hash table of the key's bits: Go hashes float64
// map keys on a slower path) and for one INT key a runtime.IntIndex (the
// same table: a third of a Go map's lookup).
type primaryIndex uint8

const (
	plainIndex primaryIndex = iota
	chainedIndex
	floatIndex
	intIndex
)

// bitsTable reports whether ix is a runtime.FloatIndex or IntIndex, whose
// methods (Get, Set, Delete, Clear, All) stand for a Go map's operators.
func (ix primaryIndex) bitsTable() bool { return ix == floatIndex || ix == intIndex }

// indexOf returns the kind of the primary index of a storage type keyed
// by keys.
func indexOf(keys []calculus.Var, chained bool) primaryIndex {
	switch {
	case chained:
		return chainedIndex
	case len(keys) == 1 && keys[0].Type == lang.TFloat:
		return floatIndex
	case len(keys) == 1 && keys[0].Type == lang.TInt:
		return intIndex
	}
	return plainIndex
}

// index returns the kind of mi's primary index (its table's, if fused).
func (mi *mapInfo) index() primaryIndex {
	if mi.tab != nil {
		return mi.tab.index()
	}
	return indexOf(mi.m.Keys, chainKey(mi) != nil)
}

// index returns the kind of the table's primary index.
func (t *table) index() primaryIndex { return indexOf(t.keys, tableChainKey(t) != nil) }

// indexType is the type of a primary index of kind ix keyed by ikt.
func indexType(ix primaryIndex, ikt jen.Code) *jen.Statement {
	switch ix {
	case floatIndex:
		return jen.Qual(runtimePkg, "FloatIndex")
	case intIndex:
		return jen.Qual(runtimePkg, "IntIndex")
	}
	return jen.Map(ikt).Int32()
}

// lookup is the comma-ok lookup of key k in the primary index of a storage
// type (receiver m): the index itself, its find method when chained, its
// Get method when a FloatIndex or IntIndex.
func lookup(ix primaryIndex, k jen.Code) *jen.Statement {
	switch ix {
	case chainedIndex:
		return jen.Id("m").Dot("find").Call(k)
	case floatIndex, intIndex:
		return jen.Id("m").Dot("index").Dot("Get").Call(k)
	}
	return jen.Id("m").Dot("index").Index(k)
}

// setIndex records in a plain, float or int primary index that k's entry
// is at position i.
func setIndex(ix primaryIndex, k, i jen.Code) *jen.Statement {
	if ix.bitsTable() {
		return jen.Id("m").Dot("index").Dot("Set").Call(k, i)
	}
	return jen.Id("m").Dot("index").Index(k).Op("=").Add(i)
}

// deleteIndex removes k from a plain, float or int primary index.
func deleteIndex(ix primaryIndex, k jen.Code) *jen.Statement {
	if ix.bitsTable() {
		return jen.Id("m").Dot("index").Dot("Delete").Call(k)
	}
	return jen.Delete(jen.Id("m").Dot("index"), k)
}

// indexInits returns the constructor's field values for a primary index of
// kind ix keyed by ikt: a made map, or none (a FloatIndex's or IntIndex's
// zero value is empty).
func indexInits(ix primaryIndex, ikt jen.Code) jen.Dict {
	if ix.bitsTable() {
		return jen.Dict{}
	}
	return jen.Dict{jen.Id("index"): jen.Make(indexType(ix, ikt))}
}

// clearIndex removes every key from a primary index of kind ix.
func clearIndex(ix primaryIndex) *jen.Statement {
	if ix.bitsTable() {
		return jen.Id("m").Dot("index").Dot("Clear").Call()
	}
	return jen.Clear(jen.Id("m").Dot("index"))
}

// rangeIndex is what a loop over the keys and positions of the primary
// index of storage x ranges over.
func rangeIndex(ix primaryIndex, x *jen.Statement) *jen.Statement {
	if ix.bitsTable() {
		return x.Dot("index").Dot("All").Call()
	}
	return x.Dot("index")
}

// chainMethods emits find, link and unchain for a chained storage type typ
// with entries of key type kt, whose hash key of k is hashKey(k).
func (g *gen) chainMethods(typ string, kt jen.Code, hashKey func(k *jen.Statement) jen.Code) {
	recv := jen.Id("m").Op("*").Id(typ)
	g.f.Comment("find returns the position of the entry of k, walking the chain of its hash key.")
	g.f.Func().Params(recv).Id("find").Params(jen.Id("k").Add(kt)).Params(jen.Int32(), jen.Bool()).Block(
		jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Id("m").Dot("index").Index(hashKey(jen.Id("k"))),
		jen.For(jen.Id("ok")).Block(
			jen.If(jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("key").Op("==").Id("k")).Block(jen.Return(jen.Id("i"), jen.True())),
			jen.Id("i").Op("=").Id("m").Dot("entries").Index(jen.Id("i")).Dot("next"),
			jen.Id("ok").Op("=").Id("i").Op(">=").Lit(0),
		),
		jen.Return(jen.Lit(0), jen.False()),
	)
	g.f.Comment("link puts the entry of k, at position i, first in the chain of its hash key.")
	g.f.Func().Params(recv).Id("link").Params(jen.Id("k").Add(kt), jen.Id("i").Int32()).Block(
		jen.Id("h").Op(":=").Add(hashKey(jen.Id("k"))),
		jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("next").Op("=").Lit(-1),
		jen.If(jen.List(jen.Id("head"), jen.Id("ok")).Op(":=").Id("m").Dot("index").Index(jen.Id("h")), jen.Id("ok")).Block(
			jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot("next").Op("=").Id("head"),
		),
		jen.Id("m").Dot("index").Index(jen.Id("h")).Op("=").Id("i"),
	)
	g.f.Comment("unchain takes the entry of k, at position i, out of the chain of its hash key.")
	g.f.Func().Params(recv).Id("unchain").Params(jen.Id("k").Add(kt), jen.Id("i").Int32()).Block(
		jen.Id("h").Op(":=").Add(hashKey(jen.Id("k"))),
		jen.Id("next").Op(":=").Id("m").Dot("entries").Index(jen.Id("i")).Dot("next"),
		jen.If(jen.Id("m").Dot("index").Index(jen.Id("h")).Op("==").Id("i")).Block(
			jen.If(jen.Id("next").Op("<").Lit(0)).Block(
				jen.Delete(jen.Id("m").Dot("index"), jen.Id("h")),
			).Else().Block(
				jen.Id("m").Dot("index").Index(jen.Id("h")).Op("=").Id("next"),
			),
			jen.Return(),
		),
		jen.For(jen.Id("j").Op(":=").Id("m").Dot("index").Index(jen.Id("h")), jen.Empty(), jen.Id("j").Op("=").Id("m").Dot("entries").Index(jen.Id("j")).Dot("next")).Block(
			jen.If(jen.Id("m").Dot("entries").Index(jen.Id("j")).Dot("next").Op("==").Id("i")).Block(
				jen.Id("m").Dot("entries").Index(jen.Id("j")).Dot("next").Op("=").Id("next"),
				jen.Return(),
			),
		),
	)
}
