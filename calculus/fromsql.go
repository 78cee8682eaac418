package calculus

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// errorAt reports an unsupported construct at p.
func errorAt(p lang.Pos, format string, args ...any) error {
	return &lang.Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// fromSQL translates every query of a resolved file (see FromSQL).
func fromSQL(f *lang.File) ([]*Query, error) {
	var out []*Query
	for _, q := range f.Queries {
		cq, err := translate(q, f.Dialect == lang.SQL)
		if err != nil {
			if le, ok := err.(*lang.Error); ok && le.Line == "" {
				err = f.Errorf(le.Pos, "%s", le.Msg) // add the source line and caret
			}
			return nil, err
		}
		out = append(out, cq)
	}
	return out, nil
}

// translator holds the variables of one top-level query and its subqueries.
// Column equalities are unified (union–find); the representative of a class
// is its oldest variable, so that variables already used by enclosing
// blocks keep their names.
type translator struct {
	parent map[string]string
	byName map[string]Var
	order  map[string]int
	used   map[string]bool
	count  map[string]int // column name → occurrences in the whole query tree
	// present holds, for a variable that may be NULL, the condition under
	// which it has a value (nullable.go).
	present map[string]lang.Expr
	// flagOf holds the presence flag of a base relation's nullable column
	// variable (EventVars).
	flagOf map[string]Var
	// keyFlag holds, for a variable whose value is its type's zero wherever
	// it is NULL, the 0/1 flag whose non-zero is its presence: a base
	// column's flag, a padded item's row flag, a nullColumn's p. Such a
	// pair is a NULL-aware key as it stands (nullColumn).
	keyFlag map[string]Var
	// sql: the file is read in dialect sql (an aggregate over no input is
	// NULL, NULLs come with the data, view columns may be NULL).
	sql bool
}

// block is one SELECT of the query tree.
type block struct {
	t     *translator
	up    *block
	q     *lang.Query
	vars  [][]Var // per FROM item, per column: its variable before unification
	flags [][]Var // per FROM item: the presence flags of its nullable columns (EventVars)
	rows  []Term  // relation atoms and derived-table rows
	conds []Term  // nested lifts and conditions
	start int     // variables created from here on belong to this block
}

// freshCopy renames the variables that belong to block b (all but keep) in
// a term, so that two aggregates over the same body do not share local
// variables.
func (b *block) freshCopy(x Term, keep []Var) Term {
	sub := map[string]lang.Expr{}
	for _, v := range Vars(x) {
		if b.t.order[v.Name] >= b.start && !hasVar(keep, v.Name) {
			base := strings.TrimRight(v.Name, "0123456789")
			sub[v.Name] = Ref(b.t.newVar(base, v.Type))
		}
	}
	return SubstTerm(x, sub)
}

func (t *translator) newVar(base string, typ lang.Type) Var {
	n := base
	for i := 2; t.used[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	t.used[n] = true
	v := Var{Name: n, Type: typ}
	t.parent[n] = n
	t.byName[n] = v
	t.order[n] = len(t.order)
	return v
}

func (t *translator) find(n string) string {
	for t.parent[n] != n {
		n = t.parent[n]
	}
	return n
}

func (t *translator) union(a, b string) {
	a, b = t.find(a), t.find(b)
	if a == b {
		return
	}
	if t.order[b] < t.order[a] {
		a, b = b, a
	}
	t.parent[b] = a
}

func (t *translator) resolve(v Var) Var { return t.byName[t.find(v.Name)] }

// unify merges the classes of two variables for an equality of block b,
// unless both classes already hold a variable of an enclosing block (the
// representative of a class is its oldest variable, so such a class has a
// representative older than the block): merging them would make the
// equality filter the outer rows, where it belongs inside this block
// (t.C = s.B AND t.C = s.C in a subquery tests s.B = s.C per outer row, it
// does not turn S(b, c) into S(b, b)). unify reports whether it merged; if
// not, the caller keeps the equality as a condition.
func (b *block) unify(x, y Var) bool {
	rx, ry := b.t.find(x.Name), b.t.find(y.Name)
	if rx != ry && b.t.order[rx] < b.start && b.t.order[ry] < b.start {
		return false
	}
	b.t.union(rx, ry)
	return true
}

// hasCond reports whether the block already has condition c.
func (b *block) hasCond(c lang.Expr) bool {
	k := ExprString(c)
	for _, x := range b.conds {
		if v, ok := x.(*Val); ok && ExprString(v.E) == k {
			return true
		}
	}
	return false
}

// unifyEqual unifies the columns of an equality l = r of a WHERE conjunct,
// if it can. Columns that cannot be NULL are unified as they are. A base
// relation's nullable column (a value and a presence flag, EventVars) is
// unified too, by its value, under the guard that its flag is 1, so NULL
// never joins. The flags of two such columns stay apart, each guarded:
// a guard over one relation's flag alone goes into the maps of that
// relation (viewlet), so the join's maps are keyed by the value only and
// the tuples whose key is NULL, which never join, are not in them. Any
// other column that may be NULL (a derived table's) is not unified: the
// condition says that NULL = x is not TRUE (truth).
func (b *block) unifyEqual(l, r *lang.ColRef) bool {
	t := b.t
	if b.padded(l) || b.padded(r) {
		return false
	}
	lv, rv := b.colVar(l.Outer, l.From, l.Col), b.colVar(r.Outer, r.From, r.Col)
	lf, lflag := t.flagOf[lv.Name]
	rf, rflag := t.flagOf[rv.Name]
	ln, rn := b.nullableCol(l), b.nullableCol(r)
	if (ln && !lflag) || (rn && !rflag) {
		return false
	}
	if !b.unify(lv, rv) {
		return false
	}
	if !ln && !rn {
		return true
	}
	for _, f := range []struct {
		null bool
		flag Var
	}{{ln, lf}, {rn, rf}} {
		if f.null {
			b.conds = append(b.conds, &Val{E: countTest(t.resolve(f.flag), true)})
		}
	}
	return true
}

// countColumns counts column names over a query tree, to name variables.
func countColumns(q *lang.Query, count map[string]int) {
	for _, u := range q.Union {
		countColumns(u, count)
	}
	for _, fi := range q.From {
		if fi.Rel != nil {
			for _, c := range fi.Rel.Columns {
				count[c.Name]++
			}
		} else {
			countColumns(fi.Sub, count)
		}
	}
	visit := func(e lang.Expr) {
		walkLang(e, func(x lang.Expr) {
			switch s := x.(type) {
			case *lang.Subquery:
				countColumns(s.Q, count)
			case *lang.Exists:
				countColumns(s.Q, count)
			case *lang.InQuery:
				countColumns(s.Q, count)
			case *lang.Quantified:
				countColumns(s.Q, count)
			}
		})
	}
	visit(q.Where)
	visit(q.Having)
	for _, it := range q.Items {
		visit(it.Expr)
	}
}

func (b *block) colVar(outer, from, col int) Var {
	for ; outer > 0; outer-- {
		b = b.up
	}
	return b.t.resolve(b.vars[from][col])
}

func (b *block) body() []Term {
	out := make([]Term, 0, len(b.rows)+len(b.conds))
	for _, r := range b.rows {
		out = append(out, b.t.rename(r))
	}
	for _, c := range b.conds {
		out = append(out, b.t.rename(c))
	}
	return out
}

// rename applies the unification to a term built before it was complete.
func (t *translator) rename(x Term) Term {
	sub := map[string]lang.Expr{}
	for _, v := range Vars(x) {
		if r := t.resolve(v); r.Name != v.Name {
			sub[v.Name] = Ref(r)
		}
	}
	return SubstTerm(x, sub)
}

// newBlock translates the FROM and WHERE clauses of q.
func (t *translator) newBlock(q *lang.Query, up *block) (*block, error) {
	b := &block{t: t, up: up, q: q, start: len(t.order)}
	if len(q.Union) > 0 {
		return b, nil // rowsOf translates the branches
	}
	for _, fi := range q.From {
		if fi.Sub != nil {
			b.vars = append(b.vars, nil) // filled below, once the derived table is translated
			b.flags = append(b.flags, nil)
			continue
		}
		var vs, flags []Var
		for _, c := range fi.Rel.Columns {
			n := strings.ToLower(c.Name)
			if t.count[c.Name] > 1 {
				n = strings.ToLower(fi.Alias) + "_" + n
			}
			v := t.newVar(n, c.Type)
			vs = append(vs, v)
			if c.Nullable {
				// The column's value (its type's zero where NULL) and its
				// presence flag (EventVars): NULL is never held.
				p := t.newVar(PresenceName(n), lang.TInt)
				flags = append(flags, p)
				t.setPresent(v, countTest(p, true))
				if t.flagOf == nil {
					t.flagOf = map[string]Var{}
				}
				t.flagOf[v.Name] = p
				t.setKeyFlag(v, p)
			}
		}
		b.vars = append(b.vars, vs)
		b.flags = append(b.flags, flags)
	}
	// The items of outer joins' trees give their rows to the trees.
	inTree := map[int]bool{}
	for _, j := range q.Joins {
		for _, i := range j.Items() {
			inTree[i] = true
		}
	}
	itemRows := map[int][]Term{}
	for i, fi := range q.From {
		if fi.Sub == nil {
			continue
		}
		out, rows, err := b.derived(fi.Sub, fi.Alias)
		if err != nil {
			return nil, err
		}
		b.vars[i] = out
		if inTree[i] {
			itemRows[i] = rows
			continue
		}
		b.rows = append(b.rows, rows...)
	}
	rowFlags := b.padItems(q)
	// Unify column equalities; keep the other conjuncts as conditions. A
	// disjunction's common conjuncts are conjuncts too (TPC-H Q19's
	// p_partkey = l_partkey in each of its three branches: a join).
	var conds []lang.Expr
	for _, c := range SplitConjuncts(q.Where, lang.ExprKey) {
		if x, ok := c.(*lang.Binary); ok && x.Op == "=" {
			l, lok := x.L.(*lang.ColRef)
			r, rok := x.R.(*lang.ColRef)
			if lok && rok && l.T == r.T && (l.Outer == 0 || r.Outer == 0) && b.unifyEqual(l, r) {
				continue
			}
		}
		conds = append(conds, c)
	}
	for i, fi := range q.From {
		if fi.Rel != nil {
			r := &Rel{Name: fi.Rel.Name, Vars: append(append([]Var{}, b.vars[i]...), b.flags[i]...)}
			if inTree[i] {
				itemRows[i] = []Term{r}
				continue
			}
			b.rows = append(b.rows, r)
		}
	}
	for _, j := range q.Joins {
		x, err := b.joinTerm(j, func(i int) []Term {
			if row, ok := rowFlags[i]; ok {
				return append(itemRows[i], &Lift{V: row, T: &Val{E: IntLit(1)}})
			}
			return itemRows[i]
		})
		if err != nil {
			return nil, err
		}
		b.rows = append(b.rows, x)
	}
	for _, c := range conds {
		e, lifts, err := b.scalar(c)
		if err != nil {
			return nil, err
		}
		b.conds = append(b.conds, lifts...)
		// Each conjunct is a factor of its own (a presence guard apart
		// from the comparison it guards, so that the comparison can still
		// become a range read), once.
		for _, c := range conjuncts(b.t.truth(e)) {
			if !b.hasCond(c) {
				b.conds = append(b.conds, &Val{E: c})
			}
		}
	}
	return b, nil
}

// scalar translates an expression of this block: columns become variables
// and subqueries become lifted variables, whose Lift factors are returned.
func (b *block) scalar(e lang.Expr) (lang.Expr, []Term, error) {
	var lifts []Term
	var err error
	var rewrite func(e lang.Expr) lang.Expr
	rewrite = func(e lang.Expr) lang.Expr {
		if err != nil || e == nil {
			return e
		}
		switch x := e.(type) {
		case *lang.ColRef:
			return Ref(b.colVar(x.Outer, x.From, x.Col))
		case *lang.Agg:
			err = errorAt(x.P, "aggregate %s is not allowed here", x.Fn)
			return e
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			var r lang.Expr
			var ls []Term
			r, ls, err = b.subquery(x)
			lifts = append(lifts, ls...)
			return r
		}
		return mapChildren(e, rewrite)
	}
	out := rewrite(e)
	return out, lifts, err
}

// subquery translates a subquery expression into a lifted variable:
// a scalar subquery's value, or for EXISTS, IN and SOME/ALL the number of
// qualifying rows, compared with 0.
func (b *block) subquery(e lang.Expr) (lang.Expr, []Term, error) {
	t := b.t
	switch x := e.(type) {
	case *lang.Subquery:
		inner, err := t.newBlock(x.Q, b)
		if err != nil {
			return nil, nil, err
		}
		if len(x.Q.From) == 0 && len(x.Q.Union) == 0 && !x.Q.Aggregated() && x.Q.Where == nil {
			// A constant subquery, (SELECT 1) or (SELECT r.A + 1): its one
			// row's value.
			return inner.scalar(x.Q.Items[0].Expr)
		}
		if !x.Q.Aggregated() {
			return nil, nil, errorAt(x.P, "a scalar subquery must be an aggregate (not supported yet otherwise: it could return several rows)")
		}
		if len(x.Q.GroupBy) > 0 || x.Q.Having != nil {
			return b.groupedScalar(x, inner)
		}
		body := inner.body()
		return inner.aggregates(x.Q.Items[0].Expr, func(factors ...Term) Term {
			return inner.freshCopy(&AggSum{T: prod(append(append([]Term{}, body...), factors...))}, nil)
		})
	case *lang.Exists:
		c, terms, err := b.countRows(x.Q, nil)
		if err != nil {
			return nil, nil, err
		}
		return countTest(c, !x.Not), terms, nil
	case *lang.InQuery:
		xe, lifts, err := b.scalar(x.X)
		if err != nil {
			return nil, nil, err
		}
		c, terms, err := b.countRows(x.Q, func(y lang.Expr) lang.Expr {
			return &lang.Binary{Op: "=", L: xe, R: y, T: lang.TBool}
		})
		if err != nil {
			return nil, nil, err
		}
		return countTest(c, !x.Not), append(lifts, terms...), nil
	case *lang.Quantified:
		xe, lifts, err := b.scalar(x.X)
		if err != nil {
			return nil, nil, err
		}
		c, terms, err := b.countRows(x.Q, func(y lang.Expr) lang.Expr {
			cmp := &lang.Binary{Op: x.Op, L: xe, R: y, T: lang.TBool}
			if x.All {
				return &lang.Unary{Op: "NOT", X: cmp, T: lang.TBool}
			}
			return cmp
		})
		if err != nil {
			return nil, nil, err
		}
		// SOME: some row satisfies; ALL: no row fails.
		return countTest(c, !x.All), append(lifts, terms...), nil
	}
	return nil, nil, errorAt(e.Pos(), "unsupported subquery")
}

func countTest(c Var, nonZero bool) lang.Expr {
	op := "="
	if nonZero {
		op = "!="
	}
	return &lang.Binary{Op: op, L: Ref(c), R: IntLit(0), T: lang.TBool}
}

// countRows returns a variable lifted to the number of rows of q that
// satisfy test(first select item) (all rows when test is nil), and the
// factors that lift it.
func (b *block) countRows(q *lang.Query, test func(lang.Expr) lang.Expr) (Var, []Term, error) {
	inner, err := b.t.newBlock(q, b)
	if err != nil {
		return Var{}, nil, err
	}
	items, rows, err := inner.rowsOf()
	if err != nil {
		return Var{}, nil, err
	}
	if test == nil {
		c := b.t.newVar("count", lang.TInt)
		return c, []Term{&Lift{V: c, T: &AggSum{T: prod(rows)}}}, nil
	}
	e, lifts, err := inner.scalarOver(test(items[0]))
	if err != nil {
		return Var{}, nil, err
	}
	rows = append(rows, lifts...)
	c := b.t.newVar("count", lang.TInt)
	if !b.t.nullable(e) {
		return c, []Term{&Lift{V: c, T: &AggSum{T: prod(append(rows, &Val{E: e}))}}}, nil
	}
	// A test that may be NULL: c counts the rows where it is TRUE, n those
	// where it is not FALSE. Some row passes where c != 0, none where n = 0,
	// and SQL does not know otherwise: c may be NULL (IN over a NULL, or
	// over rows that are NULL, is NULL unless a row matches).
	n := b.t.newVar("count", lang.TInt)
	b.t.setPresent(c, orExpr(countTest(c, true), countTest(n, false)))
	// The two sums get their own local variables: they are two factors.
	return c, []Term{
		&Lift{V: n, T: inner.freshCopy(&AggSum{T: prod(append(append([]Term{}, rows...), &Val{E: notExpr(b.t.falsity(e))}))}, nil)},
		&Lift{V: c, T: &AggSum{T: prod(append(rows, &Val{E: b.t.truth(e)}))}},
	}, nil
}

// scalarOver translates an expression already over variables (from rowsOf)
// that may still hold columns of this block.
func (b *block) scalarOver(e lang.Expr) (lang.Expr, []Term, error) { return b.scalar(e) }

// rowsOf returns the factors whose product is the multiplicity of each row
// of the block's query, and the query's select items as expressions over
// the variables those factors bind.
func (b *block) rowsOf() ([]lang.Expr, []Term, error) {
	q := b.q
	if len(q.Union) > 0 {
		return b.unionRows()
	}
	if !q.Aggregated() {
		var items []lang.Expr
		var lifts []Term
		for _, it := range q.Items {
			e, ls, err := b.scalar(it.Expr)
			if err != nil {
				return nil, nil, err
			}
			items = append(items, e)
			lifts = append(lifts, ls...)
		}
		rows := append(b.body(), lifts...)
		if !q.Distinct {
			return items, rows, nil
		}
		// Each distinct row once: the items become distinct variables.
		var out []Var
		for i, e := range items {
			if b.t.nullable(e) {
				var v, p Var
				v, p, rows = b.nullColumn("distinct_"+q.Items[i].Name, e, rows, out)
				out = append(out, v, p)
				items[i] = Ref(v)
				continue
			}
			if r, ok := e.(*VarRef); ok && !hasVar(out, r.V.Name) {
				out = append(out, r.V)
				continue
			}
			v := b.t.newVar(strings.ToLower("distinct_"+q.Items[i].Name), e.Type())
			rows = append(rows, &Lift{V: v, T: &Val{E: e}})
			out = append(out, v)
			items[i] = Ref(v)
		}
		return items, []Term{&Exists{T: &AggSum{Group: out, T: prod(rows)}}}, nil
	}
	// A grouped query: one row per group with a non-zero row count.
	body := b.body()
	var group []Var
	keyOf := map[string]Var{}
	for _, g := range q.GroupBy {
		e, lifts, err := b.scalar(g)
		if err != nil {
			return nil, nil, err
		}
		body = append(body, lifts...)
		if b.t.nullable(e) {
			// NULL is a group of its own, apart from the key's zero.
			var v, p Var
			v, p, body = b.nullColumn("key", e, body, group)
			group = append(group, v, p)
			keyOf[ExprString(e)] = v
			keyOf[sqlKey(g)] = v
			continue
		}
		var v Var
		if r, ok := e.(*VarRef); ok {
			v = r.V
		} else {
			v = b.t.newVar("key", g.Type())
			body = append(body, &Lift{V: v, T: &Val{E: e}})
		}
		group = append(group, v)
		keyOf[ExprString(e)] = v
		keyOf[sqlKey(g)] = v
	}
	agg := func(factors ...Term) Term {
		return b.freshCopy(&AggSum{Group: group, T: prod(append(append([]Term{}, body...), factors...))}, group)
	}
	rows := []Term{&Exists{T: agg()}}
	if len(group) == 0 {
		// An aggregate without GROUP BY has exactly one row, over empty
		// input too (its aggregates are then 0): `SELECT COUNT(*) FROM
		// (SELECT SUM(b) FROM S) d` is 1 whatever S holds.
		rows = nil
	}
	var items []lang.Expr
	for _, it := range q.Items {
		e, lifts, err := b.readout(it.Expr, keyOf, agg)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, lifts...)
		items = append(items, e)
	}
	if q.Having != nil {
		e, lifts, err := b.readout(q.Having, keyOf, agg)
		if err != nil {
			return nil, nil, err
		}
		rows = append(append(rows, lifts...), &Val{E: e})
	}
	return items, rows, nil
}

// readout translates an expression over group keys and aggregates of a
// grouped subquery: aggregates become lifted variables.
func (b *block) readout(e lang.Expr, keyOf map[string]Var, agg func(...Term) Term) (lang.Expr, []Term, error) {
	var lifts []Term
	var err error
	var rewrite func(e lang.Expr) lang.Expr
	rewrite = func(e lang.Expr) lang.Expr {
		if err != nil {
			return e
		}
		if !containsAgg(e) {
			// A group key as written: translating it again would lift its
			// subqueries afresh, outside the group.
			if v, ok := keyOf[sqlKey(e)]; ok {
				return Ref(v)
			}
			se, ls, err2 := b.scalar(e)
			if err2 != nil {
				err = err2
				return e
			}
			if v, ok := keyOf[ExprString(se)]; ok {
				return Ref(v)
			}
			lifts = append(lifts, ls...)
			return se
		}
		if a, ok := e.(*lang.Agg); ok {
			r, ls, err2 := b.aggregates(a, agg)
			if err2 != nil {
				err = err2
				return e
			}
			lifts = append(lifts, ls...)
			return r
		}
		return mapChildren(e, rewrite)
	}
	out := rewrite(e)
	return out, lifts, err
}

// derived translates a subquery in FROM: the variables of its columns and
// the factors giving each row's multiplicity.
func (b *block) derived(q *lang.Query, alias string) ([]Var, []Term, error) {
	inner, err := b.t.newBlock(q, b)
	if err != nil {
		return nil, nil, err
	}
	// inner.up stays b although a derived table does not see its siblings:
	// the resolver hides them but counts b as a level of Outer.
	items, rows, err := inner.rowsOf()
	if err != nil {
		return nil, nil, err
	}
	bag := !q.Aggregated() && !q.Distinct
	var out, group []Var
	for i, e := range items {
		name := strings.ToLower(alias + "_" + q.Items[i].Name)
		if bag && b.t.nullable(e) {
			// The bag sums away what decides e's presence: keep it as a
			// column.
			var v, p Var
			v, p, rows = b.nullColumn(name, e, rows, group)
			out, group = append(out, v), append(group, v, p)
			continue
		}
		if r, ok := e.(*VarRef); ok && !hasVar(out, r.V.Name) {
			out, group = append(out, r.V), append(group, r.V)
			continue
		}
		v := b.t.newVar(name, e.Type())
		rows = append(rows, &Lift{V: v, T: &Val{E: b.t.valueOf(e, true)}})
		b.t.setPresent(v, b.t.presence(e))
		out, group = append(out, v), append(group, v)
	}
	if bag {
		// A bag: sum away the columns it does not output (rowsOf did, for
		// a DISTINCT query).
		return out, []Term{&AggSum{Group: group, T: prod(rows)}}, nil
	}
	return out, rows, nil
}

func prod(fs []Term) Term {
	if len(fs) == 1 {
		return fs[0]
	}
	return &Prod{Factors: fs}
}
