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
		cq, err := translate(q)
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
}

// block is one SELECT of the query tree.
type block struct {
	t     *translator
	up    *block
	q     *lang.Query
	vars  [][]Var // per FROM item, per column: its variable before unification
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
			continue
		}
		var vs []Var
		for _, c := range fi.Rel.Columns {
			n := strings.ToLower(c.Name)
			if t.count[c.Name] > 1 {
				n = strings.ToLower(fi.Alias) + "_" + n
			}
			vs = append(vs, t.newVar(n, c.Type))
		}
		b.vars = append(b.vars, vs)
	}
	for i, fi := range q.From {
		if fi.Sub == nil {
			continue
		}
		out, rows, err := b.derived(fi.Sub, fi.Alias)
		if err != nil {
			return nil, err
		}
		b.vars[i] = out
		b.rows = append(b.rows, rows...)
	}
	// Unify column equalities; keep the other conjuncts as conditions.
	var conds []lang.Expr
	for _, c := range conjuncts(q.Where) {
		if x, ok := c.(*lang.Binary); ok && x.Op == "=" {
			l, lok := x.L.(*lang.ColRef)
			r, rok := x.R.(*lang.ColRef)
			if lok && rok && l.T == r.T && (l.Outer == 0 || r.Outer == 0) &&
				b.unify(b.colVar(l.Outer, l.From, l.Col), b.colVar(r.Outer, r.From, r.Col)) {
				continue
			}
		}
		conds = append(conds, c)
	}
	for i, fi := range q.From {
		if fi.Rel != nil {
			b.rows = append(b.rows, &Rel{Name: fi.Rel.Name, Vars: append([]Var{}, b.vars[i]...)})
		}
	}
	for _, c := range conds {
		e, lifts, err := b.scalar(c)
		if err != nil {
			return nil, err
		}
		b.conds = append(b.conds, lifts...)
		b.conds = append(b.conds, &Val{E: e})
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
		if !x.Q.Aggregated() || len(x.Q.GroupBy) > 0 || x.Q.Having != nil {
			return nil, nil, errorAt(x.P, "a scalar subquery must be a single aggregate without GROUP BY or HAVING (not supported yet otherwise)")
		}
		body := inner.body()
		return inner.aggregates(x.Q.Items[0].Expr, func(factors ...Term) Term {
			return inner.freshCopy(&AggSum{T: prod(append(append([]Term{}, body...), factors...))}, nil)
		})
	case *lang.Exists:
		c, term, err := b.countRows(x.Q, nil)
		if err != nil {
			return nil, nil, err
		}
		return countTest(c, !x.Not), []Term{term}, nil
	case *lang.InQuery:
		xe, lifts, err := b.scalar(x.X)
		if err != nil {
			return nil, nil, err
		}
		c, term, err := b.countRows(x.Q, func(y lang.Expr) lang.Expr {
			return &lang.Binary{Op: "=", L: xe, R: y, T: lang.TBool}
		})
		if err != nil {
			return nil, nil, err
		}
		return countTest(c, !x.Not), append(lifts, term), nil
	case *lang.Quantified:
		xe, lifts, err := b.scalar(x.X)
		if err != nil {
			return nil, nil, err
		}
		c, term, err := b.countRows(x.Q, func(y lang.Expr) lang.Expr {
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
		return countTest(c, !x.All), append(lifts, term), nil
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
// satisfy test(first select item) (all rows when test is nil).
func (b *block) countRows(q *lang.Query, test func(lang.Expr) lang.Expr) (Var, Term, error) {
	inner, err := b.t.newBlock(q, b)
	if err != nil {
		return Var{}, nil, err
	}
	items, rows, err := inner.rowsOf()
	if err != nil {
		return Var{}, nil, err
	}
	if test != nil {
		e, lifts, err := inner.scalarOver(test(items[0]))
		if err != nil {
			return Var{}, nil, err
		}
		rows = append(append(rows, lifts...), &Val{E: e})
	}
	c := b.t.newVar("count", lang.TInt)
	return c, &Lift{V: c, T: &AggSum{T: prod(rows)}}, nil
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
		var v Var
		if r, ok := e.(*VarRef); ok {
			v = r.V
		} else {
			v = b.t.newVar("key", g.Type())
			body = append(body, &Lift{V: v, T: &Val{E: e}})
		}
		group = append(group, v)
		keyOf[ExprString(e)] = v
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

// unionRows translates a UNION [ALL]: each branch's rows, with its items
// lifted to shared output variables, summed (bag union); UNION keeps each
// distinct row once.
func (b *block) unionRows() ([]lang.Expr, []Term, error) {
	q := b.q
	var out []Var
	for i, it := range q.Items {
		out = append(out, b.t.newVar(strings.ToLower(fmt.Sprintf("u%d_%s", i+1, it.Name)), it.Expr.Type()))
	}
	var branches []Term
	for _, br := range q.Union {
		inner, err := b.t.newBlock(br, b.up)
		if err != nil {
			return nil, nil, err
		}
		items, rows, err := inner.rowsOf()
		if err != nil {
			return nil, nil, err
		}
		if len(items) != len(out) {
			return nil, nil, errorAt(br.Pos, "UNION branches must have the same number of columns")
		}
		for i, e := range items {
			rows = append(rows, &Lift{V: out[i], T: &Val{E: e}})
		}
		branches = append(branches, prod(rows))
	}
	var t Term = &AggSum{Group: out, T: &Sum{Terms: branches}}
	if !q.UnionAll {
		t = &Exists{T: t}
	}
	items := make([]lang.Expr, len(out))
	for i, v := range out {
		items[i] = Ref(v)
	}
	return items, []Term{t}, nil
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

// aggregates lifts every aggregate of e to a variable: agg(factors) builds
// the aggregate term of a value.
func (b *block) aggregates(e lang.Expr, agg func(...Term) Term) (lang.Expr, []Term, error) {
	var lifts []Term
	var err error
	var rewrite func(e lang.Expr) lang.Expr
	rewrite = func(e lang.Expr) lang.Expr {
		if err != nil {
			return e
		}
		a, ok := e.(*lang.Agg)
		if !ok {
			if !containsAgg(e) {
				se, ls, err2 := b.scalar(e)
				if err2 != nil {
					err = err2
				}
				lifts = append(lifts, ls...)
				return se
			}
			return mapChildren(e, rewrite)
		}
		lift := func(term Term, typ lang.Type) lang.Expr {
			z := b.t.newVar("agg", typ)
			lifts = append(lifts, &Lift{V: z, T: term})
			return Ref(z)
		}
		if a.Distinct {
			r, err2 := b.distinctAggregate(a, agg, lift) // distinctagg.go
			if err2 != nil {
				err = err2
				return e
			}
			return r
		}
		switch a.Fn {
		case "COUNT":
			return lift(agg(), lang.TInt)
		case "SUM", "AVG":
			r, ls, err2 := b.ring(a.Arg)
			if err2 != nil {
				err = err2
				return e
			}
			sum := lift(agg(append(ls, r)...), TypeOf(r))
			if a.Fn == "SUM" {
				return sum
			}
			cnt := lift(agg(), lang.TInt)
			return &lang.Binary{Op: "/", L: sum, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), cnt}, T: lang.TInt}, T: lang.TFloat}
		case "MIN", "MAX":
			v, ls, err2 := b.scalar(a.Arg)
			if err2 != nil {
				err = err2
				return e
			}
			x := b.t.newVar("arg", a.Arg.Type())
			// agg copies its body afresh but must keep x, which the Extreme
			// binds once the copy is made; later copies of the whole term (an
			// enclosing aggregate over a derived table, twice) rename it with
			// the rest, so that no two Extremes share their argument.
			b.t.order[x.Name] = -1
			rows := agg(append(ls, &Lift{V: x, T: &Val{E: v}})...).(*AggSum)
			b.t.order[x.Name] = len(b.t.order)
			rows.Group = append(append([]Var{}, rows.Group...), x)
			return lift(&Extreme{Max: a.Fn == "MAX", Arg: x, T: rows}, a.Arg.Type())
		}
		err = errorAt(a.P, "%s in a subquery is not supported yet", a.Fn)
		return e
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
	var out []Var
	for i, e := range items {
		if r, ok := e.(*VarRef); ok && !hasVar(out, r.V.Name) {
			out = append(out, r.V)
			continue
		}
		v := b.t.newVar(strings.ToLower(alias+"_"+q.Items[i].Name), e.Type())
		rows = append(rows, &Lift{V: v, T: &Val{E: e}})
		out = append(out, v)
	}
	if !q.Aggregated() && !q.Distinct {
		// A bag: sum away the columns it does not output (rowsOf did, for
		// a DISTINCT query).
		return out, []Term{&AggSum{Group: out, T: prod(rows)}}, nil
	}
	return out, rows, nil
}

// mapChildren rebuilds e with f applied to its direct subexpressions.
func mapChildren(e lang.Expr, f func(lang.Expr) lang.Expr) lang.Expr {
	switch x := e.(type) {
	case *lang.Unary:
		y := *x
		y.X = f(x.X)
		return &y
	case *lang.Binary:
		y := *x
		y.L, y.R = f(x.L), f(x.R)
		return &y
	case *lang.Like:
		y := *x
		y.X = f(x.X)
		return &y
	case *lang.InList:
		y := *x
		y.X = f(x.X)
		y.List = make([]lang.Expr, len(x.List))
		for i, l := range x.List {
			y.List[i] = f(l)
		}
		return &y
	case *lang.Case:
		y := *x
		y.Whens = make([]*lang.When, len(x.Whens))
		for i, w := range x.Whens {
			y.Whens[i] = &lang.When{Cond: f(w.Cond), Then: f(w.Then)}
		}
		if x.Else != nil {
			y.Else = f(x.Else)
		}
		return &y
	case *lang.Call:
		y := *x
		y.Args = make([]lang.Expr, len(x.Args))
		for i, a := range x.Args {
			y.Args[i] = f(a)
		}
		return &y
	}
	return e
}

func prod(fs []Term) Term {
	if len(fs) == 1 {
		return fs[0]
	}
	return &Prod{Factors: fs}
}

// ring decomposes a numeric expression into ring operations so that the
// viewlet transform can split its factors between maps. Subqueries in it
// become lifted variables (returned as extra factors).
func (b *block) ring(e lang.Expr) (Term, []Term, error) {
	var lifts []Term
	var rec func(e lang.Expr) (Term, error)
	rec = func(e lang.Expr) (Term, error) {
		// An expression over one relation's columns stays one value: splitting
		// it would only multiply the statements that maintain it.
		if b.fromItems(e) <= 1 {
			se, ls, err := b.scalar(e)
			lifts = append(lifts, ls...)
			return &Val{E: se}, err
		}
		switch x := e.(type) {
		case *lang.Binary:
			switch x.Op {
			case "*", "+", "-":
				l, err := rec(x.L)
				if err != nil {
					return nil, err
				}
				r, err := rec(x.R)
				if err != nil {
					return nil, err
				}
				switch x.Op {
				case "*":
					return &Prod{Factors: []Term{l, r}}, nil
				case "+":
					return &Sum{Terms: []Term{l, r}}, nil
				}
				return &Sum{Terms: []Term{l, &Neg{T: r}}}, nil
			}
		case *lang.Unary:
			if x.Op == "-" {
				t, err := rec(x.X)
				return &Neg{T: t}, err
			}
		case *lang.Case:
			var arms []Term
			var earlier []Term // NOT of every earlier condition
			for _, w := range x.Whens {
				c, ls, err := b.scalar(w.Cond)
				if err != nil {
					return nil, err
				}
				lifts = append(lifts, ls...)
				then, err := rec(w.Then)
				if err != nil {
					return nil, err
				}
				f := append(append([]Term{}, earlier...), &Val{E: c}, then)
				arms = append(arms, &Prod{Factors: f})
				earlier = append(earlier, &Val{E: &lang.Unary{Op: "NOT", X: c, T: lang.TBool}})
			}
			if x.Else != nil {
				el, err := rec(x.Else)
				if err != nil {
					return nil, err
				}
				arms = append(arms, &Prod{Factors: append(earlier, el)})
			}
			return &Sum{Terms: arms}, nil
		}
		se, ls, err := b.scalar(e)
		lifts = append(lifts, ls...)
		return &Val{E: se}, err
	}
	t, err := rec(e)
	return t, lifts, err
}

// fromItems counts the distinct FROM items (of any enclosing block) whose
// columns e reads; a subquery counts as two, so that it is kept apart.
func (b *block) fromItems(e lang.Expr) int {
	seen := map[[2]int]bool{}
	n := 0
	walkExpr(e, func(x lang.Expr) {
		switch c := x.(type) {
		case *lang.ColRef:
			seen[[2]int{c.Outer, c.From}] = true
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			n = 2
		}
	})
	return max(n, len(seen))
}

func containsSubquery(e lang.Expr) bool {
	found := false
	walkLang(e, func(x lang.Expr) {
		switch x.(type) {
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			found = true
		}
	})
	return found
}

// conjuncts splits a condition on AND.
func conjuncts(e lang.Expr) []lang.Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*lang.Binary); ok && b.Op == "AND" {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []lang.Expr{e}
}

func containsAgg(e lang.Expr) bool {
	found := false
	walkExpr(e, func(x lang.Expr) {
		if _, ok := x.(*lang.Agg); ok {
			found = true
		}
	})
	return found
}

// walkLang walks a lang expression including aggregate arguments.
func walkLang(e lang.Expr, f func(lang.Expr)) {
	walkExpr(e, func(x lang.Expr) {
		f(x)
		if a, ok := x.(*lang.Agg); ok && a.Arg != nil {
			walkLang(a.Arg, f)
		}
	})
}
