package lang

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
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
	// nestedWindows are the window functions of the derived tables of the
	// query being resolved, which foldQualify must absorb.
	nestedWindows []*Agg
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
	var keys []*gTableKey
	for _, e := range c.Elems {
		cd := e.Col
		if cd == nil {
			keys = append(keys, e.Key)
			continue
		}
		if seen[cd.Name] {
			r.fail(pos(cd.Pos), "duplicate column %s in %s", cd.Name, rel.Name)
		}
		seen[cd.Name] = true
		rel.Columns = append(rel.Columns, &Column{Pos: pos(cd.Pos), Name: cd.Name, Label: r.written(cd.Pos, cd.Name), Type: r.typ(cd.Type), Nullable: r.nullable(cd.NullPos)})
		if cd.Key != nil {
			keys = append(keys, &gTableKey{Pos: cd.Key.Pos, Cols: []*gKeyCol{{Pos: cd.Pos, Name: cd.Name}}})
		}
	}
	r.primaryKey(rel, keys)
	if s := c.Source; s != nil {
		rel.Source = r.source(s)
	}
	r.rels[rel.Name] = rel
	r.file.Relations = append(r.file.Relations, rel)
}

// primaryKey sets rel's primary key from its PRIMARY KEY constraints (at
// most one, on a column or the table).
func (r *resolver) primaryKey(rel *Relation, keys []*gTableKey) {
	if len(keys) > 1 {
		r.fail(pos(keys[1].Pos), "%s has more than one PRIMARY KEY", rel.Name)
	}
	if len(keys) == 0 {
		return
	}
	for _, kc := range keys[0].Cols {
		i := slices.IndexFunc(rel.Columns, func(c *Column) bool { return c.Name == kc.Name })
		switch {
		case i < 0:
			r.fail(pos(kc.Pos), "PRIMARY KEY: %s has no column %s", rel.Name, kc.Name)
		case slices.Contains(rel.Key, i):
			r.fail(pos(kc.Pos), "PRIMARY KEY: column %s is listed twice", kc.Name)
		default:
			// As in SQL, a key column is NOT NULL.
			rel.Key = append(rel.Key, i)
			rel.Columns[i].Nullable = false
		}
	}
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
	// windowArg: resolving the aggregate of a window, whose argument may
	// hold the query's aggregates (a window over groups: SUM(SUM(x)) OVER).
	windowArg bool
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
	// QUALIFY (qualify.go)
	if g.Qualify != nil {
		// A grouped query's filter may read its aggregates too.
		c := r.expr(g.Qualify, ctx{sc: sc, clause: "QUALIFY", aggOK: sc.hasAgg || len(q.GroupBy) > 0 || q.Having != nil})
		r.cond(c, "QUALIFY")
		if sc.window == nil {
			r.fail(c.Pos(), "QUALIFY needs a window function in the query")
		}
		q.Qualify = c
	}
	for _, o := range g.OrderBy {
		q.OrderBy = append(q.OrderBy, r.orderItem(o, q, sc))
	}
	r.checkWindows(q, sc.window)
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
	r.nestedWindows = nil
	q := r.foldQualify(r.union(g, nil, name))
	if len(r.nestedWindows) > 0 {
		r.fail(r.nestedWindows[0].P, "a window function in a subquery or derived table is not supported yet (but in a derived table that the view's query selects from and filters: SELECT … FROM (SELECT …, RANK() OVER (…) AS r FROM …) AS t WHERE r <= 3)")
	}
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

// Referenced returns the names of the relations that f's queries read,
// in FROM lists at any depth.
func (f *File) Referenced() map[string]bool {
	out := map[string]bool{}
	var visit func(q *Query)
	visit = func(q *Query) {
		for _, b := range q.Union {
			visit(b)
		}
		for _, it := range q.From {
			if it.Rel != nil {
				out[it.Rel.Name] = true
			}
			if it.Sub != nil {
				visit(it.Sub)
			}
		}
		walkQuery(q, 0, func(e Expr, depth int) bool {
			switch x := e.(type) {
			case *Subquery:
				visit(x.Q)
			case *Exists:
				visit(x.Q)
			case *InQuery:
				visit(x.Q)
			case *Quantified:
				visit(x.Q)
			}
			return true
		})
	}
	for _, q := range f.Queries {
		visit(q)
	}
	return out
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
	walkExpr(q.Qualify, depth, fn)
	if len(q.Union) == 0 {
		for _, it := range q.Items {
			walkExpr(it.Expr, depth, fn)
		}
	}
}
