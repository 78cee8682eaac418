package calculus

import (
	"fmt"
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

// FromSQL translates every query of a resolved file.
func FromSQL(f *lang.File) ([]*Query, error) {
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

// translator holds the variable assignment for one flat query.
type translator struct {
	q      *lang.Query
	vars   [][]Var // per FROM item, per column: the column's variable (after unification)
	parent map[string]string
	byName map[string]Var
	body   []Term // relation atoms, conditions and group-key lifts
	fresh  int
}

func (t *translator) find(n string) string {
	for t.parent[n] != n {
		n = t.parent[n]
	}
	return n
}

func (t *translator) colVar(from, col int) Var {
	v := t.vars[from][col]
	return t.byName[t.find(v.Name)]
}

func translate(q *lang.Query) (*Query, error) {
	if len(q.Union) > 0 {
		return nil, errorAt(q.Pos, "UNION is not supported yet")
	}
	t := &translator{q: q, parent: map[string]string{}, byName: map[string]Var{}}
	// Name each column's variable: the lower-case column name when unique in
	// the query, else alias_column.
	count := map[string]int{}
	for _, fi := range q.From {
		if fi.Sub != nil {
			return nil, errorAt(fi.Pos, "subqueries in FROM are not supported yet")
		}
		for _, c := range fi.Rel.Columns {
			count[c.Name]++
		}
	}
	used := map[string]bool{}
	for _, fi := range q.From {
		var vs []Var
		for _, c := range fi.Rel.Columns {
			n := strings.ToLower(c.Name)
			if count[c.Name] > 1 {
				n = strings.ToLower(fi.Alias) + "_" + n
			}
			for used[n] {
				n += "_"
			}
			used[n] = true
			v := Var{Name: n, Type: c.Type}
			vs = append(vs, v)
			t.parent[n] = n
			t.byName[n] = v
		}
		t.vars = append(t.vars, vs)
	}
	// Unify column equalities of the WHERE clause.
	var conds []lang.Expr
	for _, c := range conjuncts(q.Where) {
		if err := checkFlat(c); err != nil {
			return nil, err
		}
		if b, ok := c.(*lang.Binary); ok && b.Op == "=" {
			l, lok := b.L.(*lang.ColRef)
			r, rok := b.R.(*lang.ColRef)
			if lok && rok && l.Outer == 0 && r.Outer == 0 && l.T == r.T {
				a, z := t.find(t.vars[l.From][l.Col].Name), t.find(t.vars[r.From][r.Col].Name)
				if a != z {
					t.parent[z] = a
				}
				continue
			}
		}
		conds = append(conds, c)
	}
	for i, fi := range q.From {
		vs := make([]Var, len(fi.Rel.Columns))
		for j := range vs {
			vs[j] = t.colVar(i, j)
		}
		t.body = append(t.body, &Rel{Name: fi.Rel.Name, Vars: vs})
	}
	for _, c := range conds {
		t.body = append(t.body, &Val{E: t.expr(c)})
	}

	cq := &Query{Name: q.Name, Distinct: q.Distinct}
	keys, values := q.View()
	hasAgg := false
	for _, it := range q.Items {
		if containsAgg(it.Expr) {
			hasAgg = true
		}
	}
	grouped := hasAgg || len(q.GroupBy) > 0
	cq.Scalar = hasAgg && len(q.GroupBy) == 0
	var keyVars []Var
	keyOf := map[string]Var{} // printed key expression → its variable
	for i, k := range keys {
		if err := checkFlat(k.Expr); err != nil {
			return nil, err
		}
		var v Var
		if c, ok := k.Expr.(*lang.ColRef); ok {
			v = t.colVar(c.From, c.Col)
		} else {
			t.fresh++
			v = Var{Name: fmt.Sprintf("key%d", i+1), Type: k.Expr.Type()}
			t.body = append(t.body, &Lift{V: v, T: &Val{E: t.expr(k.Expr)}})
		}
		if hasVar(keyVars, v.Name) {
			// The same variable twice (e.g. GROUP BY a, b with a = b): a copy keeps both columns.
			w := Var{Name: fmt.Sprintf("key%d", i+1), Type: v.Type}
			t.body = append(t.body, &Lift{V: w, T: &Val{E: Ref(v)}})
			v = w
		}
		keyVars = append(keyVars, v)
		keyOf[ExprString(t.expr(k.Expr))] = v
		cq.Keys = append(cq.Keys, Column{Name: k.Name, Var: v})
	}
	body := t.body
	group := func(factors ...Term) Term {
		return &AggSum{Group: keyVars, T: &Prod{Factors: append(append([]Term{}, body...), factors...)}}
	}
	cq.Aggs = append(cq.Aggs, group())
	aggIndex := map[string]int{"COUNT(*)": 0}
	addAgg := func(key string, term Term) int {
		if i, ok := aggIndex[key]; ok {
			return i
		}
		aggIndex[key] = len(cq.Aggs)
		cq.Aggs = append(cq.Aggs, term)
		return len(cq.Aggs) - 1
	}
	// readout rewrites a select or HAVING expression: aggregates become
	// AggRefs, group-key expressions their key variables.
	var readout func(e lang.Expr) (lang.Expr, error)
	readout = func(e lang.Expr) (lang.Expr, error) {
		if v, ok := keyOf[ExprString(t.expr(e))]; ok && !containsAgg(e) {
			return Ref(v), nil
		}
		switch x := e.(type) {
		case *lang.Agg:
			if x.Distinct {
				return nil, errorAt(x.P, "%s(DISTINCT …) is not supported yet", x.Fn)
			}
			if x.Arg != nil {
				if err := checkFlat(x.Arg); err != nil {
					return nil, err
				}
			}
			switch x.Fn {
			case "COUNT":
				return &AggRef{Index: 0, T: lang.TInt}, nil
			case "SUM":
				r := t.ring(x.Arg)
				i := addAgg("SUM("+String(r)+")", group(r))
				return &AggRef{Index: i, T: x.T}, nil
			case "AVG":
				r := t.ring(x.Arg)
				i := addAgg("SUM("+String(r)+")", group(r))
				sum := &AggRef{Index: i, T: TypeOf(r)}
				cnt := &AggRef{Index: 0, T: lang.TInt}
				// AVG over no rows is 0 in the dialect (it only arises for scalar views).
				return &lang.Binary{Op: "/", L: sum, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), cnt}, T: lang.TInt}, T: lang.TFloat}, nil
			default:
				return nil, errorAt(x.P, "%s is not supported yet", x.Fn)
			}
		case *lang.ColRef:
			return nil, errorAt(x.P, "column %s.%s is not a group key", x.Alias, x.Name)
		case *lang.Lit:
			return x, nil
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			return nil, errorAt(e.Pos(), "nested subqueries are not supported yet")
		}
		var err error
		rec := func(e lang.Expr) lang.Expr {
			if err != nil {
				return e
			}
			var r lang.Expr
			r, err = readout(e)
			return r
		}
		switch x := e.(type) {
		case *lang.Unary:
			y := *x
			y.X = rec(x.X)
			return &y, err
		case *lang.Binary:
			y := *x
			y.L, y.R = rec(x.L), rec(x.R)
			return &y, err
		case *lang.Like:
			y := *x
			y.X = rec(x.X)
			return &y, err
		case *lang.InList:
			y := *x
			y.X = rec(x.X)
			y.List = nil
			for _, l := range x.List {
				y.List = append(y.List, rec(l))
			}
			return &y, err
		case *lang.Case:
			y := *x
			y.Whens = nil
			for _, w := range x.Whens {
				y.Whens = append(y.Whens, &lang.When{Cond: rec(w.Cond), Then: rec(w.Then)})
			}
			if x.Else != nil {
				y.Else = rec(x.Else)
			}
			return &y, err
		case *lang.Call:
			y := *x
			y.Args = nil
			for _, a := range x.Args {
				y.Args = append(y.Args, rec(a))
			}
			return &y, err
		}
		return nil, errorAt(e.Pos(), "unsupported expression")
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
			if err := checkFlatHaving(q.Having); err != nil {
				return nil, err
			}
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

// fromItems counts the FROM items whose columns e reads.
func (t *translator) fromItems(e lang.Expr) int {
	seen := map[int]bool{}
	walkExpr(e, func(x lang.Expr) {
		if c, ok := x.(*lang.ColRef); ok {
			seen[c.From] = true
		}
	})
	return len(seen)
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

// checkFlat rejects nested subqueries, which the next milestone supports.
func checkFlat(e lang.Expr) error {
	var err error
	walkLang(e, func(x lang.Expr) {
		if err != nil {
			return
		}
		switch x.(type) {
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			err = errorAt(x.Pos(), "nested subqueries are not supported yet")
		case *lang.ColRef:
			if x.(*lang.ColRef).Outer != 0 {
				err = errorAt(x.Pos(), "correlated subqueries are not supported yet")
			}
		}
	})
	return err
}

func checkFlatHaving(e lang.Expr) error { return checkFlat(e) }

// walkLang walks a lang expression including aggregate arguments.
func walkLang(e lang.Expr, f func(lang.Expr)) {
	walkExpr(e, func(x lang.Expr) {
		f(x)
		if a, ok := x.(*lang.Agg); ok && a.Arg != nil {
			walkLang(a.Arg, f)
		}
	})
}

// expr translates a scalar lang expression: columns become variables.
func (t *translator) expr(e lang.Expr) lang.Expr {
	sub := map[string]lang.Expr{}
	var rewrite func(e lang.Expr) lang.Expr
	rewrite = func(e lang.Expr) lang.Expr {
		switch x := e.(type) {
		case *lang.ColRef:
			return Ref(t.colVar(x.From, x.Col))
		case *lang.Unary:
			y := *x
			y.X = rewrite(x.X)
			return &y
		case *lang.Binary:
			y := *x
			y.L, y.R = rewrite(x.L), rewrite(x.R)
			return &y
		case *lang.Like:
			y := *x
			y.X = rewrite(x.X)
			return &y
		case *lang.InList:
			y := *x
			y.X = rewrite(x.X)
			y.List = make([]lang.Expr, len(x.List))
			for i, l := range x.List {
				y.List[i] = rewrite(l)
			}
			return &y
		case *lang.Case:
			y := *x
			y.Whens = make([]*lang.When, len(x.Whens))
			for i, w := range x.Whens {
				y.Whens[i] = &lang.When{Cond: rewrite(w.Cond), Then: rewrite(w.Then)}
			}
			if x.Else != nil {
				y.Else = rewrite(x.Else)
			}
			return &y
		case *lang.Call:
			y := *x
			y.Args = make([]lang.Expr, len(x.Args))
			for i, a := range x.Args {
				y.Args[i] = rewrite(a)
			}
			return &y
		}
		return e
	}
	_ = sub
	return rewrite(e)
}

// ring decomposes a numeric expression into ring operations so that the
// viewlet transform can split its factors between maps.
func (t *translator) ring(e lang.Expr) Term {
	// An expression over one relation's columns stays one value: splitting
	// it would only multiply the statements that maintain it.
	if t.fromItems(e) <= 1 {
		return &Val{E: t.expr(e)}
	}
	switch x := e.(type) {
	case *lang.Binary:
		switch x.Op {
		case "*":
			return &Prod{Factors: []Term{t.ring(x.L), t.ring(x.R)}}
		case "+":
			return &Sum{Terms: []Term{t.ring(x.L), t.ring(x.R)}}
		case "-":
			return &Sum{Terms: []Term{t.ring(x.L), &Neg{T: t.ring(x.R)}}}
		}
	case *lang.Unary:
		if x.Op == "-" {
			return &Neg{T: t.ring(x.X)}
		}
	case *lang.Case:
		var arms []Term
		var earlier []Term // NOT of every earlier condition
		for _, w := range x.Whens {
			c := t.expr(w.Cond)
			f := append(append([]Term{}, earlier...), &Val{E: c}, t.ring(w.Then))
			arms = append(arms, &Prod{Factors: f})
			earlier = append(earlier, &Val{E: &lang.Unary{Op: "NOT", X: c, T: lang.TBool}})
		}
		if x.Else != nil {
			arms = append(arms, &Prod{Factors: append(earlier, t.ring(x.Else))})
		}
		return &Sum{Terms: arms}
	}
	return &Val{E: t.expr(e)}
}
