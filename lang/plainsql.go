package lang

import (
	"fmt"
	"math"

	"github.com/alecthomas/participle/v2/lexer"
)

// Plain SQL, the SQL that test corpora and users write (issue 11), in both
// dialects unless said otherwise:
//
//   - SELECT ALL and COUNT(ALL x), SUM(ALL x), … mean what they mean without
//     ALL.
//   - SUM(DISTINCT x) and AVG(DISTINCT x); MIN(DISTINCT x) and
//     MAX(DISTINCT x) are MIN(x) and MAX(x).
//   - The scalar functions SQLite and PostgreSQL share, with SQLite's
//     semantics (runtime/strfuncs.go): ABS (INT or FLOAT, of its argument's
//     type), ROUND(x[, n]) (FLOAT), LENGTH, UPPER, LOWER, TRIM, LTRIM,
//     RTRIM (with an optional set of characters), and a || b. Their string
//     arguments may be numbers or dates, converted to text as SQLite
//     converts them (an INT as its digits, a FLOAT as RealText: 1.0, 1.0e+21;
//     a DATE as yyyy-mm-dd), so that 1 || 2 is '12'.
//   - SUBSTR(s, start[, n]): in dialect sql SQL's SUBSTR, counting from 1
//     with SQLite's rules for 0 and negative start and n (SQL_SUBSTR);
//     SUBSTRING is the same function there, as in SQLite and PostgreSQL. In
//     dialect dbtoaster both stay DBToaster's SUBSTRING, counting from 0 (so
//     DBToaster's queries keep their results); the two-argument form takes
//     the rest of the string.
//   - CAST(x AS t) for t among INTEGER, INT, REAL, FLOAT, DOUBLE, DECIMAL,
//     TEXT, VARCHAR[(n)], CHAR(n), STRING, DATE. In dialect dbtoaster it is
//     DBToaster's CAST_INT, CAST_FLOAT, CAST_STRING or CAST_DATE. In dialect
//     sql it is SQLite's CAST (SQL_CAST_INT, SQL_CAST_FLOAT,
//     SQL_CAST_STRING): a REAL to INTEGER truncates toward zero (saturating
//     beyond int64), a TEXT to INTEGER or REAL reads its longest numeric
//     prefix ('12abc' is 12), a REAL to TEXT is RealText. DECIMAL is REAL
//     (SQLite's NUMERIC affinity would keep 3.0 as the integer 3; toastgen's
//     DECIMAL is a float64), VARCHAR(n) and CHAR(n) do not truncate (as in
//     SQLite). SQLite has no DATE type, so CAST(x AS DATE) stays DBToaster's
//     (a 'yyyy-mm-dd' string becomes that date), and a DATE cannot be cast
//     to a number in dialect sql.
//   - A select item without an alias, or whose derived name another item
//     has, is never an error: the view's column names stay unique (a
//     repeated column is qualified by its table alias, M_NAME; an
//     expression is COL<i>; then numbers: A_2), and SelectItem.Label, which
//     `toastgen run -format json` reports, is SQLite's name of the column.
//     Only two identical explicit aliases are an error.
//   - Parenthesised joins in FROM, (a CROSS JOIN b), a JOIN (b JOIN c ON …)
//     ON …, (a, b), are flattened into the FROM list (inner joins
//     associate); a parenthesised SELECT stays a derived table.
//   - Dialect sql only: a condition used as a value (SELECT a = b,
//     SUM(a > 1)) is 1 when TRUE, 0 when FALSE and NULL when UNKNOWN, as in
//     SQLite (see boolValue).

// written returns the identifier name (upper-cased by the lexer) as written
// at p.
func (r *resolver) written(p lexer.Position, name string) string {
	if src := r.text[p.Filename]; p.Offset >= 0 && p.Offset+len(name) <= len(src) {
		return string(src[p.Offset : p.Offset+len(name)])
	}
	return name
}

// span returns the source text from one position to another.
func (r *resolver) span(from, to lexer.Position) string {
	if src := r.text[from.Filename]; from.Offset >= 0 && from.Offset <= to.Offset && to.Offset <= len(src) {
		return string(src[from.Offset:to.Offset])
	}
	return ""
}

// selectItems resolves the select list of sc's query and names its items
// (see SelectItem): explicit aliases are reserved first, so that a derived
// name never takes one, whatever the order of the items.
func (r *resolver) selectItems(sc *scope, items []*gItem) {
	q := sc.q
	aliases := map[string]bool{}
	for _, it := range items {
		if it.Alias == "" {
			continue
		}
		if aliases[it.Alias] {
			r.fail(pos(it.Pos), "duplicate result column %s", it.Alias)
		}
		aliases[it.Alias] = true
	}
	taken := map[string]bool{}
	add := func(p Pos, n, label string, derived bool, e Expr) {
		if derived && (taken[n] || aliases[n]) {
			// Two derived names clash (e.g. e.name, m.name in a self-join):
			// qualify the later one with its table alias, then number it.
			if c, ok := e.(*ColRef); ok {
				n = c.Alias + "_" + c.Name
			}
			base := n
			for k := 2; taken[n] || aliases[n]; k++ {
				n = fmt.Sprintf("%s_%d", base, k)
			}
		}
		taken[n] = true
		q.Items = append(q.Items, &SelectItem{Pos: p, Name: n, Label: label, Expr: e})
	}
	for i, it := range items {
		p := pos(it.Pos)
		if it.Star || it.Of != "" {
			if it.Alias != "" {
				r.fail(p, "%s cannot have an alias", starText(it))
			}
			for _, c := range r.star(sc, p, it.Of) {
				add(p, c.Name, r.colLabel(sc, c), true, c)
			}
			continue
		}
		e := r.expr(it.Expr, ctx{sc: sc, clause: "SELECT", aggOK: true})
		e = r.value(e)
		if it.Alias != "" {
			add(p, it.Alias, r.span(lexer.Position{Filename: it.EndPos.Filename, Offset: it.EndPos.Offset - len(it.Alias)}, it.EndPos), false, e)
			continue
		}
		label := r.span(it.Expr.Pos, it.Expr.EndPos)
		c, bare := e.(*ColRef)
		if bare && isColumn(it.Expr) {
			label = r.colLabel(sc, c) // SQLite names a bare column as declared
		}
		if bare {
			add(p, c.Name, label, true, e)
			continue
		}
		add(p, fmt.Sprintf("COL%d", i+1), label, true, e)
	}
}

// isColumn reports whether g is a column reference, maybe in parentheses.
func isColumn(g *gExpr) bool {
	for p := g.prim(); p != nil; p = p.Paren.prim() {
		if p.Col != nil {
			return true
		}
		if p.Paren == nil {
			return false
		}
	}
	return false
}

// colLabel is SQLite's name of a result column that is the column c: its
// name as declared, in a table or a derived table.
func (r *resolver) colLabel(sc *scope, c *ColRef) string {
	s := sc
	for i := 0; i < c.Outer && s.parent != nil; i++ {
		s = s.parent
	}
	if c.From >= len(s.q.From) {
		return c.Name
	}
	f := s.q.From[c.From]
	if f.Rel != nil {
		return f.Rel.Columns[c.Col].Label
	}
	return f.Sub.Items[c.Col].Label
}

// joinList resolves a FROM list, or the list of a parenthesised join:
// each item joins the FROM list; NATURAL JOIN equalities are collected in
// the scope and ON conditions are left pending there (they are resolved
// once every item is visible, see resolveOns). It returns the list's
// comma-separated elements as join trees (outerjoin.go).
func (r *resolver) joinList(sc *scope, f *gFrom) []*Join {
	start := len(sc.q.From)
	var elems []*Join
	cur := r.fromItem(sc, f.First)
	for _, j := range f.Rest {
		jp := pos(j.Pos)
		if j.Outer != "" && !r.sql {
			r.fail(jp, "%s OUTER JOIN needs -dialect sql (the dbtoaster dialect has no NULLs)", j.Outer)
		}
		if j.Natural && j.Item.Group != nil {
			r.fail(pos(j.Item.Pos), "NATURAL JOIN with a parenthesised join is not supported (join its tables one by one)")
		}
		item := r.fromItem(sc, j.Item)
		switch {
		case j.Comma:
			if j.On != nil {
				r.fail(pos(j.On.Pos), "ON is only allowed after JOIN")
			}
			elems = append(elems, cur)
			cur = item
		case j.Inner || j.Outer != "":
			if j.On == nil {
				what := "JOIN"
				if j.Outer != "" {
					what = j.Outer + " OUTER JOIN"
				}
				r.fail(jp, "%s needs an ON condition (or use a comma or CROSS JOIN)", what)
			}
			kind := map[string]JoinKind{"": JoinInner, "LEFT": JoinLeft, "RIGHT": JoinRight, "FULL": JoinFull}[j.Outer]
			cur = &Join{Pos: jp, Kind: kind, L: cur, R: item}
			sc.ons = append(sc.ons, pendingOn{node: cur, g: j.On})
		case j.On != nil:
			r.fail(pos(j.On.Pos), "ON is only allowed after JOIN")
		case j.Natural:
			if start > 0 {
				// Flattened, it would also join the items before the group.
				r.fail(jp, "NATURAL JOIN inside a parenthesised join is only supported at the start of FROM")
			}
			sc.naturalConds = append(sc.naturalConds, r.naturalJoin(sc, len(sc.q.From)-1, jp)...)
			cur = &Join{Pos: jp, Kind: JoinInner, L: cur, R: item}
			sc.naturalAt = append(sc.naturalAt, cur) // outerJoins rejects it beside an outer join
		default: // CROSS JOIN
			cur = &Join{Pos: jp, Kind: JoinInner, L: cur, R: item}
		}
	}
	return append(elems, cur)
}

// fromGroup resolves a parenthesised join, (a JOIN b ON …) or (a, b): its
// items join the FROM list, and its tree is returned. A parenthesised table
// may have an alias, (a) AS t; a parenthesised join may not.
func (r *resolver) fromGroup(sc *scope, g *gFromItem) *Join {
	if g.Alias != "" {
		in := g.Group.First
		if len(g.Group.Rest) > 0 || in.Alias != "" || in.Group != nil {
			r.fail(pos(g.Pos), "a parenthesised join cannot have an alias")
		}
		return r.fromItem(sc, &gFromItem{Pos: in.Pos, Sub: in.Sub, Table: in.Table, Alias: g.Alias})
	}
	elems := r.joinList(sc, g.Group)
	j := elems[0]
	for _, e := range elems[1:] {
		j = &Join{Pos: j.Pos, Kind: JoinInner, L: j, R: e} // (a, b): a cross join
	}
	return j
}

// concat resolves a || b || …: a string, its operands converted to text.
func (r *resolver) concat(g *gConcat, c ctx) Expr {
	e := r.unary(g.Left, c)
	for _, arm := range g.Right {
		p := pos(arm.Pos)
		e = &Call{P: p, Name: "CONCAT", Args: []Expr{r.toText(p, "||", e), r.toText(p, "||", r.unary(arm.X, c))}, T: TString}
	}
	return e
}

// toText converts a value to text as SQLite does (SQL_CAST_STRING): the
// string arguments of the string functions and of ||.
func (r *resolver) toText(p Pos, what string, e Expr) Expr {
	e = r.value(e)
	settle(TString, e)
	switch e.Type() {
	case TString:
		return e
	case TInt, TFloat, TDate:
		return &Call{P: e.Pos(), Name: "SQL_CAST_STRING", Args: []Expr{e}, T: TString}
	}
	r.fail(p, "%s needs a STRING, INT, FLOAT or DATE, got %s", what, e.Type())
	return nil
}

// operand converts a condition to a value in dialect sql, for the operands
// of comparisons and arithmetic; in dialect dbtoaster it returns e, which
// the caller then rejects.
func (r *resolver) operand(e Expr) Expr {
	if r.sql && e.Type() == TBool {
		return boolValue(e)
	}
	return e
}

// boolValue is a condition c used as a value in dialect sql: CASE WHEN c
// THEN 1 ELSE 0 END, or, when c may be UNKNOWN, CASE WHEN c THEN 1 WHEN
// NOT c THEN 0 END (NOT pushed down, so UNKNOWN falls through to NULL).
func boolValue(c Expr) Expr {
	p := c.Pos()
	one, zero := &Lit{P: p, T: TInt, Int: 1}, &Lit{P: p, T: TInt, Int: 0}
	if !MayBeNull(c) {
		return &Case{P: p, Whens: []*When{{Cond: c, Then: one}}, Else: zero, T: TInt}
	}
	return &Case{P: p, Whens: []*When{{Cond: c, Then: one}, {Cond: negate(p, c), Then: zero}}, Else: &Lit{P: p, T: TInt, Null: true}, T: TInt}
}

// plainCall resolves the shared scalar functions (see the file comment); it
// returns nil for another function.
func (r *resolver) plainCall(p Pos, name string, args []Expr) Expr {
	arity := func(lo, hi int) {
		if len(args) >= lo && len(args) <= hi {
			return
		}
		want := fmt.Sprintf("%d or %d arguments", lo, hi)
		switch {
		case lo == hi && lo == 1:
			want = "1 argument"
		case lo == hi:
			want = fmt.Sprintf("%d arguments", lo)
		}
		r.fail(p, "%s takes %s, got %d", name, want, len(args))
	}
	intArg := func(i int) {
		settle(TInt, args[i])
		if args[i].Type() != TInt {
			r.fail(args[i].Pos(), "%s argument %d must be INT, got %s", name, i+1, args[i].Type())
		}
	}
	text := func(i int) { args[i] = r.toText(args[i].Pos(), name, args[i]) }
	switch name {
	case "ABS":
		arity(1, 1)
		settle(TInt, args[0])
		if !args[0].Type().Numeric() {
			r.fail(args[0].Pos(), "ABS needs an INT or FLOAT argument, got %s", args[0].Type())
		}
		return &Call{P: p, Name: name, Args: args, T: args[0].Type()}
	case "ROUND":
		arity(1, 2)
		settle(TFloat, args[0])
		if !args[0].Type().Numeric() {
			r.fail(args[0].Pos(), "ROUND needs an INT or FLOAT argument, got %s", args[0].Type())
		}
		if len(args) == 1 {
			args = append(args, &Lit{P: p, T: TInt})
		}
		intArg(1)
		return &Call{P: p, Name: name, Args: args, T: TFloat}
	case "LENGTH":
		arity(1, 1)
		text(0)
		return &Call{P: p, Name: name, Args: args, T: TInt}
	case "UPPER", "LOWER":
		arity(1, 1)
		text(0)
		return &Call{P: p, Name: name, Args: args, T: TString}
	case "TRIM", "LTRIM", "RTRIM":
		arity(1, 2)
		for i := range args {
			text(i)
		}
		return &Call{P: p, Name: name, Args: args, T: TString}
	case "SUBSTR", "SUBSTRING":
		arity(2, 3)
		if r.sql {
			text(0)
			for i := 1; i < len(args); i++ {
				intArg(i)
			}
			return &Call{P: p, Name: "SQL_SUBSTR", Args: args, T: TString}
		}
		want := []Type{TString, TInt, TInt}
		for i, a := range args {
			if a.Type() != want[i] {
				r.fail(a.Pos(), "%s argument %d must be %s, got %s", name, i+1, want[i], a.Type())
			}
		}
		if len(args) == 2 {
			args = append(args, &Lit{P: p, T: TInt, Int: math.MaxInt64}) // the rest of the string
		}
		return &Call{P: p, Name: "SUBSTRING", Args: args, T: TString}
	}
	return nil
}

// castAs resolves CAST(x AS t): DBToaster's CAST_* in dialect dbtoaster,
// SQLite's CAST in dialect sql (see the file comment).
func (r *resolver) castAs(p Pos, x Expr, as *gType) Expr {
	t := r.typ(as)
	if !r.sql {
		fn := map[Type]string{TInt: "CAST_INT", TFloat: "CAST_FLOAT", TString: "CAST_STRING", TDate: "CAST_DATE"}[t]
		return r.cast(p, fn, x)
	}
	x = r.value(x)
	settle(t, x)
	if t == TDate {
		return r.cast(p, "CAST_DATE", x)
	}
	if x.Type() == TDate && t != TString {
		r.fail(p, "CAST of a DATE AS %s is not supported in the sql dialect (SQLite has no DATE type; use EXTRACT)", as.Name)
	}
	switch {
	case x.Type() == t:
		return x
	case t == TString:
		return r.toText(p, "CAST", x)
	case t == TInt:
		return &Call{P: p, Name: "SQL_CAST_INT", Args: []Expr{x}, T: TInt}
	}
	return &Call{P: p, Name: "SQL_CAST_FLOAT", Args: []Expr{x}, T: TFloat}
}
