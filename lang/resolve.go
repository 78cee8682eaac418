package lang

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	rt "github.com/toastgen/toastgen/runtime"
)

// ParseFile reads, parses and resolves the query file at path.
func ParseFile(path string) (*File, error) { return Config{}.ParseFile(path) }

// Config says how a file is read: today its dialect.
type Config struct {
	Dialect Dialect
}

// ParseFile reads and resolves the query file at path in c's dialect.
func (c Config) ParseFile(path string) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return c.Parse(path, src)
}

// Parse parses and resolves src, reporting positions in filename. INCLUDE
// paths are read relative to the working directory, as DBToaster does. All
// errors are *Error values; Parse never panics. Parse and ParseFile read
// the dbtoaster dialect; Config chooses another.
func Parse(filename string, src []byte) (*File, error) { return Config{}.Parse(filename, src) }

// Parse parses and resolves src in c's dialect.
func (c Config) Parse(filename string, src []byte) (f *File, err error) {
	r := &resolver{src: sources{}, text: map[string][]byte{}, rels: map[string]*Relation{}, file: &File{Path: filename, Dialect: c.Dialect}, sql: c.Dialect == SQL}
	defer func() {
		if x := recover(); x != nil {
			f = nil
			if b, ok := x.(bailout); ok {
				err = b.err
				return
			}
			// Last resort: an internal bug must not crash the caller.
			err = &Error{Pos: Pos{File: filename}, Msg: fmt.Sprintf("internal error: %v\n%s", x, debug.Stack())}
		}
	}()
	r.parseFile(filename, src, nil)
	r.checkViewNames()
	r.file.src = r.src
	return r.file, nil
}

// resolver holds the state of one Parse call.
type resolver struct {
	src       sources
	rels      map[string]*Relation
	file      *File
	including []string // absolute paths of the files being read, for cycle detection
	sql       bool     // dialect sql: NULLs, three-valued logic, integer division
	// unionDepth counts the queries being resolved, nested: LIMIT is only
	// allowed at depth 1 (a view).
	unionDepth int
	text       map[string][]byte // the source of every file read, for the text of select items
}

func (r *resolver) fail(p Pos, format string, args ...any) {
	panic(bailout{r.src.errorf(p, format, args...)})
}

func pos(p lexer.Position) Pos { return Pos{File: p.Filename, Line: p.Line, Col: p.Column} }

func (r *resolver) parseFile(name string, src []byte, at *Pos) {
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	for _, f := range r.including {
		if f == abs {
			r.fail(*at, "INCLUDE cycle: %s includes itself", name)
		}
	}
	r.including = append(r.including, abs)
	defer func() { r.including = r.including[:len(r.including)-1] }()

	r.src.add(name, src)
	r.text[name] = src
	g, err := sqlParser.ParseBytes(name, src)
	if err != nil {
		panic(bailout{r.src.fromParticiple(name, err)})
	}
	names := r.nameComments(name, src, g.Stmts)
	for _, s := range g.Stmts {
		switch {
		case s.View != nil:
			r.addQuery(s.View.Query, r.createViewName(s.View, src))
		case s.Create != nil:
			r.create(s.Create)
		case s.Include != nil:
			p := pos(s.Include.Pos)
			path := unquote(s.Include.Path)
			data, err := os.ReadFile(path)
			if err != nil {
				r.fail(p, "INCLUDE: %v", err)
			}
			r.parseFile(path, bytes.Clone(data), &p)
		case s.Query != nil:
			vn := names[s]
			r.addQuery(s.Query, vn)
		}
	}
}

func (r *resolver) create(c *gCreate) {
	rel := &Relation{Pos: pos(c.Pos), Name: c.Name, Stream: c.Stream}
	if _, dup := r.rels[rel.Name]; dup {
		r.fail(rel.Pos, "relation %s is already declared", rel.Name)
	}
	seen := map[string]bool{}
	for _, cd := range c.Cols {
		if seen[cd.Name] {
			r.fail(pos(cd.Pos), "duplicate column %s in %s", cd.Name, rel.Name)
		}
		seen[cd.Name] = true
		rel.Columns = append(rel.Columns, &Column{Pos: pos(cd.Pos), Name: cd.Name, Label: r.written(cd.Pos, cd.Name), Type: r.typ(cd.Type), Nullable: r.nullable(cd.NullPos)})
	}
	if s := c.Source; s != nil {
		rel.Source = r.source(s)
	}
	r.rels[rel.Name] = rel
	r.file.Relations = append(r.file.Relations, rel)
}

func (r *resolver) typ(t *gType) Type {
	switch t.Name {
	case "INT", "INTEGER":
		return TInt
	case "FLOAT", "DOUBLE", "DECIMAL", "REAL":
		return TFloat
	case "CHAR", "VARCHAR", "STRING", "TEXT":
		return TString
	case "DATE":
		return TDate
	}
	r.fail(pos(t.Pos), "unknown type %s", t.Name)
	return TInvalid
}

// scope is the name space of one SELECT while it is being resolved.
type scope struct {
	q       *Query
	parent  *scope
	hidden  bool           // FROM items not visible yet (resolving a derived table of this query)
	natural map[string]int // column name → from index it resolves to after NATURAL JOIN
	merged  map[string]map[int]bool
	hasAgg  bool
	window  *Agg // the first window aggregate of the SELECT list, if any
	// The FROM list's NATURAL JOIN equalities and JOIN … ON conditions
	// (resolved once every FROM item is visible), see joinList.
	naturalConds []Expr
	naturalAt    []*Join // the NATURAL JOIN nodes
	ons          []pendingOn
	inOuter      map[*Join]bool // the join nodes of FROM elements that hold an outer join
}

// ctx says where an expression occurs.
type ctx struct {
	sc     *scope
	clause string // for messages: "WHERE", "GROUP BY", …
	aggOK  bool
	inAgg  bool
}

// union resolves a SELECT or a chain of UNIONs whose rows are a view, a
// derived table or a union branch (see distinctGroups).
func (r *resolver) union(g *gUnion, parent *scope, name string) *Query {
	r.unionDepth++
	defer func() { r.unionDepth-- }()
	return r.unionOf(g, parent, name, distinctGroups)
}

// unionOf resolves a SELECT or a chain of UNIONs; sel rewrites each SELECT.
func (r *resolver) unionOf(g *gUnion, parent *scope, name string, sel func(*Query) *Query) *Query {
	var order []*gOrder
	var limit *gLimit
	if len(g.Rest) > 0 {
		// ORDER BY and LIMIT after the last arm order the whole compound.
		order, limit, g = r.compoundTail(g)
	}
	first := sel(r.selectQ(g.First, parent, name))
	if len(g.Rest) == 0 {
		return first
	}
	// Compound operators associate left to right, all with one precedence
	// (SQLite's): a run of arms with one operator is one Query, and where
	// the operator changes the chain so far becomes the first branch of the
	// next (A UNION B UNION ALL C is (A ∪ B) ⊎ C: only what stands left of
	// a UNION is deduplicated; A UNION B INTERSECT C is (A ∪ B) ∩ C).
	op0 := setOpOf(g.Rest[0].Op)
	u := &Query{Pos: pos(g.Pos), Items: first.Items, Union: []*Query{first}, SetOp: op0, UnionAll: g.Rest[0].All}
	first.Name = ""
	for _, arm := range g.Rest {
		op := setOpOf(arm.Op)
		if arm.All != u.UnionAll || op != u.SetOp {
			u = &Query{Pos: pos(g.Pos), Items: first.Items, Union: []*Query{u}, SetOp: op, UnionAll: arm.All}
		}
		q := sel(r.selectQ(arm.Sel, parent, ""))
		if len(q.Items) != len(u.Items) {
			r.fail(q.Pos, "%s branches have %d and %d columns", op, len(u.Items), len(q.Items))
		}
		for i, it := range q.Items {
			a, b := u.Items[i].Expr.Type(), it.Expr.Type()
			// A NULL literal takes the column's type from the other arm.
			if l, ok := it.Expr.(*Lit); ok && l.Null && a != b {
				l.T, b = a, a
			} else if l, ok := u.Items[i].Expr.(*Lit); ok && l.Null && a != b {
				l.T, a = b, b
			}
			if a != b && !(a.Numeric() && b.Numeric()) {
				r.fail(it.Pos, "%s column %d has types %s and %s", op, i+1, a, b)
			}
		}
		u.Union = append(u.Union, q)
	}
	u.Name = name
	if limit != nil {
		u.Limit = r.limit(limit)
	}
	for _, o := range order {
		u.OrderBy = append(u.OrderBy, r.compoundOrderItem(o, u))
	}
	return u
}

func (r *resolver) selectQ(g *gSelect, parent *scope, name string) *Query {
	q := &Query{Pos: pos(g.Pos), Name: name, Distinct: g.Distinct}
	sc := &scope{q: q, parent: parent, natural: map[string]int{}, merged: map[string]map[int]bool{}}
	if g.Limit != nil {
		q.Limit = r.limit(g.Limit)
	}
	// FROM
	var conds []Expr
	if g.From != nil {
		sc.hidden = true
		elems := r.joinList(sc, g.From)
		sc.hidden = false
		r.outerJoins(sc, elems)
		conds = append(conds, sc.naturalConds...)
		conds = append(conds, r.resolveOns(sc)...)
	}
	// WHERE
	if g.Where != nil {
		c := r.expr(g.Where, ctx{sc: sc, clause: "WHERE"})
		r.cond(c, "WHERE")
		conds = append(conds, c)
	}
	for _, c := range conds {
		if q.Where == nil {
			q.Where = c
		} else {
			q.Where = &Binary{P: c.Pos(), Op: "AND", L: q.Where, R: c, T: TBool}
		}
	}
	// SELECT items
	r.selectItems(sc, g.Items)
	// GROUP BY
	for _, ge := range g.GroupBy {
		q.GroupBy = append(q.GroupBy, r.groupExpr(sc, ge))
	}
	// HAVING
	if g.Having != nil {
		c := r.expr(g.Having, ctx{sc: sc, clause: "HAVING", aggOK: true})
		r.cond(c, "HAVING")
		q.Having = c
	}
	for _, o := range g.OrderBy {
		q.OrderBy = append(q.OrderBy, r.orderItem(o, q, sc))
	}
	r.checkWindows(q, sc)
	if sc.hasAgg || len(q.GroupBy) > 0 || q.Having != nil {
		r.checkGrouped(q)
	}
	r.settleNulls(q)
	return q
}

func starText(it *gItem) string {
	if it.Of != "" {
		return it.Of + ".*"
	}
	return "*"
}

// star expands SELECT * (of == "") or SELECT alias.* into column references,
// in FROM order. A column merged by NATURAL JOIN appears once, from the
// leftmost item, as in SQL.
func (r *resolver) star(sc *scope, p Pos, of string) []*ColRef {
	q := sc.q
	if len(q.From) == 0 {
		r.fail(p, "SELECT * needs a FROM clause")
	}
	var cols []*ColRef
	found := false
	for i, f := range q.From {
		if of != "" && f.Alias != of {
			continue
		}
		found = true
		names, types := f.Columns()
		for c, n := range names {
			if of == "" && sc.merged[n][i] && sc.natural[n] != i {
				continue
			}
			cols = append(cols, &ColRef{P: p, From: i, Col: c, Alias: f.Alias, Name: n, T: types[c]})
		}
	}
	if !found {
		r.fail(p, "unknown table or alias %s in %s.*", of, of)
	}
	return cols
}

func (r *resolver) fromItem(sc *scope, g *gFromItem) *Join {
	if g.Group != nil {
		return r.fromGroup(sc, g)
	}
	q := sc.q
	f := &FromItem{Pos: pos(g.Pos), Alias: g.Alias}
	if g.Sub != nil {
		if f.Alias == "" {
			r.fail(f.Pos, "a subquery in FROM needs an alias")
		}
		f.Sub = r.union(g.Sub, sc, f.Alias)
	} else {
		rel, ok := r.rels[g.Table]
		if !ok {
			r.fail(f.Pos, "unknown table %s", g.Table)
		}
		f.Rel = rel
		if f.Alias == "" {
			f.Alias = rel.Name
		}
	}
	for _, o := range q.From {
		if o.Alias == f.Alias {
			r.fail(f.Pos, "duplicate table alias %s in FROM", f.Alias)
		}
	}
	q.From = append(q.From, f)
	return &Join{Pos: f.Pos, Kind: JoinItem, Item: len(q.From) - 1}
}

// naturalJoin returns the equalities for a NATURAL JOIN of item j with the
// items before it and records the joined names so that they resolve
// unambiguously (to the leftmost item).
func (r *resolver) naturalJoin(sc *scope, j int, p Pos) []Expr {
	q := sc.q
	var conds []Expr
	names, types := q.From[j].Columns()
	for ci, n := range names {
		left := -1
		if k, ok := sc.natural[n]; ok {
			left = k
		} else {
			for i := 0; i < j; i++ {
				if colIndex(q.From[i], n) >= 0 {
					if left >= 0 {
						r.fail(p, "ambiguous column %s in NATURAL JOIN (in %s and %s)", n, q.From[left].Alias, q.From[i].Alias)
					}
					left = i
				}
			}
		}
		if left < 0 {
			continue
		}
		lc := colIndex(q.From[left], n)
		_, ltypes := q.From[left].Columns()
		l := &ColRef{P: p, From: left, Col: lc, Alias: q.From[left].Alias, Name: n, T: ltypes[lc]}
		rr := &ColRef{P: p, From: j, Col: ci, Alias: q.From[j].Alias, Name: n, T: types[ci]}
		conds = append(conds, r.binary(p, "=", l, rr))
		sc.natural[n] = left
		if sc.merged[n] == nil {
			sc.merged[n] = map[int]bool{left: true}
		}
		sc.merged[n][j] = true
	}
	return conds
}

func colIndex(f *FromItem, name string) int {
	names, _ := f.Columns()
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// lookup resolves a column reference, searching enclosing queries for
// correlated references. It returns an error rather than failing, for GROUP
// BY's alias fallback.
func (r *resolver) lookup(sc *scope, p Pos, qual, name string) (*ColRef, *Error) {
	depth := 0
	for s := sc; s != nil; s, depth = s.parent, depth+1 {
		if s.hidden {
			continue
		}
		q := s.q
		if qual != "" {
			for i, f := range q.From {
				if f.Alias == qual {
					c := colIndex(f, name)
					if c < 0 {
						return nil, r.src.errorf(p, "unknown column %s.%s", qual, name)
					}
					_, types := f.Columns()
					return &ColRef{P: p, Outer: depth, From: i, Col: c, Alias: f.Alias, Name: name, T: types[c], Null: colNull(f, c)}, nil
				}
			}
			continue
		}
		var cands []int
		for i, f := range q.From {
			if colIndex(f, name) >= 0 {
				cands = append(cands, i)
			}
		}
		if len(cands) == 0 {
			continue
		}
		i := cands[0]
		if len(cands) > 1 {
			m := s.merged[name]
			for _, c := range cands {
				if !m[c] {
					return nil, r.src.errorf(p, "ambiguous column %s (in %s and %s)", name, q.From[cands[0]].Alias, q.From[cands[1]].Alias)
				}
			}
			i = s.natural[name]
		}
		f := q.From[i]
		c := colIndex(f, name)
		_, types := f.Columns()
		return &ColRef{P: p, Outer: depth, From: i, Col: c, Alias: f.Alias, Name: name, T: types[c], Null: colNull(f, c)}, nil
	}
	if qual != "" {
		return nil, r.src.errorf(p, "unknown table or alias %s", qual)
	}
	return nil, r.src.errorf(p, "unknown column %s", name)
}

func (r *resolver) groupExpr(sc *scope, g *gExpr) Expr {
	q := sc.q
	if id, ok := g.bareIdent(); ok {
		if _, err := r.lookup(sc, pos(g.Pos), "", id); err != nil {
			for _, it := range q.Items {
				if it.Name == id {
					if hasAgg(it.Expr) {
						r.fail(pos(g.Pos), "GROUP BY %s refers to an aggregate", id)
					}
					return it.Expr
				}
			}
			panic(bailout{err})
		}
	}
	if p := g.prim(); p != nil && p.Int != nil {
		n, err := strconv.Atoi(*p.Int)
		if err != nil || n < 1 || n > len(q.Items) {
			r.fail(pos(g.Pos), "GROUP BY position %s is not in the select list", *p.Int)
		}
		if hasAgg(q.Items[n-1].Expr) {
			r.fail(pos(g.Pos), "GROUP BY %d refers to an aggregate", n)
		}
		return q.Items[n-1].Expr
	}
	e := r.expr(g, ctx{sc: sc, clause: "GROUP BY"})
	e = r.value(e)
	return e
}

// checkGrouped reports a column of q used outside an aggregate and outside
// every GROUP BY expression, in the select list or HAVING.
func (r *resolver) checkGrouped(q *Query) {
	groups := map[string]bool{}
	cols := map[[2]int]bool{}
	for _, g := range q.GroupBy {
		groups[exprKey(g)] = true
		if c, ok := g.(*ColRef); ok && c.Outer == 0 {
			cols[[2]int{c.From, c.Col}] = true
		}
	}
	check := func(e Expr) {
		walkExpr(e, 0, func(e Expr, depth int) bool {
			if depth == 0 {
				if groups[exprKey(e)] {
					return false
				}
				if _, ok := e.(*Agg); ok {
					return false
				}
			}
			if c, ok := e.(*ColRef); ok && c.Outer == depth && !cols[[2]int{c.From, c.Col}] {
				r.fail(c.P, "column %s.%s must appear in GROUP BY or be used in an aggregate", c.Alias, c.Name)
			}
			return true
		})
	}
	for _, it := range q.Items {
		check(it.Expr)
	}
	if q.Having != nil {
		check(q.Having)
	}
}

// addQuery resolves a top-level query, the view named vn (nil: QUERY<n>).
func (r *resolver) addQuery(g *gUnion, vn *viewName) {
	name := fmt.Sprintf("QUERY%d", len(r.file.Queries)+1)
	if vn != nil {
		name = vn.name
	}
	q := r.union(g, nil, name)
	if vn != nil {
		q.Named, q.NamePos = true, vn.pos
	}
	r.checkColumnNames(q)
	r.file.Queries = append(r.file.Queries, q)
}

// checkColumnNames rejects a top-level query whose view would have two
// columns of the same name (e.g. an unselected GROUP BY key named like a
// value).
func (r *resolver) checkColumnNames(q *Query) {
	keys, vals := q.View()
	seen := map[string]bool{}
	for _, it := range append(keys, vals...) {
		if seen[it.Name] {
			r.fail(it.Pos, "duplicate result column %s in the view of %s (GROUP BY key and value)", it.Name, q.Name)
		}
		seen[it.Name] = true
	}
}

// value returns e as a value: a condition is rejected in dialect dbtoaster
// and is 1 or 0 (NULL when UNKNOWN) in dialect sql (see boolValue).
func (r *resolver) value(e Expr) Expr {
	if e.Type() == TBool {
		if r.sql {
			return boolValue(e)
		}
		r.fail(e.Pos(), "a condition cannot be used as a value")
	}
	return e
}

// cond requires a condition.
func (r *resolver) cond(e Expr, what string) {
	if e.Type() == TNull {
		settle(TBool, e) // NULL as a condition is UNKNOWN
		return
	}
	if e.Type() != TBool {
		r.fail(e.Pos(), "%s needs a condition, got a %s value", what, e.Type())
	}
}

func (r *resolver) expr(g *gExpr, c ctx) Expr {
	e := r.and(g.Left, c)
	for _, arm := range g.Right {
		e = r.logic(pos(arm.Pos), "OR", e, r.and(arm.X, c))
	}
	return e
}

func (r *resolver) and(g *gAnd, c ctx) Expr {
	e := r.not(g.Left, c)
	for _, arm := range g.Right {
		e = r.logic(pos(arm.Pos), "AND", e, r.not(arm.X, c))
	}
	return e
}

func (r *resolver) logic(p Pos, op string, l, rr Expr) Expr {
	r.cond(l, op)
	r.cond(rr, op)
	return &Binary{P: p, Op: op, L: l, R: rr, T: TBool}
}

func (r *resolver) not(g *gNot, c ctx) Expr {
	if g.Not == nil {
		return r.pred(g.Pred, c)
	}
	x := r.not(g.Not, c)
	if r.sql {
		r.cond(x, "NOT")
		return negate(pos(g.Pos), x)
	}
	if ex, ok := x.(*Exists); ok {
		ex.Not = !ex.Not
		ex.P = pos(g.Pos)
		return ex
	}
	r.cond(x, "NOT")
	return &Unary{P: pos(g.Pos), Op: "NOT", X: x, T: TBool}
}

func (r *resolver) pred(g *gPred, c ctx) Expr {
	x := r.add(g.Left, c)
	switch {
	case g.Cmp != nil:
		op := g.Cmp.Op
		if op == "<>" {
			op = "!="
		}
		p := pos(g.Cmp.Pos)
		if g.Cmp.Sub != nil {
			x = r.value(x)
			q := r.subquery(g.Cmp.Sub, c)
			r.oneColumn(q, p)
			r.comparable(p, op, x.Type(), q.Items[0].Expr.Type())
			return &Quantified{P: p, Op: op, X: x, All: g.Cmp.Quant == "ALL", Q: q}
		}
		return r.binary(p, op, x, r.add(g.Cmp.Right, c))
	case g.Between != nil:
		b := g.Between
		p := pos(b.Pos)
		lo, hi := r.add(b.Lo, c), r.add(b.Hi, c)
		var e Expr = &Binary{P: p, Op: "AND", L: r.binary(p, ">=", x, lo), R: r.binary(p, "<=", x, hi), T: TBool}
		if b.Not && r.sql {
			return negate(p, e)
		}
		if b.Not {
			e = &Unary{P: p, Op: "NOT", X: e, T: TBool}
		}
		return e
	case g.In != nil:
		p := pos(g.In.Pos)
		x = r.value(x)
		if g.In.Sub != nil {
			q := r.subquery(g.In.Sub, c)
			r.oneColumn(q, p)
			r.comparable(p, "IN", x.Type(), q.Items[0].Expr.Type())
			return &InQuery{P: p, X: x, Q: q, Not: g.In.Not}
		}
		in := &InList{P: p, X: x, Not: g.In.Not}
		for _, ge := range g.In.List {
			e := r.expr(ge, c)
			e = r.value(e)
			r.comparable(e.Pos(), "IN", x.Type(), e.Type())
			settle(x.Type(), e)
			in.List = append(in.List, e)
		}
		if x.Type() == TNull {
			settle(r.unify(p, "IN", in.List), x)
		}
		return in
	case g.IsNull != nil:
		return r.isNullPred(x, g.IsNull, c)
	case g.Like != nil:
		p := pos(g.Like.Pos)
		settle(TString, x)
		if x.Type() != TString {
			r.fail(x.Pos(), "LIKE needs a STRING operand, got %s", x.Type())
		}
		pat, ok := r.add(g.Like.Pat, c).(*Lit)
		if !ok || pat.T != TString {
			r.fail(pos(g.Like.Pat.Pos), "the LIKE pattern must be a string literal")
		}
		return &Like{P: p, X: x, Pattern: pat.Str, Not: g.Like.Not}
	}
	return x
}

func (r *resolver) comparable(p Pos, op string, a, b Type) {
	if a == TBool || b == TBool {
		r.fail(p, "a condition cannot be used as a value")
	}
	if a == TNull || b == TNull {
		return // the NULL literal compares with anything (to UNKNOWN)
	}
	if !(a.Numeric() && b.Numeric()) && a != b {
		r.fail(p, "mismatched types %s and %s in %s", a, b, op)
	}
}

// binary builds a typed arithmetic or comparison node.
func (r *resolver) binary(p Pos, op string, l, rr Expr) Expr {
	l, rr = r.operand(l), r.operand(rr)
	lt, rt := l.Type(), rr.Type()
	// A NULL literal takes the other operand's type (INT if both are NULL).
	settle(rt, l)
	settle(lt, rr)
	lt, rt = l.Type(), rr.Type()
	switch op {
	case "=", "!=", "<", "<=", ">", ">=":
		r.comparable(p, op, lt, rt)
		return &Binary{P: p, Op: op, L: l, R: rr, T: TBool}
	}
	if lt == TBool || rt == TBool {
		r.fail(p, "a condition cannot be used as a value")
	}
	if !lt.Numeric() || !rt.Numeric() {
		r.fail(p, "operator %s needs numeric operands, got %s and %s", op, lt, rt)
	}
	if op == "%" && !r.sql {
		r.fail(p, "operator %% is not supported in the dbtoaster dialect (use -dialect sql)")
	}
	t := TFloat
	if (op != "/" || r.sql) && lt == TInt && rt == TInt {
		t = TInt // dialect sql: INT / INT truncates, as SQLite and PostgreSQL do
	}
	return &Binary{P: p, Op: op, L: l, R: rr, T: t}
}

func (r *resolver) add(g *gAdd, c ctx) Expr {
	e := r.mul(g.Left, c)
	for _, arm := range g.Right {
		p := pos(arm.Pos)
		if u := arm.X.unary(); u != nil && u.Prim != nil && u.Prim.Interval != nil {
			e = r.dateAdd(p, arm.Op, e, u.Prim.Interval)
			continue
		}
		e = r.binary(p, arm.Op, e, r.mul(arm.X, c))
	}
	return e
}

// dateAdd normalizes d ± INTERVAL 'n' unit to DATE_ADD(d, ±n, unit), folded
// to a literal when d is one.
func (r *resolver) dateAdd(p Pos, op string, d Expr, iv *gInterval) Expr {
	if d.Type() != TDate {
		r.fail(p, "INTERVAL needs a DATE left operand, got %s", d.Type())
	}
	n, err := strconv.ParseInt(strings.TrimSpace(unquote(iv.N)), 10, 32)
	if err != nil {
		r.fail(pos(iv.Pos), "INTERVAL needs an integer count, got %s", iv.N)
	}
	unit := strings.TrimSuffix(iv.Unit, "S")
	if unit != "DAY" && unit != "MONTH" && unit != "YEAR" {
		r.fail(pos(iv.Pos), "unknown INTERVAL unit %s (want DAY, MONTH or YEAR)", iv.Unit)
	}
	if op == "-" {
		n = -n
	}
	if l, ok := d.(*Lit); ok {
		return &Lit{P: l.P, T: TDate, Date: addDate(l.Date, n, unit)}
	}
	return &Call{P: p, Name: "DATE_ADD", T: TDate, Args: []Expr{d,
		&Lit{P: pos(iv.Pos), T: TInt, Int: n},
		&Lit{P: pos(iv.Pos), T: TString, Str: unit}}}
}

func addDate(d rt.Date, n int64, unit string) rt.Date {
	switch unit {
	case "DAY":
		return d.AddDays(n)
	case "MONTH":
		return d.AddMonths(n)
	}
	return d.AddYears(n)
}

func (r *resolver) mul(g *gMul, c ctx) Expr {
	e := r.concat(g.Left, c)
	for _, arm := range g.Right {
		e = r.binary(pos(arm.Pos), arm.Op, e, r.concat(arm.X, c))
	}
	return e
}

func (r *resolver) unary(g *gUnary, c ctx) Expr {
	if g.Plus != nil {
		x := r.operand(r.unary(g.Plus, c))
		settle(TInt, x)
		if !x.Type().Numeric() {
			r.fail(pos(g.Pos), "unary + needs a numeric operand, got %s", x.Type())
		}
		return x
	}
	if g.Neg == nil {
		return r.prim(g.Prim, c)
	}
	p := pos(g.Pos)
	x := r.operand(r.unary(g.Neg, c))
	settle(TInt, x)
	if l, ok := x.(*Lit); ok && l.Null {
		return l // -NULL is NULL
	}
	if !x.Type().Numeric() {
		r.fail(p, "unary - needs a numeric operand, got %s", x.Type())
	}
	// Fold negative literals so that -1 is a literal, as users read it.
	if l, ok := x.(*Lit); ok {
		if l.T == TInt {
			return &Lit{P: p, T: TInt, Int: -l.Int}
		}
		return &Lit{P: p, T: TFloat, Float: -l.Float}
	}
	return &Unary{P: p, Op: "-", X: x, T: x.Type()}
}

func (r *resolver) prim(g *gPrim, c ctx) Expr {
	p := pos(g.Pos)
	switch {
	case g.Float != nil:
		f, err := strconv.ParseFloat(*g.Float, 64)
		if err != nil {
			r.fail(p, "invalid number %s", *g.Float)
		}
		return &Lit{P: p, T: TFloat, Float: f}
	case g.Int != nil:
		n, err := strconv.ParseInt(*g.Int, 10, 64)
		if err != nil {
			r.fail(p, "integer %s out of range", *g.Int)
		}
		return &Lit{P: p, T: TInt, Int: n}
	case g.Str != nil:
		return &Lit{P: p, T: TString, Str: unquote(*g.Str)}
	case g.Null:
		r.noNulls(p, "NULL")
		return nullLit(p)
	case g.DateLit != nil:
		return r.dateLit(p, unquote(*g.DateLit))
	case g.Interval != nil:
		r.fail(p, "INTERVAL is only allowed as the right operand of + or - with a DATE left operand")
	case g.Case != nil:
		return r.caseExpr(g.Case, c)
	case g.Exists != nil:
		return &Exists{P: p, Q: r.subquery(g.Exists, c)}
	case g.Sub != nil:
		q := r.subquery(g.Sub, c)
		r.oneColumn(q, p)
		t := q.Items[0].Expr.Type()
		return &Subquery{P: p, Q: q, T: t, Null: r.sql && scalarNull(q)}
	case g.Paren != nil:
		return r.expr(g.Paren, c)
	case g.Call != nil:
		return r.call(g.Call, c)
	case g.Col != nil:
		qual, name := "", g.Col.First
		if g.Col.Second != "" {
			qual, name = g.Col.First, g.Col.Second
		}
		ref, err := r.lookup(c.sc, p, qual, name)
		if err != nil {
			panic(bailout{err})
		}
		return ref
	}
	r.fail(p, "unsupported expression")
	return nil
}

func (r *resolver) dateLit(p Pos, s string) *Lit {
	// The runtime's check, so that literals and data accept the same dates.
	d, err := rt.ParseDate([]byte(s))
	switch err {
	case nil:
	case rt.ErrDateInvalid:
		r.fail(p, "invalid date %q (no such day: dates run from 0001-01-01 to 9999-12-31)", s)
	default:
		r.fail(p, "invalid date %q (want yyyy-mm-dd)", s)
	}
	return &Lit{P: p, T: TDate, Date: d}
}

func (r *resolver) subquery(g *gUnion, c ctx) *Query {
	// In an expression a subquery's rows are only tested for presence (IN,
	// EXISTS, SOME/ALL) or it has one row (a scalar subquery): DISTINCT
	// changes nothing, and needs no rewriting.
	return r.unionOf(g, c.sc, "", func(q *Query) *Query { return q })
}

func (r *resolver) oneColumn(q *Query, p Pos) {
	if len(q.Items) != 1 {
		r.fail(p, "subquery must return exactly one column, not %d", len(q.Items))
	}
}

func (r *resolver) caseExpr(g *gCase, c ctx) Expr {
	ce := &Case{P: pos(g.Pos)}
	var subj Expr
	if g.Subject != nil {
		subj = r.expr(g.Subject, c)
		subj = r.value(subj)
	}
	var results []Expr
	for _, w := range g.Whens {
		cond := r.expr(w.Cond, c)
		if subj != nil {
			cond = r.binary(pos(w.Pos), "=", subj, cond)
		} else {
			r.cond(cond, "WHEN")
		}
		th := r.expr(w.Then, c)
		th = r.value(th)
		results = append(results, th)
		ce.Whens = append(ce.Whens, &When{Cond: cond, Then: th})
	}
	switch {
	case g.Else != nil:
		ce.Else = r.expr(g.Else, c)
		ce.Else = r.value(ce.Else)
		results = append(results, ce.Else)
	case r.sql:
		ce.Else = nullLit(ce.P) // CASE without ELSE is NULL when no arm holds
		results = append(results, ce.Else)
	}
	ce.T = settledType(r.unify(ce.P, "CASE", results))
	settle(ce.T, results...)
	return ce
}

// unify gives the common type of CASE results or LISTMIN/LISTMAX arguments:
// INT and FLOAT mix to FLOAT; otherwise all must be the same type.
func (r *resolver) unify(p Pos, what string, es []Expr) Type {
	t := es[0].Type()
	for _, e := range es[1:] {
		u := e.Type()
		switch {
		case t == u, u == TNull:
		case t == TNull:
			t = u
		case t.Numeric() && u.Numeric():
			t = TFloat
		default:
			r.fail(e.Pos(), "%s mixes %s and %s", what, t, u)
		}
	}
	return t
}

// walkExpr calls fn on e and its subexpressions in preorder, including those
// of subqueries (depth counts the subquery nesting relative to e's query).
// fn returns false to skip the children of e.
func walkExpr(e Expr, depth int, fn func(e Expr, depth int) bool) {
	if e == nil || !fn(e, depth) {
		return
	}
	w := func(x Expr) { walkExpr(x, depth, fn) }
	switch e := e.(type) {
	case *Unary:
		w(e.X)
	case *Binary:
		w(e.L)
		w(e.R)
	case *Like:
		w(e.X)
	case *IsNull:
		w(e.X)
	case *InList:
		w(e.X)
		for _, x := range e.List {
			w(x)
		}
	case *Case:
		for _, wh := range e.Whens {
			w(wh.Cond)
			w(wh.Then)
		}
		w(e.Else)
	case *Call:
		for _, x := range e.Args {
			w(x)
		}
	case *Agg:
		w(e.Arg)
	case *Subquery:
		walkQuery(e.Q, depth+1, fn)
	case *Exists:
		walkQuery(e.Q, depth+1, fn)
	case *InQuery:
		w(e.X)
		walkQuery(e.Q, depth+1, fn)
	case *Quantified:
		w(e.X)
		walkQuery(e.Q, depth+1, fn)
	}
}

// WalkQuery calls fn on every expression of q and its subqueries (derived
// tables, union branches, nested subqueries) in preorder; depth counts the
// query nesting below q. fn returns false to skip an expression's children.
func WalkQuery(q *Query, fn func(e Expr, depth int) bool) { walkQuery(q, 0, fn) }

// walkQuery applies walkExpr to every expression of q, whose depth is depth.
func walkQuery(q *Query, depth int, fn func(e Expr, depth int) bool) {
	for _, b := range q.Union {
		walkQuery(b, depth, fn)
	}
	for _, f := range q.From {
		if f.Sub != nil {
			walkQuery(f.Sub, depth+1, fn)
		}
	}
	for _, j := range q.Joins {
		walkJoin(j, depth, fn)
	}
	walkExpr(q.Where, depth, fn)
	for _, g := range q.GroupBy {
		walkExpr(g, depth, fn)
	}
	walkExpr(q.Having, depth, fn)
	if len(q.Union) == 0 {
		for _, it := range q.Items {
			walkExpr(it.Expr, depth, fn)
		}
	}
}
