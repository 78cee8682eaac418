package calculus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Query is a SELECT translated to the calculus: a view keyed by Keys whose
// value columns are expressions over the aggregate terms Aggs.
type Query struct {
	Name   string
	Keys   []Column // the view's key columns (GROUP BY, or every column of a query without aggregates)
	Values []Value  // the view's value columns, in SELECT order
	// Aggs are the aggregate terms, each AggSum(key vars, …). Aggs[0] is the
	// row count of each group: a group is in the view while it is non-zero.
	Aggs []Term
	// Having filters groups at read time (nil: none); it reads key variables
	// and aggregates (AggRef).
	Having lang.Expr
	// Distinct reports a SELECT DISTINCT without aggregates: every present
	// row has value 1.
	Distinct bool
	// Scalar reports a query with aggregates and no GROUP BY: exactly one
	// row, even over empty input, where SUM and COUNT are 0.
	Scalar bool
	// AggKeys gives, for an aggregate keyed by some of the view's keys only
	// (a subquery in SELECT or HAVING correlated with group keys), the
	// positions of its keys among the view's. Other aggregates are keyed by
	// all the view's keys, or by none.
	AggKeys map[int][]int
}

// Column is a named view column bound to a variable.
type Column struct {
	Name string
	Var  Var
}

// Value is a view value column computed from aggregates and key variables.
type Value struct {
	Name string
	Type lang.Type
	E    lang.Expr // over *VarRef (keys) and *AggRef
}

// AggRef is a lang.Expr leaf that reads aggregate Index of the enclosing Query
// at the current group.
type AggRef struct {
	Index int
	T     lang.Type
}

// Pos implements lang.Expr.
func (a *AggRef) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (a *AggRef) Type() lang.Type { return a.T }

// ExtremeRef is a lang.Expr leaf that reads the least (or greatest) value
// of the last key of aggregate Index among its entries for the current group.
type ExtremeRef struct {
	Index int
	Max   bool
	T     lang.Type
}

// Pos implements lang.Expr.
func (a *ExtremeRef) Pos() lang.Pos { return lang.Pos{} }

// Type implements lang.Expr.
func (a *ExtremeRef) Type() lang.Type { return a.T }

// String prints the query's definition: keys, values and aggregate terms.
func (q *Query) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "VIEW %s [", q.Name)
	for i, k := range q.Keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %s", k.Name, k.Var.Name)
	}
	b.WriteString("]")
	if q.Scalar {
		b.WriteString(" scalar")
	}
	if q.Distinct {
		b.WriteString(" distinct")
	}
	b.WriteString("\n")
	for _, v := range q.Values {
		fmt.Fprintf(&b, "  %s : %s = %s\n", v.Name, v.Type, ExprString(v.E))
	}
	if q.Having != nil {
		fmt.Fprintf(&b, "  HAVING %s\n", ExprString(q.Having))
	}
	for i, a := range q.Aggs {
		fmt.Fprintf(&b, "  #%d := %s\n", i, String(a))
	}
	return b.String()
}

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
			if lok && rok && l.T == r.T && (l.Outer == 0 || r.Outer == 0) {
				t.union(b.colVar(l.Outer, l.From, l.Col).Name, b.colVar(r.Outer, r.From, r.Col).Name)
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
		return items, append(b.body(), lifts...), nil
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
		if a.Distinct {
			err = errorAt(a.P, "%s(DISTINCT …) in a subquery is not supported yet", a.Fn)
			return e
		}
		lift := func(term Term, typ lang.Type) lang.Expr {
			z := b.t.newVar("agg", typ)
			lifts = append(lifts, &Lift{V: z, T: term})
			return Ref(z)
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
			b.t.order[x.Name] = -1 // bound by the Extreme, not by the block: freshCopy keeps it
			rows := agg(append(ls, &Lift{V: x, T: &Val{E: v}})...).(*AggSum)
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
	inner.up = b.up // a derived table does not see its siblings
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
	if !q.Aggregated() {
		// A bag: sum away the columns it does not output.
		var t Term = &AggSum{Group: out, T: prod(rows)}
		if q.Distinct {
			t = &Exists{T: t}
		}
		return out, []Term{t}, nil
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

func translate(q *lang.Query) (*Query, error) {
	t := &translator{parent: map[string]string{}, byName: map[string]Var{}, order: map[string]int{}, used: map[string]bool{}, count: map[string]int{}}
	countColumns(q, t.count)
	b, err := t.newBlock(q, nil)
	if err != nil {
		return nil, err
	}
	if len(q.Union) > 0 {
		// A union view: keyed by all its columns, valued by multiplicity.
		items, rows, err := b.rowsOf()
		if err != nil {
			return nil, err
		}
		cq := &Query{Name: q.Name, Distinct: !q.UnionAll}
		var keys []Var
		for i, it := range q.Items {
			v := items[i].(*VarRef).V
			keys = append(keys, v)
			cq.Keys = append(cq.Keys, Column{Name: it.Name, Var: v})
		}
		// Presence is the bag multiplicity, for UNION as for UNION ALL.
		u := rows[0]
		if e, ok := u.(*Exists); ok {
			u = e.T
		}
		cq.Aggs = []Term{&AggSum{Group: keys, T: u.(*AggSum).T}}
		cq.Values = []Value{{Name: "COUNT", Type: lang.TInt, E: &AggRef{Index: 0, T: lang.TInt}}}
		return cq, nil
	}
	cq := &Query{Name: q.Name, Distinct: q.Distinct}
	keys, values := q.View()
	grouped := q.Aggregated()
	cq.Scalar = grouped && len(q.GroupBy) == 0
	body := b.body()
	var keyVars []Var
	keyOf := map[string]Var{} // printed key expression → its variable
	for i, k := range keys {
		e, lifts, err := b.scalar(k.Expr)
		if err != nil {
			return nil, err
		}
		body = append(body, lifts...)
		var v Var
		if r, ok := e.(*VarRef); ok && !hasVar(keyVars, r.V.Name) {
			v = r.V
		} else {
			v = t.newVar(fmt.Sprintf("key%d", i+1), k.Expr.Type())
			body = append(body, &Lift{V: v, T: &Val{E: e}})
		}
		keyVars = append(keyVars, v)
		keyOf[ExprString(e)] = v
		cq.Keys = append(cq.Keys, Column{Name: k.Name, Var: v})
	}
	group := func(factors ...Term) Term {
		return &AggSum{Group: keyVars, T: prod(append(append([]Term{}, body...), factors...))}
	}
	cq.Aggs = append(cq.Aggs, group())
	aggIndex := map[string]int{String(cq.Aggs[0]): 0}
	addAgg := func(term Term) int {
		k := String(term)
		if i, ok := aggIndex[k]; ok {
			return i
		}
		aggIndex[k] = len(cq.Aggs)
		cq.Aggs = append(cq.Aggs, term)
		return len(cq.Aggs) - 1
	}
	// readout rewrites a select or HAVING expression: aggregates become
	// AggRefs, group-key expressions their key variables, and uncorrelated
	// scalar subqueries AggRefs of keyless aggregates.
	var readout func(e lang.Expr) (lang.Expr, error)
	readout = func(e lang.Expr) (lang.Expr, error) {
		if !containsAgg(e) && !containsSubquery(e) {
			se, _, err := b.scalar(e)
			if err != nil {
				return nil, err
			}
			if v, ok := keyOf[ExprString(se)]; ok {
				return Ref(v), nil
			}
			for _, v := range ExprVars(se, nil) {
				if !hasVar(keyVars, v.Name) {
					return nil, errorAt(e.Pos(), "expression is not a group key")
				}
			}
			return se, nil // an expression of the group keys
		}
		switch x := e.(type) {
		case *lang.Agg:
			if x.Distinct {
				if x.Fn != "COUNT" || x.Arg == nil {
					return nil, errorAt(x.P, "%s(DISTINCT …) is not supported yet", x.Fn)
				}
				// The number of distinct values per group: a sum of Exists.
				a, lifts, err := b.scalar(x.Arg)
				if err != nil {
					return nil, err
				}
				d := t.newVar("distinct", x.Arg.Type())
				inner := append(append(append([]Term{}, body...), lifts...), &Lift{V: d, T: &Val{E: a}})
				term := &AggSum{Group: keyVars, T: &Exists{T: &AggSum{Group: append(append([]Var{}, keyVars...), d), T: prod(inner)}}}
				return &AggRef{Index: addAgg(term), T: lang.TInt}, nil
			}
			switch x.Fn {
			case "COUNT":
				return &AggRef{Index: 0, T: lang.TInt}, nil
			case "SUM", "AVG":
				r, lifts, err := b.ring(x.Arg)
				if err != nil {
					return nil, err
				}
				sum := &AggRef{Index: addAgg(group(append(lifts, r)...)), T: TypeOf(r)}
				if x.Fn == "SUM" {
					sum.T = x.T
					return sum, nil
				}
				cnt := &AggRef{Index: 0, T: lang.TInt}
				// AVG over no rows is 0 in the dialect (it only arises for scalar views).
				return &lang.Binary{Op: "/", L: sum, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), cnt}, T: lang.TInt}, T: lang.TFloat}, nil
			case "MIN", "MAX":
				// The multiplicity of each (group, value): the view reads the
				// least or greatest value with a non-zero count.
				a, lifts, err := b.scalar(x.Arg)
				if err != nil {
					return nil, err
				}
				arg := t.newVar("arg", x.Arg.Type())
				inner := append(append(append([]Term{}, body...), lifts...), &Lift{V: arg, T: &Val{E: a}})
				term := &AggSum{Group: append(append([]Var{}, keyVars...), arg), T: prod(inner)}
				return &ExtremeRef{Index: addAgg(term), Max: x.Fn == "MAX", T: x.T}, nil
			}
			return nil, errorAt(x.P, "%s is not supported yet", x.Fn)
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			r, lifts, err := b.subquery(e)
			if err != nil {
				return nil, err
			}
			// Each lifted aggregate becomes an aggregate of the view, keyed by
			// the group keys it is correlated with (none: keyless).
			sub := map[string]lang.Expr{}
			for _, l := range lifts {
				lf := l.(*Lift)
				a, ok := lf.T.(*AggSum)
				if !ok || len(a.Group) > 0 {
					return nil, errorAt(e.Pos(), "this subquery in SELECT or HAVING is not supported yet")
				}
				var corr []Var
				var pos []int
				outer := map[string]bool{}
				for _, f := range body {
					for _, v := range Vars(f) {
						outer[v.Name] = true
					}
				}
				for _, v := range Vars(a.T) {
					if !outer[v.Name] {
						continue
					}
					i := slices.IndexFunc(keyVars, func(k Var) bool { return k.Name == v.Name })
					if i < 0 {
						return nil, errorAt(e.Pos(), "a subquery in SELECT or HAVING correlated with a column that is not a group key is not supported yet")
					}
					corr, pos = append(corr, v), append(pos, i)
				}
				idx := addAgg(&AggSum{Group: corr, T: a.T})
				if len(pos) > 0 {
					if cq.AggKeys == nil {
						cq.AggKeys = map[int][]int{}
					}
					cq.AggKeys[idx] = pos
				}
				sub[lf.V.Name] = &AggRef{Index: idx, T: lf.V.Type}
			}
			return SubstExpr(r, sub), nil
		case *lang.ColRef:
			return nil, errorAt(x.P, "column %s.%s is not a group key", x.Alias, x.Name)
		}
		var err error
		out := mapChildren(e, func(c lang.Expr) lang.Expr {
			if err != nil {
				return c
			}
			var r lang.Expr
			r, err = readout(c)
			return r
		})
		return out, err
	}
	if grouped {
		for _, v := range values {
			e, err := readout(v.Expr)
			if err != nil {
				return nil, err
			}
			cq.Values = append(cq.Values, Value{Name: v.Name, Type: v.Expr.Type(), E: e})
		}
		if q.Having != nil {
			h, err := readout(q.Having)
			if err != nil {
				return nil, err
			}
			cq.Having = h
		}
	} else {
		for _, v := range values {
			cq.Values = append(cq.Values, Value{Name: v.Name, Type: lang.TInt, E: &AggRef{Index: 0, T: lang.TInt}})
		}
	}
	return cq, nil
}

// correlated reports whether a nested term reads variables of the
// enclosing body (variable names are unique in a query tree).
func correlated(t Term, body []Term) bool {
	outer := map[string]bool{}
	for _, f := range body {
		for _, v := range Vars(f) {
			outer[v.Name] = true
		}
	}
	for _, v := range Vars(t) {
		if outer[v.Name] {
			return true
		}
	}
	return false
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
