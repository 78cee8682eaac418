package lang

import (
	"fmt"
	"strconv"
	"strings"

	rt "github.com/toastgen/toastgen/runtime"
)

// SQLite translates a resolved top-level query into SQLite SQL whose result
// columns are exactly the View() keys followed by the View() values, rows
// ordered by the keys. It is the correctness oracle of the test suite.
//
// The translation assumes the harness's conventions: tables and columns
// named as declared, INT→INTEGER, FLOAT→REAL, STRING→TEXT, DATE→INTEGER
// holding yyyymmdd, PRAGMA case_sensitive_like=ON, and the scalar functions
// tg_date_add(d, n, unit), tg_regexp_match(re, s), tg_cast_string(x),
// tg_cast_date(s), tg_hash(i), tg_hash_float(f), tg_hash_string(s), and
// tg_<name> for each math function of runtime.MathFuncs (tg_sqrt,
// tg_vec_length, …), taking INTEGER or REAL arguments.
//
// Dialect semantics are spelled out in SQL: "/" divides REALs, an ungrouped
// aggregate over empty input is 0 (COALESCE), and a query without aggregates
// reports each distinct row with its multiplicity (COUNT(*), or 1 with
// DISTINCT or UNION). A scalar subquery with GROUP BY or HAVING is NULL
// when it has no row, as in SQL; a view column that is NULL reads as its
// type's zero (DB.View converts values; in a statement that holds such a
// subquery the view's keys are wrapped in COALESCE, in the select list and
// the GROUP BY, so that a NULL key and its zero are one row). FROM aliases are renamed where needed so that every
// alias is unique in the statement, which keeps correlated references from
// being captured by an inner query's alias.
func SQLite(q *Query) string { return SQLiteIn(DBToaster, q) }

// SQLiteIn translates q, read in dialect d. In dialect sql the query is
// SQLite's own semantics and is written as it is: no REAL division, no
// COALESCE around aggregates or keys, SOME/ALL three-valued.
func SQLiteIn(d Dialect, q *Query) string {
	t := &sqlTr{b: &strings.Builder{}, names: map[*FromItem]string{}, used: map[string]bool{}, sql: d == SQL}
	t.nulls = t.sql || hasNullSubquery(q)
	return t.top(q)
}

type sqlFrame struct {
	q         *Query
	scalarAgg bool // aggregated without GROUP BY: aggregates of empty input are 0
}

type sqlTr struct {
	b        *strings.Builder
	coalesce bool // write the top-level keys in COALESCE (key)
	nulls    bool // the statement holds values that may be NULL (dialect sql, or hasNullSubquery)
	sql      bool // dialect sql: SQLite's semantics are the query's
	stack    []sqlFrame
	names    map[*FromItem]string
	used     map[string]bool
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func (t *sqlTr) w(s ...string) {
	for _, x := range s {
		t.b.WriteString(x)
	}
}

// capture runs f and returns what it wrote.
func (t *sqlTr) capture(f func()) string {
	saved := t.b
	t.b = &strings.Builder{}
	f()
	s := t.b.String()
	t.b = saved
	return s
}

func (t *sqlTr) top(q *Query) string {
	keys, vals := q.View()
	if len(q.Union) > 0 {
		var names []string
		for _, it := range q.Items {
			names = append(names, ident(it.Name))
		}
		t.w("SELECT ", strings.Join(names, ", "))
		if q.UnionAll {
			t.w(", COUNT(*) AS ", ident(vals[0].Name))
		} else {
			t.w(", 1 AS ", ident(vals[0].Name))
		}
		t.w(" FROM (")
		if q.Limit != nil && q.UnionAll {
			// A bag's LIMIT keeps rows: order and limit them, then count.
			t.w("SELECT * FROM (")
			t.query(q)
			t.w(") AS ", ident(t.fresh("tg_union")), orderLimit(q, true))
		} else {
			t.query(q)
		}
		t.w(") AS ", ident(t.fresh("tg_union")))
		if q.UnionAll {
			t.w(" GROUP BY ", strings.Join(names, ", "))
		}
		switch {
		case q.Ordered() && q.UnionAll:
			t.w(orderLimit(q, false))
		case q.Ordered():
			t.w(orderLimit(q, true))
		default:
			t.w(orderByKeys(len(keys)))
		}
		return t.b.String()
	}
	if q.Windowed() {
		return t.windowed(q, keys, vals)
	}
	if !q.Aggregated() && !q.Distinct && q.Limit != nil {
		// A LIMIT keeps rows of the bag: the inner query orders and
		// limits them, the outer counts each distinct row.
		t.push(q)
		var names []string
		for _, it := range q.Items {
			names = append(names, ident(it.Name))
		}
		t.w("SELECT ", strings.Join(names, ", "), ", COUNT(*) AS ", ident(vals[0].Name), " FROM (SELECT ")
		t.coalesce = t.nulls && !t.sql
		t.items(q.Items)
		t.coalesce = false
		t.fromWhere(q)
		t.w(orderLimit(q, true), ") AS ", ident(t.fresh("tg_limit")), " GROUP BY ")
		for i := range q.Items {
			if i > 0 {
				t.w(", ")
			}
			t.w(strconv.Itoa(i + 1))
		}
		t.w(orderLimit(q, false))
		t.pop()
		return t.b.String()
	}
	if !q.Aggregated() {
		t.push(q)
		t.w("SELECT ")
		t.coalesce = t.nulls && !t.sql
		t.items(q.Items)
		t.coalesce = false
		if q.Distinct {
			t.w(", 1 AS ", ident(vals[0].Name))
		} else {
			t.w(", COUNT(*) AS ", ident(vals[0].Name))
		}
		t.fromWhere(q)
		// By position: an item may be a scalar subquery, which SQLite
		// refuses as a GROUP BY expression when it aggregates.
		t.w(" GROUP BY ")
		for i := range q.Items {
			if i > 0 {
				t.w(", ")
			}
			t.w(strconv.Itoa(i + 1))
		}
		t.coalesce = false
		if q.Ordered() {
			t.w(orderLimit(q, true))
		} else {
			t.w(orderByKeys(len(keys)))
		}
		t.pop()
		return t.b.String()
	}
	t.push(q)
	var names []string
	for _, it := range append(append([]*SelectItem{}, keys...), vals...) {
		names = append(names, ident(it.Name))
	}
	if q.Qualify != nil {
		// Filtered after the windows over the groups: by an outer query.
		t.w("SELECT ", strings.Join(names, ", "), " FROM (")
	}
	// An aggregate in ORDER BY alone makes an aggregate query (Aggregated),
	// which SQLite rejects ("misuse of aggregate"): an inner query selects
	// the aggregate too.
	orderAggs := orderOnlyAggs(q)
	if len(orderAggs) > 0 {
		t.w("SELECT ", strings.Join(names, ", "), " FROM (")
	}
	t.w("SELECT ")
	t.coalesce = t.nulls && !t.sql
	t.items(keys)
	t.coalesce = false
	if len(keys) > 0 && len(vals) > 0 {
		t.w(", ")
	}
	t.items(vals)
	for i, e := range orderAggs {
		t.w(", ")
		t.expr(e)
		t.w(" AS ", ident(fmt.Sprintf("tg_o%d", i)))
	}
	if q.Qualify != nil {
		t.w(", ")
		t.expr(q.Qualify)
		t.w(" AS ", ident("tg_q"))
	}
	t.fromWhere(q)
	t.coalesce = t.nulls && !t.sql // the GROUP BY keys
	t.groupHaving(q, "")
	t.coalesce = false
	if len(orderAggs) > 0 {
		t.w(") AS ", ident(t.fresh("tg_orderagg")))
	}
	if q.Qualify != nil {
		t.w(") AS ", ident(t.fresh("tg_qualify")), " WHERE ", ident("tg_q"))
	}
	if q.Ordered() {
		t.w(orderLimit(q, true))
	} else if len(keys) > 0 {
		t.w(orderByKeys(len(keys)))
	}
	t.pop()
	return t.b.String()
}

func (t *sqlTr) push(q *Query) {
	t.stack = append(t.stack, sqlFrame{q: q, scalarAgg: q.Aggregated() && len(q.GroupBy) == 0})
	for _, f := range q.From {
		t.names[f] = t.fresh(f.Alias)
	}
}

func (t *sqlTr) pop() { t.stack = t.stack[:len(t.stack)-1] }

// fresh returns a FROM alias not used before in the statement.
func (t *sqlTr) fresh(a string) string {
	n := a
	for i := 2; t.used[n]; i++ {
		n = fmt.Sprintf("%s_%d", a, i)
	}
	t.used[n] = true
	return n
}

func (t *sqlTr) items(items []*SelectItem) {
	for i, it := range items {
		if i > 0 {
			t.w(", ")
		}
		t.key(it.Expr)
		t.w(" AS ", ident(it.Name))
	}
}

// key writes a select item or a GROUP BY key, in COALESCE when t.coalesce
// is set (a top-level key that may be NULL).
func (t *sqlTr) key(e Expr) {
	if !t.coalesce {
		t.expr(e)
		return
	}
	t.coalesce = false
	t.w("COALESCE(")
	t.expr(e)
	t.w(", ", zeroSQL(e.Type()), ")")
	t.coalesce = true
}

// hasNullSubquery reports whether q holds, at any depth, a scalar subquery
// with GROUP BY or HAVING: one that may be NULL.
func hasNullSubquery(q *Query) bool {
	found := false
	walkQuery(q, 0, func(e Expr, _ int) bool {
		if s, ok := e.(*Subquery); ok && (len(s.Q.GroupBy) > 0 || s.Q.Having != nil) {
			found = true
		}
		return !found
	})
	return found
}

func (t *sqlTr) fromWhere(q *Query) {
	if len(q.From) > 0 {
		t.w(" FROM ")
		writeFrom(q, t.w, func(f *FromItem) {
			if f.Rel != nil {
				t.w(ident(f.Rel.Name))
			} else {
				t.w("(")
				t.query(f.Sub)
				t.w(")")
			}
			t.w(" AS ", ident(t.names[f]))
		}, t.expr)
	}
	if q.Where != nil {
		t.w(" WHERE ")
		t.expr(q.Where)
	}
}

// groupHaving writes GROUP BY and HAVING, AND-ing extra (SQL text) into
// HAVING when it is not empty.
func (t *sqlTr) groupHaving(q *Query, extra string) {
	if len(q.GroupBy) > 0 {
		t.w(" GROUP BY ")
		for i, g := range q.GroupBy {
			if i > 0 {
				t.w(", ")
			}
			t.key(g)
		}
	}
	t.coalesce = false
	switch {
	case q.Having != nil && extra != "":
		t.w(" HAVING (")
		t.expr(q.Having)
		t.w(") AND ", extra)
	case q.Having != nil:
		t.w(" HAVING ")
		t.expr(q.Having)
	case extra != "":
		t.w(" HAVING ", extra)
	}
}

// query writes a nested query (derived table or subquery) as a plain SELECT
// with its items named.
func (t *sqlTr) query(q *Query) {
	if len(q.Union) > 0 {
		if q.SetOp != Union && q.UnionAll {
			t.bagCompound(q)
			return
		}
		for i, b := range q.Union {
			if i > 0 {
				t.w(" ", q.SetOp.String())
				if q.UnionAll {
					t.w(" ALL")
				}
				t.w(" ")
			}
			t.branch(q, b)
		}
		return
	}
	t.push(q)
	t.w("SELECT ")
	if q.Distinct {
		t.w("DISTINCT ")
	}
	t.items(q.Items)
	t.fromWhere(q)
	t.groupHaving(q, "")
	t.pop()
}

// branch writes branch b of compound query q, its columns named as q's
// (the first branch's names).
func (t *sqlTr) branch(q, b *Query) {
	named := make([]*SelectItem, len(b.Items))
	for j, it := range b.Items {
		named[j] = &SelectItem{Name: q.Items[j].Name, Expr: it.Expr}
	}
	cp := *b
	cp.Items = named
	t.query(&cp)
}

// bagCompound writes INTERSECT ALL or EXCEPT ALL, which SQLite lacks: each
// operand's rows are numbered within their group of equal rows
// (ROW_NUMBER() OVER (PARTITION BY every column)), so that the k-th copy
// of a row is a distinct row; the set operator on the numbered rows keeps
// min(m, n) copies (INTERSECT) or max(0, m − n) (EXCEPT), and the numbers
// are dropped. A chain folds left to right.
func (t *sqlTr) bagCompound(q *Query) {
	var cols []string
	for _, it := range q.Items {
		cols = append(cols, ident(it.Name))
	}
	names := strings.Join(cols, ", ")
	numbered := func(from, alias string) string {
		return "SELECT " + names + ", ROW_NUMBER() OVER (PARTITION BY " + names + ") AS tg_rn FROM (" + from + ") AS " + ident(alias)
	}
	cur := t.capture(func() { t.branch(q, q.Union[0]) })
	for _, b := range q.Union[1:] {
		next := t.capture(func() { t.branch(q, b) })
		cur = "SELECT " + names + " FROM (" + numbered(cur, t.fresh("tg_l")) + " " + q.SetOp.String() + " " +
			numbered(next, t.fresh("tg_r")) + ") AS " + ident(t.fresh("tg_bag"))
	}
	t.w(cur)
}

// quantified writes x op ALL|SOME (q) as [NOT] EXISTS over q with the
// comparison added to q's WHERE (or HAVING for an aggregate q). Where the
// statement holds values that may be NULL (t.nulls), it spells out SQL's
// three-valued result: SOME is TRUE if a comparison is, else NULL if one is
// NULL, else FALSE; ALL is FALSE if a comparison is, else NULL if one is
// NULL, else TRUE.
func (t *sqlTr) quantified(e *Quantified) {
	if !t.nulls {
		if e.All {
			t.w("NOT ")
		}
		t.existsCmp(e, func(cmp string) string {
			if e.All {
				return "NOT " + cmp
			}
			return cmp
		})
		return
	}
	decided, undecided := "1", "0"
	if e.All {
		decided, undecided = "0", "1"
	}
	t.w("CASE WHEN ")
	t.existsCmp(e, func(cmp string) string {
		if e.All {
			return "NOT " + cmp
		}
		return cmp
	})
	t.w(" THEN ", decided, " WHEN ")
	t.existsCmp(e, func(cmp string) string { return cmp + " IS NULL" })
	t.w(" THEN NULL ELSE ", undecided, " END")
}

// existsCmp writes EXISTS over the rows of e.Q for which cond(comparison)
// holds.
func (t *sqlTr) existsCmp(e *Quantified, cond func(cmp string) string) {
	x := t.capture(func() { t.expr(e.X) })
	q := e.Q
	t.w("EXISTS (SELECT 1")
	if len(q.Union) > 0 {
		// A UNION cannot take the condition inline: range over it instead.
		alias := t.fresh("tg_q")
		t.w(" FROM (")
		t.query(q)
		t.w(") AS ", ident(alias), " WHERE ")
		t.w(cond("("+x+" "+e.Op+" "+ident(alias)+"."+ident(q.Items[0].Name)+")"), ")")
		return
	}
	t.push(q)
	cmp := cond("(" + x + " " + e.Op + " " + t.capture(func() { t.expr(q.Items[0].Expr) }) + ")")
	t.fromWhere(q)
	if q.Aggregated() {
		t.groupHaving(q, cmp)
	} else {
		if q.Where != nil {
			t.w(" AND ", cmp)
		} else {
			t.w(" WHERE ", cmp)
		}
	}
	t.pop()
	t.w(")")
}

func zeroSQL(ty Type) string {
	if ty == TString {
		return "''"
	}
	return "0"
}

func (t *sqlTr) expr(e Expr) {
	switch e := e.(type) {
	case *Lit:
		if e.Null {
			t.w("NULL")
			return
		}
		switch e.T {
		case TInt:
			t.w(strconv.FormatInt(e.Int, 10))
		case TFloat:
			t.w(floatString(e.Float))
		case TString:
			t.w(quote(e.Str))
		case TDate:
			t.w(strconv.Itoa(int(e.Date)))
		}
	case *ColRef:
		f := t.stack[len(t.stack)-1-e.Outer].q.From[e.From]
		t.w(ident(t.names[f]), ".", ident(e.Name))
	case *Unary:
		if e.Op == "NOT" {
			t.w("(NOT ")
		} else {
			t.w("(-")
		}
		t.expr(e.X)
		t.w(")")
	case *Binary:
		if e.Op == "/" && !t.sql {
			t.w("(CAST(")
			t.expr(e.L)
			t.w(" AS REAL) / (")
			t.expr(e.R)
			t.w("))")
			return
		}
		t.w("(")
		t.expr(e.L)
		t.w(" ", e.Op, " ")
		t.expr(e.R)
		t.w(")")
	case *Like:
		t.w("(")
		t.expr(e.X)
		t.w(" ", not(e.Not), "LIKE ", quote(e.Pattern), ")")
	case *InList:
		t.w("(")
		t.expr(e.X)
		t.w(" ", not(e.Not), "IN (")
		for i, x := range e.List {
			if i > 0 {
				t.w(", ")
			}
			t.expr(x)
		}
		t.w("))")
	case *Case:
		t.w("(CASE")
		for _, wh := range e.Whens {
			t.w(" WHEN ")
			t.expr(wh.Cond)
			t.w(" THEN ")
			t.expr(wh.Then)
		}
		t.w(" ELSE ")
		if e.Else != nil {
			t.expr(e.Else)
		} else {
			t.w(zeroSQL(e.T))
		}
		t.w(" END)")
	case *Call:
		t.call(e)
	case *Agg:
		coalesce := !t.sql && t.stack[len(t.stack)-1].scalarAgg && e.Fn != "COUNT"
		if coalesce {
			t.w("COALESCE(")
		}
		switch {
		case HolisticAggs[e.Fn]:
			// The oracle's own aggregates (oracle/holistic.go) take the
			// argument, the fraction and the order (1: descending).
			t.w("TOAST_", e.Fn, "(")
			t.expr(e.Arg)
			desc := 0
			if e.Desc {
				desc = 1
			}
			t.w(", ", strconv.FormatFloat(e.Frac, 'g', -1, 64), ", ", strconv.Itoa(desc), ")")
		case e.Arg == nil && (e.Fn == "RANK" || e.Fn == "DENSE_RANK" || e.Fn == "ROW_NUMBER"):
			t.w(e.Fn, "()")
		case e.Arg == nil:
			t.w(e.Fn, "(*)")
		default:
			t.w(e.Fn, "(")
			if e.Distinct {
				t.w("DISTINCT ")
			}
			t.expr(e.Arg)
			t.w(")")
		}
		if e.Over != nil {
			t.w(" OVER (")
			for i, p := range e.Over.Partition {
				if i == 0 {
					t.w("PARTITION BY ")
				} else {
					t.w(", ")
				}
				t.expr(p)
			}
			sep := " ORDER BY "
			if e.Over.Order != nil {
				t.w(sep)
				t.expr(e.Over.Order)
				if e.Over.Desc {
					t.w(" DESC")
				}
				sep = ", "
			}
			for _, k := range e.Over.Then {
				t.w(sep)
				t.expr(k.Expr)
				if k.Desc {
					t.w(" DESC")
				}
			}
			for _, k := range e.Over.Ties {
				// ROW_NUMBER's order among peers (Window.Ties).
				t.w(sep)
				t.expr(k)
				sep = ", "
			}
			t.w(")")
		}
		if coalesce {
			t.w(", ", zeroSQL(e.T), ")")
		}
	case *Subquery:
		t.w("(")
		t.query(e.Q)
		t.w(")")
	case *Exists:
		t.w(not(e.Not), "EXISTS (")
		t.query(e.Q)
		t.w(")")
	case *InQuery:
		t.w("(")
		t.expr(e.X)
		t.w(" ", not(e.Not), "IN (")
		t.query(e.Q)
		t.w("))")
	case *Quantified:
		t.w("(")
		t.quantified(e)
		t.w(")")
	case *IsNull:
		t.w("(")
		t.expr(e.X)
		t.w(" IS ", not(e.Not), "NULL)")
	default:
		panic(fmt.Sprintf("lang.SQLite: unexpected expression %T", e))
	}
}

func (t *sqlTr) args(es []Expr) {
	for i, x := range es {
		if i > 0 {
			t.w(", ")
		}
		t.expr(x)
	}
}

func (t *sqlTr) call(e *Call) {
	if t.plainCall(e) {
		return
	}
	a := e.Args
	switch e.Name {
	case "DATE_PART":
		t.w("((")
		t.expr(a[1])
		switch a[0].(*Lit).Str {
		case "YEAR":
			t.w(")/10000)")
		case "MONTH":
			t.w(")/100%100)")
		default:
			t.w(")%100)")
		}
	case "DATE_ADD":
		t.w("tg_date_add(")
		t.args(a)
		t.w(")")
	case "SUBSTRING":
		t.w("substr(")
		t.expr(a[0])
		t.w(", (")
		t.expr(a[1])
		t.w(")+1, ")
		t.expr(a[2])
		t.w(")")
	case "LISTMIN", "LISTMAX":
		if len(a) == 1 {
			t.expr(a[0])
			return
		}
		if e.Name == "LISTMIN" {
			t.w("min(")
		} else {
			t.w("max(")
		}
		t.args(a)
		t.w(")")
	case "REGEXP_MATCH":
		t.w("tg_regexp_match(")
		t.args(a)
		t.w(")")
	case "CAST_INT", "CAST_FLOAT":
		t.w("CAST(")
		t.expr(a[0])
		if e.Name == "CAST_INT" {
			t.w(" AS INTEGER)")
		} else {
			t.w(" AS REAL)")
		}
	case "CAST_STRING":
		if a[0].Type() == TDate {
			t.dateText(a[0]) // a DATE is an INTEGER yyyymmdd there
			return
		}
		t.w("tg_cast_string(")
		t.expr(a[0])
		t.w(")")
	case "CAST_DATE":
		if a[0].Type() == TDate {
			t.expr(a[0])
			return
		}
		t.w("tg_cast_date(")
		t.expr(a[0])
		t.w(")")
	case "COALESCE", "NULLIF":
		t.w(strings.ToLower(e.Name), "(")
		t.args(a)
		t.w(")")
	case "HASH":
		// The argument's type picks the definition (a DATE is hashed as
		// its yyyymmdd INT, which is also its SQLite value).
		switch a[0].Type() {
		case TFloat:
			t.w("tg_hash_float(")
		case TString:
			t.w("tg_hash_string(")
		default:
			t.w("tg_hash(")
		}
		t.expr(a[0])
		t.w(")")
	default:
		if _, ok := rt.MathFuncs[e.Name]; ok {
			// The oracle registers every math function as tg_<name>,
			// implemented by the runtime, so that both sides round alike.
			t.w("tg_", strings.ToLower(e.Name), "(")
			t.args(a)
			t.w(")")
			return
		}
		panic("lang.SQLite: unexpected function " + e.Name)
	}
}

// orderOnlyAggs are the ORDER BY expressions with aggregates of a query
// that has them nowhere else and no GROUP BY: they alone make it an
// aggregate query (nil otherwise).
func orderOnlyAggs(q *Query) []Expr {
	if len(q.GroupBy) > 0 || q.Having != nil {
		return nil
	}
	for _, it := range q.Items {
		if hasAgg(it.Expr) {
			return nil
		}
	}
	var out []Expr
	for _, o := range q.OrderBy {
		if hasAgg(o.Expr) {
			out = append(out, o.Expr)
		}
	}
	return out
}
