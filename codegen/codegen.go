// Package codegen turns a viewlet Program into the source of a standalone Go
// package: typed Insert<Rel>/Delete<Rel> triggers, one storage type per map
// with the secondary indexes its loops need, result accessors per view
// (a sorted snapshot, a point lookup, an iter.Seq), and the runtime.Engine
// methods drivers use; given a partition plan (Options.Partition), the
// runtime.Partitioned methods that let runtime.Workers run it on several
// engines (partition.go). The generated package imports only the standard
// library and toastgen's runtime.
//
// In: *viewlet.Program (and optionally its calculus.PartitionPlan). Out:
// one gofmt-clean Go file (Generate).
//
// Decisions:
//   - A factorized view (viewlet.View.Tree) keeps a runtime.TreeLevel per
//     node of its tree, recounted by the touch calls that end the triggers;
//     its rows are listed by walking the levels and counted by <View>Len
//     in O(1) (viewtree.go). A map kept by a kernel (viewlet.Map.Kernel)
//     is a plain field set from a runtime.TriangleCount that the triggers'
//     syncs feed (kernel.go).
//   - A map without keys is a plain field. A keyed map keeps its entries in
//     a slice (recycled through a free list) with a Go map from key to
//     position, so that an update of an existing entry is one hash lookup
//     and an in-place addition (a Go map from key to value would take a
//     lookup and an assignment); keyed by one FLOAT column, that map is a
//     runtime.FloatIndex, a hash table of the key's bits of its own (a Go
//     map hashes float64 keys on a path several times as slow), keyed by
//     one INT column a runtime.IntIndex, the same table; and one
//     secondary index per partial-key
//     pattern that the statements loop over, each a Go map from the partial
//     key to the slice positions of the matching entries; an entry whose
//     value returns to zero is removed from every index in O(1) by swapping
//     with the last position.
//   - A map whose entries MIN or MAX reads (a count per group and value)
//     also keeps an ordered index: per group, a runtime.Multiset of the
//     values of its live entries, updated by add when an entry appears or
//     disappears. Reading the extreme of a group is then O(log n) instead
//     of a loop over the group's entries. (The multiset counts entries,
//     not their values: the extreme is over entries with a non-zero value.)
//   - A map whose entries PERCENTILE_CONT or PERCENTILE_DISC reads keeps a
//     range-sum index of its counts by group (below), whose subtree sums
//     find the value at a rank in O(log n); one that MODE reads keeps a
//     runtime.ModeIndex, updated by every delta (holistic.go).
//   - A map whose values a nested aggregate sums over a range of one key
//     (AggSum([], M[g, k] * {k > x}), x and g bound: the inequality-
//     correlated subqueries of VWAP-like queries) also keeps a range-sum
//     index: per group g, a runtime.RangeSum of the values by k, which add
//     updates by every delta. The sum is then one O(log n) read instead of
//     a loop over the group's entries. Other nested sums keep the loops.
//   - A nested AggSum(g, t) with group variables the statement does not
//     bind is one term per group, binding them, as the interpreter
//     evaluates it (its sum multiplies the product; under Exists it counts
//     1): a loop over the one map whose entries are the groups (t one
//     monomial reading it) times the rest of t per entry; otherwise the
//     group sums are collected in a scratch map of the Engine (cleared,
//     never reallocated once warm) and the rest of the product runs once
//     per non-zero group.
//   - A trigger's statements are emitted as units, one per monomial, and
//     consecutive units share what they begin with: conditions over bound
//     variables, map reads and loops, lifts (shared.go); units move up past
//     independent ones to line up. Keyed maps that consecutive units update
//     at one key with pure factors are fused into one table, an entry per
//     key holding a value per map, and such a run looks its entry up once
//     (tables.go): TPC-H Q1's eight aggregates (eleven in dialect sql, with
//     the non-NULL counts) cost one hash lookup per event. A member's
//     range-sum indexes are the table's; two members' indexes of one group
//     and key are one runtime.RangeSumPairIndex whose nodes hold both
//     values, written in one descent at the end of an entry scope and read
//     in one (rangepair.go): AXFinder's count and volume of a broker's asks
//     away from a price, VWAP's volume searched and price × volume summed
//     over the same price levels. Consecutive replacing statements
//     that loop over members of one table, equal but for the member, are
//     one loop (replacegroup.go): VWAP's SUM and the count that makes it
//     NULL over no rows walk the price levels once.
//   - Multi-column keys are small structs named by their column types
//     (keyIS is {int64, string}), so maps keyed alike share one key type.
//   - Numbers (numbers.go): INT maps hold int64 and every integer sum and
//     product of a trigger is checked; on overflow the trigger method undoes
//     the event by running the inverse trigger (exact in wrapping
//     arithmetic) and returns a *runtime.EventError, so Insert<Rel> and
//     Delete<Rel> return an error. FLOAT maps hold runtime.FloatSum values
//     (a sum and its compensation), so that deletes bring sums back exactly
//     in the common cases; an entry is removed when its value reads 0.
//     A counter — an INT map every statement adds a small constant to
//     under conditions, such as COUNT(*) or the non-NULL count beside a
//     SUM — cannot overflow in any feasible number of events, and its adds
//     are not checked: TPC-H Q1 and Q6 check nothing in dialect sql.
//   - Where a trigger reads fewer columns than its relation has, its
//     statements are a method of their own taking only those (insertR,
//     deleteR), which InsertR and DeleteR call, and which Apply and
//     ApplyBatch call directly; when neither trigger of a relation checks
//     overflows, the parsed tuples of Apply and batches store only the
//     columns read (the others are still parsed, to report bad data).
//   - Nothing on a trigger's path allocates once maps and buffers have grown
//     to their working size.
//   - Batches (batch.go) are consolidated, then applied relation by
//     relation where a relation's triggers have a set-at-a-time form
//     (viewlet.SetTrigger) and the batch's policy chooses it: collect
//     methods add each event's values to a runtime.PreAgg per key set of
//     the Deltas, applySet runs the statements once per key (through the
//     same unit code as the triggers), and an overflow falls back to the
//     per-event triggers (settrigger.go).
//   - A view named in the query file (-- name: X, CREATE VIEW X) gets
//     identifiers from X as written, first letter upper-cased; an unnamed
//     one from QUERY<n> (Query1Row). Names whose exported identifiers would
//     clash are errors (CheckNames, idents.go); the maps' unexported ones
//     are made distinct (planNames).
//   - The package holds no code it does not use: a map's get and reset
//     methods and its scratch slice exist only where a statement or view
//     calls them (TestGeneratedStaticcheck checks with U1000).
package codegen

import (
	"bytes"
	"fmt"
	"go/format"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

const runtimePkg = "github.com/toastgen/toastgen/runtime"

// Options configure Generate.
type Options struct {
	Package string // package name, e.g. "tpch3"
	Source  string // the query file, for the header comment; defaults to the Program's
	// Version is toastgen's version for the header's "// versions:" line
	// (a module version such as v0.3.0); empty means "(devel)".
	Version string
	// Partition, when set, is the query file's partition plan
	// (calculus.Partition): if it splits the work and the views merge
	// by their maps, the package implements runtime.Partitioned (see
	// partition.go), so that runtime.Workers runs it on several engines.
	Partition *calculus.PartitionPlan
}

// Generate returns the Go source of the package for p. An internal
// inconsistency (a panic) is returned as an error naming the query file.
func Generate(p *viewlet.Program, opts Options) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, calculus.InternalError(p.Source, "codegen.Generate", r)
		}
	}()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := checkProgramNames(p); err != nil {
		return nil, err
	}
	plan, err := planLayout(p, opts.Package)
	if err != nil {
		return nil, err
	}
	g := &gen{p: p, maps: plan.maps, keyTypes: map[string]bool{}, likes: map[string]string{}, regexps: map[string]string{}, planned: plan.scratches, helpers: map[string]bool{},
		hasChecks: plan.checks > 0, tables: plan.tables, triggerBodies: map[string]triggerBody{}}
	for _, mi := range g.maps {
		mi.buffers = nil
		mi.usesGet, mi.usesReset, mi.usesScratch, mi.usesAdd, mi.usesSet, mi.usesLoad = false, false, false, false, false, false
	}
	for _, t := range g.tables {
		t.usesEntry = false
	}
	src := opts.Source
	if src == "" {
		src = p.Source
	}
	g.src = src
	g.partition = opts.Partition
	g.f = jen.NewFile(opts.Package)
	version := opts.Version
	if version == "" {
		version = "(devel)"
	}
	g.f.HeaderComment(fmt.Sprintf("Code generated by toastgen from %s. DO NOT EDIT.", src))
	g.f.HeaderComment("versions: toastgen " + version)
	// The semantics the package implements, as gen's -dialect flag chose it.
	g.f.HeaderComment("dialect: " + p.Dialect.String())
	g.f.PackageComment(fmt.Sprintf("Package %s keeps the views of %s up to date under inserts and deletes.\n\nCreate an Engine with New, feed it events through the Insert and Delete\nmethods (or Apply), and read the views through their accessors.\n\nINT sums, counts and products are int64 and checked: an event that would\ntake one beyond int64 is rejected whole (the methods return a\n*runtime.EventError and the views stay as they were). FLOAT sums are\nfloat64 kept with a compensation term (runtime.FloatSum), so that deleting\nvalues inserted before brings a sum back to what it was (0.1 + 1e16 - 1e16\nreads 0.1).", opts.Package, src))
	g.f.ImportName(runtimePkg, "runtime")
	if err := g.generate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := g.f.Render(&buf); err != nil {
		return nil, fmt.Errorf("codegen: %v", err)
	}
	// go/format, in process: gen needs no go binary. jen imports exactly
	// the packages the code qualifies, so there are no imports to fix.
	out, err = format.Source(groupImports(buf.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("codegen: formatting generated code: %v", err)
	}
	return out, nil
}

// planLayout runs the first pass of Generate: it discovers the secondary
// indexes that the loops need (including loops inside nested aggregates)
// and the maps updated together, and fuses those into tables; the second
// pass generates every access knowing each map's final layout.
func planLayout(p *viewlet.Program, pkg string) (*gen, error) {
	plan := &gen{p: p, maps: map[string]*mapInfo{}, keyTypes: map[string]bool{}, likes: map[string]string{}, regexps: map[string]string{}, helpers: map[string]bool{}, recording: true, triggerBodies: map[string]triggerBody{}}
	plan.f = jen.NewFile(pkg)
	if err := plan.generate(); err != nil {
		return nil, err
	}
	replaced := map[string]bool{}
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			if s.Replace {
				replaced[s.Map.Name] = true
			}
		}
	}
	plan.fuse(plan.coUpdates, replaced)
	plan.pairRanges()
	return plan, nil
}

// Fused returns the groups of maps that Generate stores as one table each
// (an entry per key, a value per map: see tables.go), by map name, the
// maps of a group in the Program's order.
func Fused(p *viewlet.Program) (groups [][]string, err error) {
	defer func() {
		if r := recover(); r != nil {
			groups, err = nil, calculus.InternalError(p.Source, "codegen.Fused", r)
		}
	}()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	plan, err := planLayout(p, "fused")
	if err != nil {
		return nil, err
	}
	for _, t := range plan.tables {
		var names []string
		for _, mi := range t.members {
			names = append(names, mi.m.Name)
		}
		groups = append(groups, names)
	}
	return groups, nil
}

// groupImports puts the standard library's imports of src's import block
// first and the others after a blank line, as goimports does (jen sorts
// them in one group).
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	n := bytes.Index(src[start:], []byte("\n)\n"))
	if n < 0 {
		return src
	}
	var std, other []string
	for _, ln := range strings.Split(string(src[start:start+n]), "\n") {
		path := ln
		if i := strings.IndexByte(ln, '"'); i >= 0 {
			path = ln[i:]
		}
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if first, _, _ := strings.Cut(strings.Trim(path, `"`), "/"); strings.Contains(first, ".") {
			other = append(other, ln)
		} else {
			std = append(std, ln)
		}
	}
	block := strings.Join(std, "\n")
	if len(std) > 0 && len(other) > 0 {
		block += "\n\n"
	}
	block += strings.Join(other, "\n")
	out := append([]byte(nil), src[:start]...)
	out = append(out, block...)
	return append(out, src[start+n:]...)
}

type gen struct {
	p   *viewlet.Program
	src string // the query file's path, as the header comment names it
	// partition is Options.Partition: the plan the package's partition
	// methods follow (nil: none).
	partition *calculus.PartitionPlan
	f         *jen.File
	maps      map[string]*mapInfo
	keyTypes  map[string]bool // shape codes of the struct key types needed
	likes     map[string]string
	regexps   map[string]string
	tmp       int
	// scratches are the key variables of the scratch maps this pass uses
	// (see groupSums); planned, the first pass's, which the Engine
	// type declares.
	scratches [][]calculus.Var
	planned   [][]calculus.Var
	// checked is set while the statements of a trigger are generated: its
	// integer arithmetic is checked (see numbers.go). checks counts the
	// checked operations emitted, helpers the Engine methods they call.
	checked bool
	hoist   *hoist // the range reads of the trigger being emitted (hoist.go)
	checks  int
	helpers map[string]bool
	// hasChecks: the first pass emitted checked arithmetic, so the Engine
	// has an overflow flag.
	hasChecks bool
	// coUpdates are the runs of maps that consecutive units update at the
	// same key (recorded by the first pass, see tables.go); tables the
	// fused maps.
	coUpdates [][]string
	tables    []*table
	recording bool // the first pass
	// deferred: the paired range-sum indexes that the entry scope being
	// emitted sets at its end (rangepair.go).
	deferred map[*rangePair]bool
	// triggerBodies: the trigger methods whose statements are a method of
	// their own (bodyName).
	triggerBodies map[string]triggerBody
	// setCollects: the columns each collect method of a set-at-a-time
	// trigger takes (settrigger.go).
	setCollects map[string][]int
}

// mapInfo is the storage plan of one map.
type mapInfo struct {
	m       *viewlet.Map
	stem    string // of its identifiers: exportedName(m.Name), made distinct (see planNames)
	field   string // Engine field
	typ     string // storage type (for keyed maps)
	keyed   bool
	indexes [][]int // secondary indexes: key positions of each
	ordered []ordIndex
	modes   []ordIndex  // mode indexes (holistic.go), by group of a key
	touch   []touchHook // top-K views whose rows the map's changes move (topk.go)
	ranges  []ordIndex  // range-sum indexes (see rangeFor)
	buffers []*viewlet.Stmt
	removes bool // a Replace statement removes entries (the map has a remove method)
	// The methods and fields of the storage type that the generated code
	// uses (set while generating the triggers and views, before mapType):
	// a package must not hold code it never calls.
	usesGet, usesReset, usesScratch bool
	// tab is the table the map is fused into (tables.go), slot its value's
	// field in the table's entries; usesAdd: a statement adds to the map
	// alone (the table's add<Stem> method).
	tab     *table
	slot    string
	usesAdd bool
	// usesSet: a replacing statement sets one entry (see replaceOne).
	usesSet bool
	// usesLoad: RestoreSnapshot loads entries (the storage's load method,
	// load<Stem> in a table).
	usesLoad bool
	// counter: an INT map whose sums cannot overflow (counterMaps).
	counter bool
	// usesScan: generated code ranges over the primary index, so that it
	// must be keyed by whole keys (see chains.go).
	usesScan bool
	// rangeUses: per range-sum index, the methods generated code calls on
	// it (the first pass records them); pairs: per range-sum index, the
	// two-lane index that holds it, if any (rangepair.go).
	rangeUses map[int]map[string]bool
	pairs     map[int]*rangePair
}

// checkedInt reports whether adds to the map check for overflow.
func (mi *mapInfo) checkedInt() bool { return mi.m.Type == lang.TInt && !mi.counter }

// get is a point lookup of the keyed map mi at key.
func (mi *mapInfo) get(key jen.Code) *jen.Statement {
	mi.usesGet = true
	if mi.tab != nil {
		return jen.Id("e").Dot(mi.field).Dot("get" + mi.stem).Call(key)
	}
	return jen.Id("e").Dot(mi.field).Dot("get").Call(key)
}

// ordIndex is an ordered index of a map read by MIN or MAX: per value of
// the keys at positions group, the multiset of the keys at position val
// over the live entries (runtime.OrderedIndex; a runtime.Multiset when
// group is empty).
type ordIndex struct {
	group []int
	val   int
}

// orderedFor returns the number of the ordered index by group of the key
// at position val, planning it if needed.
func (mi *mapInfo) orderedFor(group []int, val int) int {
	for i, o := range mi.ordered {
		if o.val == val && equalInts(o.group, group) {
			return i
		}
	}
	mi.ordered = append(mi.ordered, ordIndex{group: group, val: val})
	return len(mi.ordered) - 1
}

// rangeFor returns the number of the range-sum index by group of the key at
// position val, planning it if needed: per value of the keys at positions
// group, the entries' values ordered by the key at val with subtree sums
// (runtime.RangeSumIndex; a runtime.RangeSum when group is empty), so that
// a nested sum over a range of that key is one O(log n) read.
func (mi *mapInfo) rangeFor(group []int, val int) int {
	for i, o := range mi.ranges {
		if o.val == val && equalInts(o.group, group) {
			return i
		}
	}
	mi.ranges = append(mi.ranges, ordIndex{group: group, val: val})
	return len(mi.ranges) - 1
}

func (mi *mapInfo) indexFor(pos []int) int {
	if mi.tab != nil {
		return mi.tab.indexFor(pos)
	}
	for i, ix := range mi.indexes {
		if equalInts(ix, pos) {
			return i
		}
	}
	mi.indexes = append(mi.indexes, pos)
	return len(mi.indexes) - 1
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (g *gen) fresh(prefix string) string {
	g.tmp++
	return fmt.Sprintf("%s%d", prefix, g.tmp)
}

func goType(t lang.Type) jen.Code {
	switch t {
	case lang.TInt:
		return jen.Int64()
	case lang.TFloat:
		return jen.Float64()
	case lang.TString:
		return jen.String()
	case lang.TDate:
		return jen.Qual(runtimePkg, "Date")
	}
	return jen.Int64()
}

func shapeCode(t lang.Type) string {
	switch t {
	case lang.TFloat:
		return "F"
	case lang.TString:
		return "S"
	case lang.TDate:
		return "D"
	}
	return "I"
}

// keyType returns the Go type of a key made of vars (a scalar for one).
func (g *gen) keyType(vars []calculus.Var) jen.Code {
	if len(vars) == 1 {
		return goType(vars[0].Type)
	}
	code := ""
	for _, v := range vars {
		code += shapeCode(v.Type)
	}
	g.keyTypes[code] = true
	return jen.Id("key" + code)
}

// keyValue builds a key value from expressions.
func (g *gen) keyValue(vars []calculus.Var, vals []jen.Code) jen.Code {
	if len(vars) == 1 {
		return vals[0]
	}
	d := jen.Dict{}
	for i, v := range vals {
		d[jen.Id(fmt.Sprintf("k%d", i))] = v
	}
	return g.keyType(vars).(*jen.Statement).Clone().Values(d)
}

// keyField reads position i of a key value held in x.
func keyField(x *jen.Statement, n, i int) *jen.Statement {
	if n == 1 {
		return x
	}
	return x.Clone().Dot(fmt.Sprintf("k%d", i))
}

func (g *gen) generate() error {
	g.planNames()
	g.planTouches()
	g.counterMaps()
	// Secondary indexes are planned where a loop needs one (indexFor, in
	// the first pass): a partly bound map read that compiles to a range
	// read or a point read needs none, and an index nobody reads would
	// still be updated with every new and every removed entry.
	for _, t := range g.p.Triggers {
		for _, s := range t.Stmts {
			if s.Buffered {
				mi := g.maps[s.Map.Name]
				mi.buffers = append(mi.buffers, s)
			}
		}
	}
	g.engineType()
	g.entryCount()
	if g.setCollects == nil {
		g.setCollects = map[string][]int{}
	}
	for _, r := range g.p.Relations {
		if err := g.triggers(r); err != nil {
			return err
		}
		// The set-at-a-time statements do not decide which maps are
		// fused: the per-event triggers do.
		n := len(g.coUpdates)
		if err := g.setMethods(r); err != nil {
			return err
		}
		g.coUpdates = g.coUpdates[:n]
	}
	for _, v := range g.p.Views {
		if err := g.view(v); err != nil {
			return err
		}
	}
	if g.partition != nil {
		g.partitionMethods(g.partition)
	}
	g.engineMethods()
	g.arithMethods()
	g.snapshotMethods()
	// Map types last: generating the triggers decides their indexes.
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		if mi.tab == nil {
			g.mapType(mi)
		} else if mi.tab.members[0] == mi {
			g.tableType(mi.tab)
		}
	}
	codes := make([]string, 0, len(g.keyTypes))
	for c := range g.keyTypes {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	for _, c := range codes {
		var fields []jen.Code
		for i, ch := range c {
			t := map[rune]lang.Type{'I': lang.TInt, 'F': lang.TFloat, 'S': lang.TString, 'D': lang.TDate}[ch]
			fields = append(fields, jen.Id(fmt.Sprintf("k%d", i)).Add(goType(t)))
		}
		g.f.Commentf("key%s is a map key of %d columns.", c, len(c))
		g.f.Type().Id("key" + c).Struct(fields...)
	}
	pats := make([]string, 0, len(g.likes))
	for p := range g.likes {
		pats = append(pats, p)
	}
	sort.Strings(pats)
	if len(pats)+len(g.regexps) > 0 {
		var defs []jen.Code
		for _, p := range pats {
			defs = append(defs, jen.Id(g.likes[p]).Op("=").Qual(runtimePkg, "CompileLike").Call(jen.Lit(p)))
		}
		res := make([]string, 0, len(g.regexps))
		for r := range g.regexps {
			res = append(res, r)
		}
		sort.Strings(res)
		for _, r := range res {
			defs = append(defs, jen.Id(g.regexps[r]).Op("=").Qual(runtimePkg, "CompileRegexp").Call(jen.Lit(r)))
		}
		g.f.Comment("Patterns of LIKE and REGEXP_MATCH, compiled once.")
		g.f.Var().Defs(defs...)
	}
	return nil
}

func (g *gen) engineType() {
	var fields []jen.Code
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		c := jen.Commentf("%s[%s] := %s", m.Name, varNames(m.Keys), calculus.String(m.Def))
		fields = append(fields, c)
		if mi.tab != nil {
			if mi.tab.members[0] == mi {
				fields = append(fields, jen.Commentf("%s stores the maps above and below whose value lives in its %s entries.", mi.field, "entry"+mi.tab.stem))
				fields = append(fields, jen.Id(mi.field).Op("*").Id(mi.typ))
			}
		} else if mi.keyed {
			fields = append(fields, jen.Id(mi.field).Op("*").Id(mi.typ))
		} else {
			fields = append(fields, jen.Id(mi.field).Add(storedType(m.Type)))
		}
		for i := range mi.buffers {
			fields = append(fields, jen.Id(bufName(mi, i)).Index().Id(bufEntry(mi)))
		}
	}
	for i, vars := range g.planned {
		fields = append(fields, jen.Commentf("scratch: the sums of a nested aggregate by %s", varNames(vars)))
		fields = append(fields, jen.Id(fmt.Sprintf("groups%d", i)).Map(g.keyType(vars)).Float64())
	}
	fields = append(fields, g.topEngineFields()...)
	fields = append(fields, g.treeFields()...)
	fields = append(fields, g.kernelFields()...)
	fields = append(fields, g.setFields()...)
	fields = append(fields,
		jen.Comment("changes receives the views' changes (dispatch, while someone subscribes); shown holds"),
		jen.Comment("the views as last reported; subs are the subscribers."),
		jen.Id("changes").Func().Params(jen.Qual(runtimePkg, "Change")),
		jen.Id("shown").Index().Qual(runtimePkg, "View"),
		jen.Id("subs").Id("subscribers"))
	fields = append(fields, g.keyedFields()...)
	if len(g.p.Views) > 0 {
		fields = append(fields,
			jen.Comment("dirty marks the views whose maps an event wrote since the last report: a report"),
			jen.Comment("snapshots only those (a keyed view: compares all its rows)."),
			jen.Id("dirty").Index(jen.Lit(len(g.p.Views))).Bool())
	}
	if g.hasChecks {
		fields = append(fields, jen.Comment("overflow is set when an integer sum or product of the running event leaves int64;"))
		fields = append(fields, jen.Comment("undoing while an event that overflowed is undone."))
		fields = append(fields, jen.List(jen.Id("overflow"), jen.Id("undoing")).Bool())
	}
	if g.p.StaticTables {
		fields = append(fields, jen.Comment("streamed is set by the first stream event: an event on a static table is rejected from"),
			jen.Comment("then on (runtime.ErrStaticTable)."),
			jen.Id("streamed").Bool())
	}
	g.f.Comment("Engine holds the maps of the compiled queries. It is not safe for concurrent use.")
	g.f.Type().Id("Engine").Struct(fields...)
	g.f.Comment("New returns an Engine over empty relations.")
	engine := jen.Op("&").Id("Engine").Values(jen.DictFunc(func(d jen.Dict) {
		for _, m := range g.p.Maps {
			mi := g.maps[m.Name]
			if mi.tab != nil {
				if mi.tab.members[0] == mi {
					d[jen.Id(mi.field)] = jen.Id("new" + mi.tab.stem + "Table").Call()
				}
			} else if mi.keyed {
				d[jen.Id(mi.field)] = jen.Id(ctorName(mi)).Call()
			} else if m.Init != 0 && m.Type != lang.TFloat {
				// The definition over empty relations (viewlet's Map.Init).
				d[jen.Id(mi.field)] = valueLit(m.Type, m.Init)
			}
		}
		for i, vars := range g.planned {
			d[jen.Id(fmt.Sprintf("groups%d", i))] = jen.Make(jen.Map(g.keyType(vars)).Float64())
		}
		g.topEngineInits(d)
	}))
	// Entries of keyed maps before any event (a constant view).
	var inits []jen.Code
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		if !mi.keyed && m.Init != 0 && m.Type == lang.TFloat {
			inits = append(inits, jen.Id("e").Dot(mi.field).Dot("Add").Call(valueLit(m.Type, m.Init)))
		}
		for _, e := range m.InitEntries {
			vals := make([]jen.Code, len(e.Keys))
			for i, k := range e.Keys {
				vals[i] = keyLit(m.Keys[i].Type, k)
			}
			inits = append(inits, jen.Id("e").Dot(mi.field).Dot("add").Call(g.keyValue(m.Keys, vals), valueLit(m.Type, e.Value)))
		}
	}
	hookups := g.topHookups()
	if len(inits) > 0 && len(hookups) > 0 {
		inits = append(inits, g.topReorders(nil)...)
	}
	if len(inits) == 0 && len(hookups) == 0 {
		g.f.Func().Id("New").Params().Op("*").Id("Engine").Block(jen.Return(engine))
		return
	}
	g.f.Func().Id("New").Params().Op("*").Id("Engine").Block(append(append(append(
		[]jen.Code{jen.Id("e").Op(":=").Add(engine)}, hookups...), inits...), jen.Return(jen.Id("e")))...)
}

// entryCount emits Engine.MapEntries (runtime.EntryCounter): the live
// entries of the keyed maps, a fused table's once.
func (g *gen) entryCount() {
	var sum *jen.Statement
	for _, m := range g.p.Maps {
		mi := g.maps[m.Name]
		if mi.tab != nil && mi.tab.members[0] != mi || mi.tab == nil && !mi.keyed {
			continue
		}
		n := jen.Len(jen.Id("e").Dot(mi.field).Dot("entries")).Op("-").Len(jen.Id("e").Dot(mi.field).Dot("free"))
		if sum == nil {
			sum = n
		} else {
			sum = sum.Op("+").Add(n)
		}
	}
	if sum == nil {
		sum = jen.Lit(0)
	}
	g.f.Comment("MapEntries returns the number of entries of the engine's keyed maps (a fused\ntable's entry once): the measure of its state that toastgen bench divides by.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("MapEntries").Params().Int().Block(jen.Return(sum))
}

// valueLit is a map value of type t.
func valueLit(t lang.Type, v float64) jen.Code {
	if t == lang.TInt {
		return jen.Lit(int64(v))
	}
	return jen.Lit(v)
}

// keyLit is a key value of an initial entry (a runtime.Date for a date
// key, whose integer is its yyyymmdd value; %d does not call its String).
func keyLit(t lang.Type, v any) jen.Code {
	if t == lang.TDate {
		return jen.Qual(runtimePkg, "Date").Call(jen.Id(fmt.Sprintf("%d", v)))
	}
	return jen.Lit(v)
}

func bufName(mi *mapInfo, i int) string { return fmt.Sprintf("%sBuf%d", mi.field, i) }
func bufEntry(mi *mapInfo) string       { return "upd" + mi.stem }

func varNames(vs []calculus.Var) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = v.Name
	}
	return strings.Join(ss, ", ")
}
