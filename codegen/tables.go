package codegen

import (
	"fmt"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Fused maps. Keyed maps that the same triggers update at the same keys
// one after the other — TPC-H Q1's COUNT and its seven sums per
// (returnflag, linestatus), and in dialect sql the non-NULL count beside
// each sum — are stored as one table whose entry holds a value per map
// (a slot): an event looks its key up once and adds to every slot
// (entry scope, see emitUnits), where separate maps would hash the same
// key once per map. An entry lives while one of its slots is non-zero;
// reads of one map see 0 in an entry whose slot is 0, and loops over a
// map's entries skip those.
//
// The first pass of Generate records which maps are updated together
// (runs of consecutive units whose rest is pure, at the same bound key:
// coUpdates); between the passes, fuse groups them, keeping out the maps
// whose storage does more than add and read — ordered indexes, buffered
// or replaced targets, initial entries. A member's range-sum indexes
// (VWAP's sums of volume by price) are the table's, named after it, and
// every addition to its slot updates them.

// table is the storage of fused maps.
type table struct {
	stem    string // of its identifiers: the first member's
	field   string // Engine field
	typ     string // storage type
	members []*mapInfo
	keys    []calculus.Var // the first member's keys
	indexes [][]int        // secondary indexes, of all members' loops
	// usesEntry: an entry scope opens and releases entries.
	usesEntry bool
}

func (t *table) indexFor(pos []int) int {
	for i, ix := range t.indexes {
		if equalInts(ix, pos) {
			return i
		}
	}
	t.indexes = append(t.indexes, pos)
	return len(t.indexes) - 1
}

// fuse plans the tables from the runs of co-updated maps the first pass
// recorded.
func (g *gen) fuse(runs [][]string, replaced map[string]bool) {
	eligible := func(mi *mapInfo) bool {
		return mi.keyed && len(mi.ordered) == 0 && len(mi.modes) == 0 && len(mi.touch) == 0 && len(mi.buffers) == 0 &&
			!mi.removes && !replaced[mi.m.Name] && len(mi.m.InitEntries) == 0
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if p, ok := parent[x]; ok && p != x {
			r := find(p)
			parent[x] = r
			return r
		}
		return x
	}
	shape := func(mi *mapInfo) string {
		s := ""
		for _, k := range mi.m.Keys {
			s += shapeCode(k.Type)
		}
		return s
	}
	for _, run := range runs {
		var first string
		for _, name := range run {
			mi := g.maps[name]
			if !eligible(mi) {
				continue
			}
			if first == "" {
				first = name
				continue
			}
			if shape(mi) != shape(g.maps[first]) {
				continue
			}
			a, b := find(first), find(name)
			if a != b {
				parent[b] = a
			}
		}
	}
	groups := map[string][]*mapInfo{}
	for _, m := range g.p.Maps {
		if _, ok := parent[m.Name]; ok || hasParent(parent, m.Name) {
			r := find(m.Name)
			groups[r] = append(groups[r], g.maps[m.Name])
		}
	}
	roots := make([]string, 0, len(groups))
	for r := range groups {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	for _, r := range roots {
		ms := groups[r]
		if len(ms) < 2 {
			continue
		}
		// Members in the order of the Program's maps.
		sort.SliceStable(ms, func(i, j int) bool { return mapOrder(g, ms[i]) < mapOrder(g, ms[j]) })
		t := &table{stem: ms[0].stem, field: ms[0].field, typ: "table" + ms[0].stem, members: ms, keys: ms[0].m.Keys}
		for _, mi := range ms {
			for _, ix := range mi.indexes {
				t.indexFor(ix)
			}
			mi.tab, mi.slot = t, lowerFirst(mi.stem)
			mi.field, mi.typ, mi.indexes = t.field, t.typ, nil
		}
		g.tables = append(g.tables, t)
	}
}

func hasParent(parent map[string]string, name string) bool {
	for _, p := range parent {
		if p == name {
			return true
		}
	}
	return false
}

func mapOrder(g *gen, mi *mapInfo) int {
	for i, m := range g.p.Maps {
		if m == mi.m {
			return i
		}
	}
	return -1
}

// tableType emits the storage type of a table and its methods: per member
// get<Stem> and add<Stem> where used, and entry and release for entry
// scopes.
func (g *gen) tableType(t *table) {
	kt := g.keyType(t.keys)
	recv := jen.Id("m").Op("*").Id(t.typ)
	entry := "entry" + t.stem
	keep := len(t.indexes) > 0
	ck := tableChainKey(t)
	chained := ck != nil
	if chained {
		keep = true // find compares whole keys
	}
	ix := t.index()
	var efields []jen.Code
	if keep {
		efields = append(efields, jen.Id("key").Add(kt))
	}
	var names []string
	for _, mi := range t.members {
		efields = append(efields, jen.Id(mi.slot).Add(storedType(mi.m.Type)).Commentf("%s", mi.m.Name))
		names = append(names, mi.m.Name)
	}
	if len(t.indexes) > 0 {
		efields = append(efields, jen.Id("pos").Index(jen.Lit(len(t.indexes))).Int32())
	}
	for _, p := range t.hintedPairs() {
		efields = append(efields, jen.Id(p.hintField()).Int32().Commentf("the key's position in %s, as last found (a hint for its SetAt)", p.field))
	}
	if chained {
		efields = append(efields, jen.Id("next").Int32().Comment("next entry with the same hash key, or -1"))
	}
	g.f.Commentf("%s is an entry of table %s: one value per fused map.", entry, t.typ)
	g.f.Type().Id(entry).Struct(efields...)
	ikt, icomment := kt, "primary index"
	if chained {
		ikt, icomment = g.keyType(subVars(t.keys, ck)), "primary index: the first entry by hash key ["+varNames(subVars(t.keys, ck))+"]"
	}
	fields := []jen.Code{
		jen.Id("entries").Index().Id(entry).Comment("live and free entries"),
		jen.Id("free").Index().Int32().Comment("positions of free entries"),
		jen.Id("index").Add(indexType(ix, ikt)).Comment(icomment),
	}
	inits := indexInits(ix, ikt)
	for i, ix := range t.indexes {
		ikt := g.keyType(subVars(t.keys, ix))
		fields = append(fields, jen.Id(fmt.Sprintf("idx%d", i)).Map(ikt).Index().Int32().Commentf("by %s", varNames(subVars(t.keys, ix))))
		inits[jen.Id(fmt.Sprintf("idx%d", i))] = jen.Make(jen.Map(ikt).Index().Int32())
	}
	for _, mi := range t.members {
		fields = append(fields, g.rngFields(mi)...)
	}
	g.f.Commentf("%s stores the fused maps %s, keyed by [%s]; an entry lives while one of its values is non-zero.", t.typ, joinNames(names), varNames(t.keys))
	g.f.Type().Id(t.typ).Struct(fields...)
	g.f.Func().Id("new" + t.stem + "Table").Params().Op("*").Id(t.typ).Block(jen.Return(jen.Op("&").Id(t.typ).Values(inits)))
	if chained {
		g.chainMethods(t.typ, kt, func(k *jen.Statement) jen.Code { return g.keyPart(t.keys, k, ck) })
	}
	for _, mi := range t.members {
		if mi.usesGet {
			g.f.Commentf("get%s returns the value of %s at k.", mi.stem, mi.m.Name)
			g.f.Func().Params(recv).Id("get"+mi.stem).Params(jen.Id("k").Add(kt)).Add(goType(mi.m.Type)).Block(
				jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok")).Block(
					jen.Return(valueOf(mi, jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot(mi.slot)))),
				jen.Return(jen.Lit(0)),
			)
		}
	}
	for _, mi := range t.members {
		if !mi.usesAdd {
			continue
		}
		slot := jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot(mi.slot)
		if mi.counter {
			g.f.Commentf("add%s adds v to the value of %s at k (a counter: it cannot overflow).", mi.stem, mi.m.Name)
			g.f.Func().Params(recv).Id("add"+mi.stem).Params(jen.Id("k").Add(kt), jen.Id("v").Int64()).Block(
				jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return()),
				jen.Id("i").Op(":=").Id("m").Dot("entry").Call(jen.Id("k")),
				slot.Clone().Op("+=").Id("v"),
				jen.Add(g.rngUpdatesAt(mi, jen.Id("m"), jen.Id("k"), jen.Id("v"))...),
				jen.Id("m").Dot("release").Call(jen.Id("k"), jen.Id("i")),
			)
			continue
		}
		if mi.m.Type == lang.TInt {
			g.f.Commentf("add%s adds v to the value of %s at k and reports whether the sum overflowed int64 (it then wraps).", mi.stem, mi.m.Name)
			g.f.Func().Params(recv).Id("add"+mi.stem).Params(jen.Id("k").Add(kt), jen.Id("v").Int64()).Params(jen.Id("overflow").Bool()).Block(
				jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return(jen.False())),
				jen.Id("i").Op(":=").Id("m").Dot("entry").Call(jen.Id("k")),
				jen.List(slot.Clone(), jen.Id("overflow")).Op("=").Qual(runtimePkg, "AddInt").Call(slot.Clone(), jen.Id("v")),
				jen.Add(g.rngUpdatesAt(mi, jen.Id("m"), jen.Id("k"), jen.Id("v"))...),
				jen.Id("m").Dot("release").Call(jen.Id("k"), jen.Id("i")),
				jen.Return(jen.Id("overflow")),
			)
			continue
		}
		g.f.Commentf("add%s adds v to the value of %s at k.", mi.stem, mi.m.Name)
		g.f.Func().Params(recv).Id("add"+mi.stem).Params(jen.Id("k").Add(kt), jen.Id("v").Float64()).Block(
			jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return()),
			jen.Id("i").Op(":=").Id("m").Dot("entry").Call(jen.Id("k")),
			slot.Clone().Dot("Add").Call(jen.Id("v")),
			jen.Add(g.rngSetsAt(mi, jen.Id("m"), jen.Id("k"), slot.Clone().Dot("Value").Call())...),
			jen.Id("m").Dot("release").Call(jen.Id("k"), jen.Id("i")),
		)
	}
	for _, mi := range t.members {
		if !mi.usesLoad {
			continue
		}
		slot := jen.Id("m").Dot("entries").Index(jen.Id("i")).Dot(mi.slot)
		g.f.Commentf("load%s sets the value of %s at k to v, read from a snapshot; false if it has one or v is 0.", mi.stem, mi.m.Name)
		if mi.m.Type == lang.TFloat {
			g.f.Func().Params(recv).Id("load"+mi.stem).Params(jen.Id("k").Add(kt), jen.Id("v").Qual(runtimePkg, "FloatSum")).Bool().Block(
				jen.If(jen.Id("v").Dot("IsZero").Call()).Block(jen.Return(jen.False())),
				jen.Id("i").Op(":=").Id("m").Dot("entry").Call(jen.Id("k")),
				jen.If(jen.Op("!").Add(slot.Clone()).Dot("IsZero").Call()).Block(jen.Return(jen.False())),
				slot.Clone().Op("=").Id("v"),
				jen.Add(g.rngSetsAt(mi, jen.Id("m"), jen.Id("k"), jen.Id("v").Dot("Value").Call())...),
				jen.Return(jen.True()))
			continue
		}
		g.f.Func().Params(recv).Id("load"+mi.stem).Params(jen.Id("k").Add(kt), jen.Id("v").Int64()).Bool().Block(
			jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Return(jen.False())),
			jen.Id("i").Op(":=").Id("m").Dot("entry").Call(jen.Id("k")),
			jen.If(slot.Clone().Op("!=").Lit(0)).Block(jen.Return(jen.False())),
			slot.Clone().Op("=").Id("v"),
			jen.Add(g.rngUpdatesAt(mi, jen.Id("m"), jen.Id("k"), jen.Id("v"))...),
			jen.Return(jen.True()))
	}
	partial := func(i int) jen.Code { return g.keyPart(t.keys, jen.Id("k"), t.indexes[i]) }
	// entry: find or create.
	fresh := jen.Dict{}
	if keep {
		fresh[jen.Id("key")] = jen.Id("k")
	}
	create := []jen.Code{
		jen.If(jen.Id("n").Op(":=").Len(jen.Id("m").Dot("free")), jen.Id("n").Op(">").Lit(0)).Block(
			jen.Id("i").Op("=").Id("m").Dot("free").Index(jen.Id("n").Op("-").Lit(1)),
			jen.Id("m").Dot("free").Op("=").Id("m").Dot("free").Index(jen.Empty(), jen.Id("n").Op("-").Lit(1)),
			jen.Id("m").Dot("entries").Index(jen.Id("i")).Op("=").Id(entry).Values(fresh),
		).Else().Block(
			jen.Id("i").Op("=").Int32().Call(jen.Len(jen.Id("m").Dot("entries"))),
			jen.Id("m").Dot("entries").Op("=").Append(jen.Id("m").Dot("entries"), jen.Id(entry).Values(fresh)),
		),
	}
	if chained {
		create = append(create, jen.Id("m").Dot("link").Call(jen.Id("k"), jen.Id("i")))
	} else {
		create = append(create, setIndex(ix, jen.Id("k"), jen.Id("i")))
	}
	if len(t.indexes) > 0 {
		create = append(create, jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")))
	}
	for i := range t.indexes {
		s := fmt.Sprintf("s%d", i)
		create = append(create,
			jen.Id(s).Op(":=").Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)),
			jen.Id("ent").Dot("pos").Index(jen.Lit(i)).Op("=").Int32().Call(jen.Len(jen.Id(s))),
			jen.Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)).Op("=").Append(jen.Id(s), jen.Id("i")),
		)
	}
	g.f.Comment("entry returns the position of the entry of k, creating it (every value 0) if needed;")
	g.f.Comment("release it after adding to it.")
	g.f.Func().Params(recv).Id("entry").Params(jen.Id("k").Add(kt)).Params(jen.Id("i").Int32()).Block(
		jen.If(jen.List(jen.Id("i"), jen.Id("ok")).Op(":=").Add(lookup(ix, jen.Id("k"))), jen.Id("ok")).Block(jen.Return(jen.Id("i"))),
		jen.Block(create...),
		jen.Return(jen.Id("i")),
	)
	// release: unlink when every value is zero.
	var zero *jen.Statement
	ent := jen.Id("ent")
	for _, mi := range t.members {
		var c *jen.Statement
		if mi.m.Type == lang.TFloat {
			c = ent.Clone().Dot(mi.slot).Dot("IsZero").Call()
		} else {
			c = ent.Clone().Dot(mi.slot).Op("==").Lit(0)
		}
		if zero == nil {
			zero = c
		} else {
			zero = zero.Op("&&").Add(c)
		}
	}
	var unlink []jen.Code
	if chained {
		unlink = append(unlink, jen.Id("m").Dot("unchain").Call(jen.Id("k"), jen.Id("i")))
	} else {
		unlink = append(unlink, deleteIndex(ix, jen.Id("k")))
	}
	for i := range t.indexes {
		s := fmt.Sprintf("s%d", i)
		last := fmt.Sprintf("last%d", i)
		unlink = append(unlink,
			jen.Id(s).Op(":=").Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)),
			jen.Id(last).Op(":=").Id(s).Index(jen.Len(jen.Id(s)).Op("-").Lit(1)),
			jen.Id(s).Index(jen.Id("ent").Dot("pos").Index(jen.Lit(i))).Op("=").Id(last),
			jen.Id("m").Dot("entries").Index(jen.Id(last)).Dot("pos").Index(jen.Lit(i)).Op("=").Id("ent").Dot("pos").Index(jen.Lit(i)),
			jen.Id("m").Dot(fmt.Sprintf("idx%d", i)).Index(partial(i)).Op("=").Id(s).Index(jen.Empty(), jen.Len(jen.Id(s)).Op("-").Lit(1)),
		)
	}
	unlink = append(unlink, jen.Id("m").Dot("free").Op("=").Append(jen.Id("m").Dot("free"), jen.Id("i")))
	g.f.Comment("release removes the entry of k, at position i, from every index when all its values are 0.")
	g.f.Func().Params(recv).Id("release").Params(jen.Id("k").Add(kt), jen.Id("i").Int32()).Block(
		jen.Id("ent").Op(":=").Op("&").Id("m").Dot("entries").Index(jen.Id("i")),
		jen.If(zero).Block(unlink...),
	)
}

func joinNames(ns []string) string {
	out := ""
	for i, n := range ns {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// entryRun returns the length of the run of units at the head of us that
// update maps of one table at one bound key with pure factors (conditions
// and values over bound variables) — 0 when fewer than two. The first
// pass, before tables exist, records such runs of keyed maps
// (coUpdates) and returns 0.
func (g *gen) entryRun(us []*unit, sc scope) int {
	head := us[0]
	mi := g.maps[head.s.Map.Name]
	fits := func(u *unit) bool {
		if u.clear || u.ent != "" || u.s.Buffered || !g.allBound(u.s.Keys, sc) || len(u.s.Keys) != len(head.s.Keys) {
			return false
		}
		for i, k := range u.s.Keys {
			if k.Name != head.s.Keys[i].Name {
				return false
			}
		}
		if !boundVals(u.rest, sc) && !g.hoistedRange(u, sc) {
			return false
		}
		um := g.maps[u.s.Map.Name]
		if g.recording {
			return um.keyed
		}
		return um.tab != nil && um.tab == mi.tab
	}
	if !fits(head) {
		return 0
	}
	n := 1
	for n < len(us) && fits(us[n]) {
		n++
	}
	if g.recording {
		var names []string
		for _, u := range us[:n] {
			if !hasString(names, u.s.Map.Name) {
				names = append(names, u.s.Map.Name)
			}
		}
		if len(names) > 1 {
			g.coUpdates = append(g.coUpdates, names)
		}
		return 0
	}
	if n < 2 {
		return 0
	}
	return n
}

// boundVals reports whether every factor is a value over bound variables.
func boundVals(fs []calculus.Term, sc scope) bool {
	for _, f := range fs {
		if v, ok := f.(*calculus.Val); !ok || !boundIn(v, sc) {
			return false
		}
	}
	return true
}

// hoistedRange reports whether unit u's product is a range read that the
// trigger reads once at its top (hoist.go) times values over bound
// variables: a pure product too, by the time the unit runs (BrokerSpread's
// sums of the broker's bids before and after the event's time).
func (g *gen) hoistedRange(u *unit, sc scope) bool {
	if g.hoist == nil {
		return false
	}
	// rangeSum declares the range-sum index it reads: a probe that fails
	// must not leave one behind to maintain.
	declared := map[*mapInfo]int{}
	for _, mi := range g.maps {
		declared[mi] = len(mi.ranges)
	}
	mono := calculus.Monomial{Coef: 1, Factors: u.rest}
	read, rest, ok, err := g.rangeSum(mono, sc)
	saved := g.hoist.stmt
	g.hoist.stmt = u.s
	ok = ok && err == nil && boundVals(rest, sc) && g.hoist.hoistable(read, mono.Factors, rest, sc)
	g.hoist.stmt = saved
	if !ok {
		for mi, n := range declared {
			mi.ranges = mi.ranges[:n]
		}
	}
	return ok
}

// entryScope emits a run of units that update one table at one key: the
// entry is looked up (or created) once, each unit adds to its slot, and
// the entry is released (removed if every value is 0) at the end.
func (g *gen) entryScope(run []*unit, sc scope, cx *shareCtx) ([]jen.Code, error) {
	head := run[0]
	mi := g.maps[head.s.Map.Name]
	mi.tab.usesEntry = true
	vals := make([]jen.Code, len(head.s.Keys))
	for i, k := range head.s.Keys {
		vals[i] = sc[k.Name].Clone()
	}
	key, at, ent := g.fresh("key"), g.fresh("at"), g.fresh("ent")
	m := jen.Id("e").Dot(mi.field)
	code := []jen.Code{
		jen.Id(key).Op(":=").Add(g.keyValue(mi.tab.keys, vals)),
		jen.Id(at).Op(":=").Add(m.Clone().Dot("entry").Call(jen.Id(key))),
		jen.Id(ent).Op(":=").Op("&").Add(m.Clone()).Dot("entries").Index(jen.Id(at)),
	}
	sub := make([]*unit, len(run))
	for i, u := range run {
		c := *u
		c.ent, c.entKey = ent, key
		sub[i] = &c
	}
	pairs := g.deferPairs(run, mi.tab)
	saved := g.deferred
	g.deferred = map[*rangePair]bool{}
	for _, p := range pairs {
		g.deferred[p] = true
	}
	body, err := g.emitUnits(sub, sc, cx.inner())
	g.deferred = saved
	if err != nil {
		return nil, err
	}
	code = append(code, body...)
	code = append(code, g.pairSets(pairs, ent, key)...)
	code = append(code, m.Clone().Dot("release").Call(jen.Id(key), jen.Id(at)))
	return []jen.Code{jen.Block(code...)}, nil
}

// entrySink adds a unit's products to its slot of the table entry of its
// entry scope.
func (g *gen) entrySink(u *unit) *sink {
	mi := g.maps[u.s.Map.Name]
	return &sink{typ: u.s.Map.Type, uses: u.s.Keys, emit: func(_ scope, acc *jen.Statement) ([]jen.Code, error) {
		slot := jen.Id(u.ent).Dot(mi.slot)
		m, k := jen.Id("e").Dot(mi.field), jen.Id(u.entKey)
		var code []jen.Code
		if g.writesRanges(mi) && mi.m.Type == lang.TInt {
			// The delta goes to the range-sum indexes too: computed once.
			d := g.fresh("delta")
			code = append(code, jen.Id(d).Op(":=").Add(acc))
			acc = jen.Id(d)
			code = append(code, g.rngUpdatesAt(mi, m, k, acc)...)
		}
		switch {
		case mi.checkedInt():
			code = append(code, slot.Clone().Op("=").Add(g.arith("+", slot, acc, lang.TInt)))
		case mi.counter:
			code = append(code, slot.Clone().Op("+=").Add(acc))
		default:
			code = append(code, slot.Clone().Dot("Add").Call(acc))
			code = append(code, g.rngSetsAt(mi, m, k, slot.Clone().Dot("Value").Call())...)
		}
		return append(code, g.touchKey(mi, k)...), nil
	}}
}
