// Package randquery generates random nested SQL queries for toastgen's
// differential tests (a test-only helper). A query file declares a few
// streams of int columns over small domains — R(A, B), S(B, C), T(C, D),
// those the query uses — and holds one SELECT in DBToaster's dialect.
//
// The generator aims at the shapes that broke the compiler (issue 8):
// subqueries with several correlation columns, inequality and mixed
// correlations, two correlations through one inner column, correlations
// through inner joins inside subqueries, scalar subqueries in WHERE, SELECT
// and HAVING, derived tables with computed, grouped, MIN/MAX and UNION ALL
// columns read by outer comparisons and aggregates, grouped IN/EXISTS,
// NOT EXISTS/NOT IN, COUNT(DISTINCT) with constant conditions and cross
// products, SELECT DISTINCT over grouped aggregates, UNION/UNION ALL chains.
//
// Every construct is a named feature (see Features) that a Config can turn
// off, so that a failure can be minimized by switching features off one at a
// time. A decision always consumes the same random draw whether its feature
// is on or off.
//
// Besides the query, the generator writes its own SQLite translation
// (Query.SQLite), independent of lang.SQLite: its columns are the view's
// keys then values, and it spells out the dialect's semantics (an ungrouped
// aggregate over no input is 0: COALESCE; a bag reports each row's
// multiplicity). The harness compares the engines with both translations,
// so that a front-end misreading that lang.SQLite shares (such as a UNION
// chain read as all-DISTINCT) is caught too. The queries avoid what the two
// dialects disagree on or what the dialect lacks: no division, no NULL, no
// outer joins, no LIMIT.
package randquery

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Features are the names of the constructs the generator can switch off.
var Features = []string{
	"join",          // a second or third FROM item
	"cross",         // FROM items without a join condition
	"ineqjoin",      // an inequality as a join condition
	"filter",        // local comparisons with constants or columns
	"or",            // OR of two comparisons
	"between",       // BETWEEN
	"const",         // constant conditions (2 > 1, 1 = 0)
	"arith",         // computed expressions (a + b, a * 2, a - 1)
	"exists",        // [NOT] EXISTS subqueries
	"not",           // NOT EXISTS / NOT IN
	"in",            // [NOT] IN subqueries
	"scalar",        // scalar subqueries compared in WHERE
	"groupedsub",    // GROUP BY (and HAVING) inside IN/EXISTS
	"multicorr",     // several correlation predicates per subquery
	"ineqcorr",      // inequality correlations
	"samecol",       // two correlations through one inner column
	"subjoin",       // inner joins inside subqueries
	"nested",        // a subquery inside a subquery
	"deepcorr",      // a nested subquery correlated with the outermost query
	"uncorr",        // an uncorrelated subquery
	"derived",       // derived tables in FROM
	"computed",      // computed columns of derived tables
	"derivedgroup",  // grouped derived tables
	"derivedminmax", // MIN/MAX columns of derived tables
	"derivedscalar", // ungrouped aggregate derived tables
	"derivedunion",  // UNION ALL derived tables
	"grouped",       // a grouped top-level query
	"scalaragg",     // an ungrouped top-level aggregate
	"bag",           // a top-level query without aggregates
	"union",         // a top-level UNION / UNION ALL chain
	"distinct",      // SELECT DISTINCT (over grouped aggregates too)
	"countdistinct", // COUNT(DISTINCT …)
	"minmax",        // MIN / MAX aggregates and subqueries
	"avg",           // AVG at the top level
	"having",        // HAVING
	"havingsub",     // a scalar subquery in HAVING
	"selectsub",     // a scalar subquery in SELECT (correlated with group keys)
	"aggsub",        // a scalar subquery inside an aggregate
	"floatmix",      // INT and FLOAT aggregates and scalar subqueries in one arithmetic value
	"rel_r",         // the stream R(A, B)
	"primarykey",    // PRIMARY KEY on a stream's first column (the data break it)
}

// Config controls the generator. The zero Config has every feature on.
type Config struct {
	Off      map[string]bool // features switched off
	MaxCorr  int             // correlation predicates per subquery (default 3)
	MaxDepth int             // subquery nesting (default 2)
}

// Without returns a copy of c with the named features off.
func (c Config) Without(names ...string) Config {
	off := map[string]bool{}
	for k, v := range c.Off {
		off[k] = v
	}
	for _, n := range names {
		off[n] = true
	}
	c.Off = off
	return c
}

// Query is a generated query file.
type Query struct {
	Seed   int64
	Text   string   // the query file: CREATE STREAM declarations and the SELECT
	Select string   // the SELECT alone, dialect text
	SQLite string   // the independent SQLite translation (view keys, then values)
	Used   []string // the features the query uses, sorted
	Rels   []string // the streams declared, in order

	// Stream parameters, drawn from the seed.
	Ints       int     // integer domain [0, Ints)
	DeleteFrac float64 // fraction of deletes
}

// Generate returns the text of a random query file for seed, every feature on.
func Generate(seed int64) string { return New(seed, Config{}).Text }

var schema = map[string][]string{"R": {"A", "B"}, "S": {"B", "C"}, "T": {"C", "D"}}

// New generates the query of seed under c.
func New(seed int64, c Config) *Query {
	if c.MaxCorr <= 0 {
		c.MaxCorr = 3
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = 2
	}
	g := &gen{rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed)), c: c, used: map[string]bool{}, rels: map[string]bool{}}
	q := &Query{Seed: seed}
	q.Ints = 3 + g.rng.IntN(3)
	q.DeleteFrac = 0.2 + 0.05*float64(g.rng.IntN(6))
	d, s := g.top()
	q.Select, q.SQLite = d+";", s
	for _, r := range []string{"R", "S", "T"} {
		if g.rels[r] {
			q.Rels = append(q.Rels, r)
		}
	}
	var b strings.Builder
	for _, r := range q.Rels {
		cols := schema[r]
		// Drawn after the query, so that the query of a seed does not
		// depend on the feature. The streams repeat key values: chained
		// map entries (codegen's hash keys) see keys broken all the time.
		key := ""
		if !c.Off["primarykey"] && g.rng.IntN(2) == 0 {
			key = " PRIMARY KEY"
			g.used["primarykey"] = true
		}
		fmt.Fprintf(&b, "CREATE STREAM %s(%s int%s, %s int) FROM FILE '%s.csv' LINE DELIMITED CSV (delimiter := '|', deletions := 'true');\n",
			r, cols[0], key, cols[1], strings.ToLower(r))
	}
	b.WriteString(q.Select + "\n")
	q.Text = b.String()
	for f := range g.used {
		q.Used = append(q.Used, f)
	}
	slices.Sort(q.Used)
	return q
}

// frag is a piece of query text in the dialect (d) and in SQLite (s).
type frag struct{ d, s string }

func same(s string) frag { return frag{s, s} }

func (f frag) wrap(pre, post string) frag { return frag{pre + f.d + post, pre + f.s + post} }

func join(fs []frag, sep string) frag {
	var d, s []string
	for _, f := range fs {
		d, s = append(d, f.d), append(s, f.s)
	}
	return frag{strings.Join(d, sep), strings.Join(s, sep)}
}

// item is a FROM item: an alias and its column names.
type item struct {
	alias string
	cols  []string
}

// scope is the FROM items of one query level; outer is the enclosing level
// (nil at the top and in derived tables).
type scope struct {
	items []item
	outer *scope
}

func (s *scope) cols() []string {
	var out []string
	for _, it := range s.items {
		for _, c := range it.cols {
			out = append(out, it.alias+"."+c)
		}
	}
	return out
}

type gen struct {
	rng   *rand.Rand
	c     Config
	used  map[string]bool
	rels  map[string]bool
	alias int
}

// on reports, with probability p, that feature f is used; it always draws.
func (g *gen) on(f string, p float64) bool {
	x := g.rng.Float64()
	if g.c.Off[f] || x >= p {
		return false
	}
	g.used[f] = true
	return true
}

func (g *gen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g *gen) konst() string { return fmt.Sprint(g.rng.IntN(5)) }

func (g *gen) name(p string) string {
	g.alias++
	return fmt.Sprintf("%s%d", p, g.alias)
}

var ineqOps = []string{"<", "<=", ">", ">=", "<>"}

func (g *gen) cmpOp(ineq string) string {
	if g.on(ineq, 0.45) {
		return g.pick(ineqOps)
	}
	return "="
}

// base picks a base relation.
func (g *gen) base() item {
	rels := []string{"S", "T", "S", "T", "R"}
	r := g.pick(rels)
	if r == "R" && g.c.Off["rel_r"] {
		r = "S"
	}
	if r == "R" {
		g.used["rel_r"] = true
	}
	g.rels[r] = true
	return item{alias: g.name(strings.ToLower(r)), cols: schema[r]}
}

// from writes a FROM clause of 1–3 items and returns its join conditions.
func (g *gen) from(sc *scope, depth int, allowDerived bool) (frag, []frag) {
	n := 1
	if g.on("join", 0.5) {
		n++
		if g.rng.IntN(4) == 0 {
			n++
		}
	}
	var parts, conds []frag
	for i := range n {
		var it item
		var f frag
		if allowDerived && depth < g.c.MaxDepth && g.on("derived", 0.25) {
			it, f = g.derived(depth + 1)
		} else {
			it = g.base()
			f = same(strings.ToUpper(it.alias[:1]) + " " + it.alias)
		}
		if i > 0 {
			prev := (&scope{items: sc.items}).cols()
			a := it.alias + "." + g.pick(it.cols)
			b := g.pick(prev)
			cross := g.on("cross", 0.2)
			op := g.cmpOp("ineqjoin")
			if !cross {
				conds = append(conds, same(a+" "+op+" "+b))
			}
		}
		sc.items = append(sc.items, it)
		parts = append(parts, f)
	}
	return join(parts, ", "), conds
}

// expr is a numeric expression over the columns of sc.
func (g *gen) expr(sc *scope) string {
	cols := sc.cols()
	a := g.pick(cols)
	if g.on("arith", 0.25) {
		switch g.rng.IntN(3) {
		case 0:
			return a + " + " + g.pick(cols)
		case 1:
			return a + " * 2"
		default:
			return a + " - " + g.pick(cols)
		}
	}
	return a
}

// filter is a local condition over sc, or "" if none.
func (g *gen) filter(sc *scope) string {
	cols := sc.cols()
	switch {
	case g.on("const", 0.12):
		return g.pick([]string{"2 > 1", "1 = 1", "1 = 0", "3 >= 3"})
	case g.on("between", 0.1):
		return g.pick(cols) + " BETWEEN " + fmt.Sprint(g.rng.IntN(2)) + " AND " + fmt.Sprint(2+g.rng.IntN(2))
	case g.on("or", 0.12):
		return "(" + g.pick(cols) + " " + g.pick(ineqOps) + " " + g.konst() + " OR " + g.pick(cols) + " = " + g.pick(cols) + ")"
	case g.on("filter", 0.35):
		if g.rng.IntN(2) == 0 {
			return g.expr(sc) + " " + g.pick(ineqOps) + " " + g.konst()
		}
		return g.expr(sc) + " " + g.pick(append(ineqOps, "=")) + " " + g.pick(cols)
	}
	return ""
}

// where combines conditions (AND); nil if none.
func where(conds []frag) frag {
	if len(conds) == 0 {
		return frag{}
	}
	return join(conds, " AND ").wrap(" WHERE ", "")
}

// conds returns the WHERE conditions of a level: join conditions, local
// filters and subquery predicates.
func (g *gen) conds(sc *scope, depth int, joins []frag) []frag {
	conds := slices.Clone(joins)
	for range 2 {
		if f := g.filter(sc); f != "" {
			conds = append(conds, same(f))
		}
	}
	if depth < g.c.MaxDepth {
		for k := range 2 {
			p := 0.55
			if depth > 0 {
				p = 0.3
			}
			if k > 0 {
				p /= 2
			}
			if g.rng.Float64() < p {
				if f, ok := g.subPred(sc, depth+1); ok {
					conds = append(conds, f)
				}
			}
		}
	}
	return conds
}

// correlations writes the correlation predicates of a subquery whose own
// scope is in, against the enclosing levels of in.outer.
func (g *gen) correlations(in *scope) []frag {
	var out []frag
	if g.on("uncorr", 0.12) {
		return nil
	}
	n := 1
	if g.on("multicorr", 0.4) {
		n += 1 + g.rng.IntN(g.c.MaxCorr-1)
		if n > g.c.MaxCorr {
			n = g.c.MaxCorr
		}
	}
	inner := in.cols()
	last := ""
	for range n {
		target := in.outer
		if target.outer != nil && g.on("deepcorr", 0.3) {
			target = target.outer
		}
		a := g.pick(inner)
		if last != "" && g.on("samecol", 0.3) {
			a = last
		}
		last = a
		op := g.cmpOp("ineqcorr")
		out = append(out, same(a+" "+op+" "+g.pick(target.cols())))
	}
	return out
}

// subFrom writes the FROM and WHERE of a subquery nested in outer.
func (g *gen) subFrom(outer *scope, depth int) (*scope, frag) {
	in := &scope{outer: outer}
	var parts, conds []frag
	n := 1
	if g.on("subjoin", 0.35) {
		n = 2
	}
	for i := range n {
		it := g.base()
		if i > 0 {
			prev := in.cols()
			op := g.cmpOp("ineqjoin")
			if !g.on("cross", 0.1) {
				conds = append(conds, same(it.alias+"."+g.pick(it.cols)+" "+op+" "+g.pick(prev)))
			}
		}
		in.items = append(in.items, it)
		parts = append(parts, same(strings.ToUpper(it.alias[:1])+" "+it.alias))
	}
	conds = append(conds, g.correlations(in)...)
	if f := g.filter(in); f != "" {
		conds = append(conds, same(f))
	}
	if depth < g.c.MaxDepth && g.on("nested", 0.25) {
		if f, ok := g.subPred(in, depth+1); ok {
			conds = append(conds, f)
		}
	}
	return in, join(parts, ", ").wrap(" FROM ", "").plus(where(conds))
}

func (f frag) plus(o frag) frag { return frag{f.d + o.d, f.s + o.s} }

// scalarSub is a scalar aggregate subquery correlated with outer; in SQLite
// it is COALESCEd to 0 (the dialect's empty aggregate).
func (g *gen) scalarSub(outer *scope, depth int) frag {
	in, body := g.subFrom(outer, depth)
	var agg string
	cols := in.cols()
	switch {
	case g.on("minmax", 0.3):
		agg = g.pick([]string{"MIN", "MAX"}) + "(" + g.pick(cols) + ")"
	case g.on("countdistinct", 0.1):
		agg = "COUNT(DISTINCT " + g.pick(cols) + ")"
	case g.rng.IntN(2) == 0:
		agg = "COUNT(*)"
	default:
		agg = "SUM(" + g.expr(in) + ")"
	}
	f := same("(SELECT "+agg).plus(body).wrap("", ")")
	f.s = "COALESCE(" + f.s + ", 0)"
	return f
}

// subPred is a subquery predicate of a level with scope sc.
func (g *gen) subPred(sc *scope, depth int) (frag, bool) {
	not := ""
	switch g.rng.IntN(3) {
	case 0:
		if !g.on("exists", 0.9) {
			return frag{}, false
		}
		if g.on("not", 0.4) {
			not = "NOT "
		}
		in, body := g.subFrom(sc, depth)
		sel := "*"
		var grp frag
		if g.on("groupedsub", 0.35) {
			sel = g.pick(in.cols())
			grp = g.groupHaving(sel, in)
		}
		return same(not+"EXISTS (SELECT "+sel).plus(body).plus(grp).wrap("", ")"), true
	case 1:
		if !g.on("in", 0.9) {
			return frag{}, false
		}
		if g.on("not", 0.4) {
			not = "NOT "
		}
		x := g.expr(sc)
		in, body := g.subFrom(sc, depth)
		sel := g.pick(in.cols())
		var grp frag
		if g.on("groupedsub", 0.35) {
			grp = g.groupHaving(sel, in)
		}
		return same(x+" "+not+"IN (SELECT "+sel).plus(body).plus(grp).wrap("", ")"), true
	default:
		if !g.on("scalar", 0.9) {
			return frag{}, false
		}
		sub := g.scalarSub(sc, depth)
		op := g.pick(append(ineqOps, "=", "="))
		var rhs string
		if g.rng.IntN(2) == 0 {
			rhs = g.konst()
		} else {
			rhs = g.expr(sc)
		}
		return sub.plus(same(" " + op + " " + rhs)), true
	}
}

// groupHaving groups a subquery by col, maybe with a HAVING.
func (g *gen) groupHaving(col string, in *scope) frag {
	f := same(" GROUP BY " + col)
	if g.on("having", 0.5) {
		if g.rng.IntN(2) == 0 {
			f = f.plus(same(" HAVING COUNT(*) " + g.pick(ineqOps) + " " + fmt.Sprint(1+g.rng.IntN(2))))
		} else {
			f = f.plus(same(" HAVING SUM(" + g.pick(in.cols()) + ") " + g.pick(ineqOps) + " " + g.konst()))
		}
	}
	return f
}

// derived writes a derived table (SELECT … ) dN.
func (g *gen) derived(depth int) (item, frag) {
	alias := g.name("d")
	sc := &scope{}
	fromF, joins := g.from(sc, depth, true)
	body := fromF.wrap(" FROM ", "").plus(where(g.conds(sc, depth, joins)))
	cols := sc.cols()
	var f frag
	var names []string
	switch {
	case g.on("derivedunion", 0.15):
		// Two branches of one column each (UNION ALL).
		sc2 := &scope{}
		fromF2, joins2 := g.from(sc2, g.c.MaxDepth, false)
		body2 := fromF2.wrap(" FROM ", "").plus(where(g.conds(sc2, g.c.MaxDepth, joins2)))
		names = []string{"x1"}
		f = same("SELECT " + g.expr(sc) + " AS x1").plus(body).plus(same(" UNION ALL SELECT " + g.expr(sc2))).plus(body2)
	case g.on("derivedgroup", 0.4):
		key := g.pick(cols)
		if g.on("computed", 0.3) {
			key = g.expr(sc)
		}
		names = []string{"x1", "x2"}
		agg := g.derivedAgg(sc)
		f = same("SELECT "+key+" AS x1, ").plus(agg).wrap("", " AS x2").plus(body).plus(same(" GROUP BY " + key))
		if g.on("having", 0.3) {
			f = f.plus(same(" HAVING COUNT(*) " + g.pick(ineqOps) + " 1"))
		}
	case g.on("derivedscalar", 0.15):
		names = []string{"x1"}
		agg := g.derivedAgg(sc)
		agg.s = "COALESCE(" + agg.s + ", 0)"
		f = same("SELECT ").plus(agg).wrap("", " AS x1").plus(body)
	default:
		n := 1 + g.rng.IntN(2)
		var sel []string
		for i := range n {
			e := g.pick(cols)
			if g.on("computed", 0.5) {
				e = g.pick(cols) + " + " + g.pick(cols)
			}
			names = append(names, fmt.Sprintf("x%d", i+1))
			sel = append(sel, fmt.Sprintf("%s AS x%d", e, i+1))
		}
		f = same("SELECT " + strings.Join(sel, ", ")).plus(body)
	}
	return item{alias: alias, cols: names}, f.wrap("(", ") "+alias)
}

func (g *gen) derivedAgg(sc *scope) frag {
	switch {
	case g.on("derivedminmax", 0.4):
		return same(g.pick([]string{"MIN", "MAX"}) + "(" + g.expr(sc) + ")")
	case g.on("countdistinct", 0.1):
		return same("COUNT(DISTINCT " + g.pick(sc.cols()) + ")")
	case g.rng.IntN(2) == 0:
		return same("COUNT(*)")
	}
	return same("SUM(" + g.expr(sc) + ")")
}

// top writes the top-level query: dialect text and SQLite translation.
func (g *gen) top() (string, string) {
	kinds := []string{"grouped", "grouped", "grouped", "scalaragg", "scalaragg", "bag", "union"}
	kind := g.pick(kinds)
	for _, k := range []string{kind, "grouped", "scalaragg", "bag", "union"} {
		if !g.c.Off[k] {
			kind = k
			break
		}
	}
	g.used[kind] = true
	if kind == "union" {
		return g.union()
	}
	sc := &scope{}
	fromF, joins := g.from(sc, 0, true)
	fromF = fromF.wrap(" FROM ", "")
	body := fromF.plus(where(g.conds(sc, 0, joins)))
	cols := sc.cols()
	distinct := ""
	if g.on("distinct", 0.3) {
		distinct = "DISTINCT "
	}
	if kind == "bag" {
		n := 1 + g.rng.IntN(2)
		var sel []string
		for range n {
			c := g.pick(cols)
			if !slices.Contains(sel, c) {
				sel = append(sel, c)
			}
		}
		items := strings.Join(sel, ", ")
		cnt := "COUNT(*)"
		if distinct != "" {
			cnt = "1"
		}
		return "SELECT " + distinct + items + body.d,
			"SELECT " + items + ", " + cnt + body.s + " GROUP BY " + items + " ORDER BY " + items
	}
	var keys []string
	if kind == "grouped" {
		n := 1 + g.rng.IntN(2)
		for range n {
			c := g.pick(cols)
			if !slices.Contains(keys, c) {
				keys = append(keys, c)
			}
		}
	}
	// Values: 1–3 aggregates, maybe a scalar subquery correlated with keys.
	keyScope := &scope{items: []item{}}
	for _, k := range keys {
		a, c, _ := strings.Cut(k, ".")
		keyScope.items = append(keyScope.items, item{alias: a, cols: []string{c}})
	}
	var vals []frag
	nv := 1 + g.rng.IntN(3)
	for range nv {
		vals = append(vals, g.topAgg(sc, kind == "grouped"))
	}
	if kind == "grouped" && g.on("selectsub", 0.3) {
		vals = append(vals, g.scalarSub(keyScope, 1))
	}
	if g.on("floatmix", 0.25) {
		vals = append(vals, g.floatMix(sc, keyScope, kind == "grouped"))
	}
	var sel []frag
	for _, k := range keys {
		sel = append(sel, same(k))
	}
	for i, v := range vals {
		sel = append(sel, v.wrap("", fmt.Sprintf(" AS v%d", i+1)))
	}
	q := same("SELECT " + distinct).plus(join(sel, ", ")).plus(body)
	if kind == "grouped" {
		q = q.plus(same(" GROUP BY " + strings.Join(keys, ", ")))
		if g.on("having", 0.3) {
			lhs := g.topAgg(sc, true)
			if g.on("havingsub", 0.5) {
				q = q.plus(same(" HAVING ")).plus(lhs).plus(same(" " + g.pick(append(ineqOps, "=")) + " ")).plus(g.scalarSub(keyScope, 1))
			} else {
				q = q.plus(same(" HAVING ")).plus(lhs).plus(same(" " + g.pick(ineqOps) + " " + g.konst()))
			}
		}
		q.s += " ORDER BY " + strings.Join(keys, ", ")
	}
	return q.d, q.s
}

// topAgg is an aggregate of the top level; grouped says whether the query is
// grouped (else SQLite COALESCEs it to 0 over no input).
func (g *gen) topAgg(sc *scope, grouped bool) frag {
	cols := sc.cols()
	var f frag
	switch {
	case g.on("countdistinct", 0.25):
		f = same("COUNT(DISTINCT " + g.pick(cols) + ")")
	case g.on("minmax", 0.25):
		f = same(g.pick([]string{"MIN", "MAX"}) + "(" + g.expr(sc) + ")")
	case grouped && g.on("avg", 0.08):
		c := g.pick(cols)
		f = frag{"AVG(" + c + ")", "AVG(CAST(" + c + " AS REAL))"}
	case g.on("aggsub", 0.1):
		sub := g.scalarSub(sc, 1)
		f = sub.wrap("SUM(", ")")
	case g.rng.IntN(2) == 0:
		f = same("COUNT(*)")
	default:
		f = same("SUM(" + g.expr(sc) + ")")
	}
	if !grouped {
		f.s = "COALESCE(" + f.s + ", 0)"
	}
	return f
}

// floatMix is arithmetic over a FLOAT aggregate (a SUM scaled by a
// binary fraction, exact in floating point) and an INT aggregate or, in a
// grouped query, an INT scalar subquery correlated with the group keys:
// the generated code must convert the INT side (a value once did not
// build, mismatched int64 and float64).
func (g *gen) floatMix(sc, keys *scope, grouped bool) frag {
	f := same("SUM(" + g.expr(sc) + " * " + g.pick([]string{"0.25", "0.5", "1.5"}) + ")")
	if !grouped {
		f.s = "COALESCE(" + f.s + ", 0)"
	}
	var other frag
	if grouped && g.rng.IntN(2) == 0 {
		other = g.scalarSub(keys, 1)
	} else {
		other = g.topAgg(sc, grouped)
	}
	l, r := f.wrap("(", ")"), other.wrap("(", ")")
	if g.rng.IntN(2) == 0 {
		l, r = r, l
	}
	return l.plus(same(" " + g.pick([]string{"+", "-", "*"}) + " ")).plus(r)
}

// union writes a chain of 2–3 one- or two-column SELECTs joined by UNION and
// UNION ALL; SQLite reads it left to right and reports multiplicities.
func (g *gen) union() (string, string) {
	n := 2 + g.rng.IntN(2)
	width := 1 + g.rng.IntN(2)
	var d, s strings.Builder
	for i := range n {
		if i > 0 {
			op := g.pick([]string{" UNION ", " UNION ALL "})
			d.WriteString(op)
			s.WriteString(op)
		}
		sc := &scope{}
		fromF, joins := g.from(sc, g.c.MaxDepth-1, false)
		body := fromF.wrap(" FROM ", "").plus(where(g.conds(sc, g.c.MaxDepth-1, joins)))
		var sel, ssel []string
		for j := range width {
			e := g.pick(sc.cols())
			sel = append(sel, e)
			ssel = append(ssel, fmt.Sprintf("%s AS u%d", e, j+1))
		}
		d.WriteString("SELECT " + strings.Join(sel, ", ") + body.d)
		s.WriteString("SELECT " + strings.Join(ssel, ", ") + body.s)
	}
	var us []string
	for j := range width {
		us = append(us, fmt.Sprintf("u%d", j+1))
	}
	cols := strings.Join(us, ", ")
	return d.String(), "SELECT " + cols + ", COUNT(*) FROM (" + s.String() + ") AS tg_u GROUP BY " + cols + " ORDER BY " + cols
}
