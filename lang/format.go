package lang

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Format renders a resolved file in a canonical, deterministic text form,
// for golden tests and debugging: the relations with their typed columns,
// then each query as SQL with every column qualified by its FROM alias
// (ALIAS.COL; a correlated reference to an enclosing query's column is
// written ALIAS.COL^n, n the number of query levels up), binary operations
// fully parenthesized, normal forms applied (BETWEEN, simple CASE, EXTRACT,
// CAST, INTERVAL), the type of each select item in a comment and the split of
// the view into keys and values on the line before the query.
func Format(f *File) string {
	var b strings.Builder
	if f.Dialect == SQL {
		b.WriteString("-- dialect sql\n")
	}
	for _, r := range f.Relations {
		kind := "TABLE"
		if r.Stream {
			kind = "STREAM"
		}
		fmt.Fprintf(&b, "CREATE %s %s (", kind, r.Name)
		for i, c := range r.Columns {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s %s", c.Name, c.Type)
			if f.Dialect == SQL && !c.Nullable {
				b.WriteString(" NOT NULL")
			}
		}
		b.WriteString(")")
		if s := r.Source; s != nil {
			framing := "LINE DELIMITED"
			switch {
			case s.RecordSep != "":
				framing = quote(escape(s.RecordSep)) + " DELIMITED"
			case s.RecordWidth > 0:
				framing = fmt.Sprintf("FIXEDWIDTH %d", s.RecordWidth)
			}
			fmt.Fprintf(&b, "\n  FROM FILE %s %s %s", quote(s.Path), framing, s.Format)
			if len(s.Params) > 0 {
				var keys []string
				for k := range s.Params {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				b.WriteString(" (")
				for i, k := range keys {
					if i > 0 {
						b.WriteString(", ")
					}
					v := s.Params[k]
					if k == "delimiter" || k == "fields" {
						v = escape(v)
					}
					fmt.Fprintf(&b, "%s := %s", k, quote(v))
				}
				b.WriteString(")")
			}
		}
		b.WriteString(";\n")
	}
	for _, q := range f.Queries {
		b.WriteString("\n")
		keys, vals := q.View()
		if q.Named {
			fmt.Fprintf(&b, "-- name: %s\n", q.Name) // parsed back as the view's name
		}
		fmt.Fprintf(&b, "-- %s keys [%s] values [%s]\n", q.Name, viewCols(keys), viewCols(vals))
		p := printer{b: &b, top: true, sql: f.Dialect == SQL}
		p.query(q)
		b.WriteString(";\n")
	}
	return b.String()
}

func viewCols(items []*SelectItem) string {
	var s []string
	for _, it := range items {
		s = append(s, it.Name+" "+it.Expr.Type().String())
	}
	return strings.Join(s, ", ")
}

// ExprKey is a position-independent text of a resolved expression: two
// expressions with the same key are the same expression (GROUP BY matching).
func ExprKey(e Expr) string { return exprKey(e) }

// exprKey is a position-independent text of e, used to compare expressions
// (GROUP BY matching).
func exprKey(e Expr) string {
	var b strings.Builder
	p := printer{b: &b}
	p.expr(e)
	return b.String()
}

// printer writes queries and expressions. With top set, the clauses of the
// outermost query go on separate lines and its items carry their types.
type printer struct {
	b   *strings.Builder
	top bool
	sql bool // dialect sql: item types say NULL when the item may be NULL
}

func (p *printer) w(s ...string) {
	for _, x := range s {
		p.b.WriteString(x)
	}
}

func (p *printer) query(q *Query) {
	top := p.top
	p.top = false
	sep := " "
	if top {
		sep = "\n"
	}
	if len(q.Union) > 0 {
		op := sep + q.SetOp.String() + sep
		if q.UnionAll {
			op = sep + q.SetOp.String() + " ALL" + sep
		}
		for i, b := range q.Union {
			if i > 0 {
				p.w(op)
			}
			p.query(b)
		}
		p.orderLimit(q, sep, true)
		return
	}
	p.w("SELECT ")
	if q.Distinct {
		p.w("DISTINCT ")
	}
	for i, it := range q.Items {
		if i > 0 {
			p.w(", ")
		}
		p.expr(it.Expr)
		p.w(" AS ", it.Name)
		if top {
			null := ""
			if p.sql && MayBeNull(it.Expr) {
				null = " NULL"
			}
			p.w(" /*", it.Expr.Type().String(), null, "*/")
		}
	}
	if len(q.From) > 0 {
		p.w(sep, "FROM ")
		writeFrom(q, func(s ...string) { p.w(s...) }, func(f *FromItem) {
			if f.Rel != nil {
				p.w(f.Rel.Name)
			} else {
				p.w("(")
				p.query(f.Sub)
				p.w(")")
			}
			p.w(" AS ", f.Alias)
		}, p.expr)
	}
	if q.Where != nil {
		p.w(sep, "WHERE ")
		p.expr(q.Where)
	}
	if len(q.GroupBy) > 0 {
		p.w(sep, "GROUP BY ")
		p.list(q.GroupBy)
	}
	if q.Having != nil {
		p.w(sep, "HAVING ")
		p.expr(q.Having)
	}
	if q.Qualify != nil {
		p.w(sep, "QUALIFY ")
		p.expr(q.Qualify)
	}
	p.orderLimit(q, sep, false)
}

// orderLimit prints a query's ORDER BY and LIMIT; a compound's ORDER BY
// names its columns by position.
func (p *printer) orderLimit(q *Query, sep string, byPosition bool) {
	if len(q.OrderBy) > 0 {
		p.w(sep, "ORDER BY ")
		for i, o := range q.OrderBy {
			if i > 0 {
				p.w(", ")
			}
			if byPosition {
				p.w(strconv.Itoa(o.Col + 1))
			} else {
				p.expr(o.Expr)
			}
			if o.Desc {
				p.w(" DESC")
			}
		}
	}
	if q.Limit != nil {
		p.w(sep, "LIMIT ", strconv.FormatInt(q.Limit.Count, 10))
		if q.Limit.Offset != 0 {
			p.w(" OFFSET ", strconv.FormatInt(q.Limit.Offset, 10))
		}
	}
}

func (p *printer) list(es []Expr) {
	for i, e := range es {
		if i > 0 {
			p.w(", ")
		}
		p.expr(e)
	}
}

func (p *printer) sub(q *Query) {
	p.w("(")
	p.query(q)
	p.w(")")
}

func not(b bool) string {
	if b {
		return "NOT "
	}
	return ""
}

func (p *printer) expr(e Expr) {
	switch e := e.(type) {
	case *Lit:
		p.w(litString(e))
	case *ColRef:
		p.w(e.Alias, ".", e.Name)
		if e.Outer > 0 {
			p.w("^", strconv.Itoa(e.Outer))
		}
	case *Unary:
		if e.Op == "NOT" {
			p.w("(NOT ")
		} else {
			p.w("(-")
		}
		p.expr(e.X)
		p.w(")")
	case *Binary:
		p.w("(")
		p.expr(e.L)
		p.w(" ", e.Op, " ")
		p.expr(e.R)
		p.w(")")
	case *Like:
		p.w("(")
		p.expr(e.X)
		p.w(" ", not(e.Not), "LIKE ", quote(e.Pattern), ")")
	case *InList:
		p.w("(")
		p.expr(e.X)
		p.w(" ", not(e.Not), "IN (")
		p.list(e.List)
		p.w("))")
	case *Case:
		p.w("CASE")
		for _, w := range e.Whens {
			p.w(" WHEN ")
			p.expr(w.Cond)
			p.w(" THEN ")
			p.expr(w.Then)
		}
		if e.Else != nil {
			p.w(" ELSE ")
			p.expr(e.Else)
		}
		p.w(" END")
	case *Call:
		p.w(e.Name, "(")
		p.list(e.Args)
		p.w(")")
	case *Agg:
		if HolisticAggs[e.Fn] {
			if e.Fn != "MODE" {
				p.w(e.Fn, "(", strconv.FormatFloat(e.Frac, 'g', -1, 64), ")")
			} else {
				p.w("MODE()")
			}
			p.w(" WITHIN GROUP (ORDER BY ")
			p.expr(e.Arg)
			if e.Desc {
				p.w(" DESC")
			}
			p.w(")")
			break
		}
		p.w(e.Fn, "(")
		if e.Distinct {
			p.w("DISTINCT ")
		}
		if e.Arg == nil && (e.Fn == "RANK" || e.Fn == "DENSE_RANK" || e.Fn == "ROW_NUMBER") {
			// no argument
		} else if e.Arg == nil {
			p.w("*")
		} else {
			p.expr(e.Arg)
		}
		p.w(")")
		if e.Over != nil {
			p.w(" OVER (")
			if len(e.Over.Partition) > 0 {
				p.w("PARTITION BY ")
				p.list(e.Over.Partition)
			}
			if e.Over.Order != nil {
				if len(e.Over.Partition) > 0 {
					p.w(" ")
				}
				p.w("ORDER BY ")
				p.expr(e.Over.Order)
				if e.Over.Desc {
					p.w(" DESC")
				}
				for _, k := range e.Over.Then {
					p.w(", ")
					p.expr(k.Expr)
					if k.Desc {
						p.w(" DESC")
					}
				}
			}
			p.w(")")
		}
	case *Subquery:
		p.sub(e.Q)
	case *Exists:
		p.w(not(e.Not), "EXISTS ")
		p.sub(e.Q)
	case *InQuery:
		p.w("(")
		p.expr(e.X)
		p.w(" ", not(e.Not), "IN ")
		p.sub(e.Q)
		p.w(")")
	case *IsNull:
		p.w("(")
		p.expr(e.X)
		p.w(" IS ", not(e.Not), "NULL)")
	case *Quantified:
		p.w("(")
		p.expr(e.X)
		q := "SOME"
		if e.All {
			q = "ALL"
		}
		p.w(" ", e.Op, " ", q, " ")
		p.sub(e.Q)
		p.w(")")
	case nil:
		p.w("<nil>")
	default:
		p.w(fmt.Sprintf("<%T>", e))
	}
}

func litString(l *Lit) string {
	if l.Null {
		return "NULL"
	}
	switch l.T {
	case TInt:
		return strconv.FormatInt(l.Int, 10)
	case TFloat:
		return floatString(l.Float)
	case TString:
		return quote(l.Str)
	case TDate:
		return "DATE(" + quote(l.Date.String()) + ")"
	}
	return "<invalid literal>"
}

// floatString prints f so that it reads back as a float: 1 is written 1.0.
func floatString(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Sprint(f)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// escape is the inverse of unescape: a separator printed back as source.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}

// quote writes s as a SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
