package sqlcorpus

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// gen is the state of one query's generation.
type gen struct {
	rng     *rand.Rand
	tables  []Table
	aliases int
	feats   map[string]bool
	raw     string // the query as the raw check runs it, if not as written (compound)
}

// use records a feature.
func (g *gen) use(f string) { g.feats[f] = true }

// n returns a number in [0, k).
func (g *gen) n(k int) int { return g.rng.IntN(k) }

// p is true with probability x.
func (g *gen) p(x float64) bool { return g.rng.Float64() < x }

// binding is a FROM item in scope: an alias of a table.
type binding struct {
	alias string
	t     *Table
}

// scope is the FROM items visible to an expression: those of its query,
// then those of the enclosing queries (correlation). Subqueries are
// allowed in its expressions while sub > 0 (the remaining nesting).
type scope struct {
	items []binding
	outer *scope
	sub   int
}

// colRef is a column reference of a given type.
type colRef struct {
	text    string
	t       Type
	notNull bool
	outer   bool // from an enclosing query
}

// cols returns the columns of type t (numeric: INT or FLOAT when t is
// numeric and any is set) of sc's own items, then of its enclosing ones.
func (sc *scope) cols(match func(Type) bool) []colRef {
	var out []colRef
	outer := false
	for s := sc; s != nil; s = s.outer {
		for _, b := range s.items {
			for _, c := range b.t.Columns {
				if match(c.Type) {
					out = append(out, colRef{b.alias + "." + c.Name, c.Type, c.NotNull, outer})
				}
			}
		}
		outer = true
	}
	return out
}

func is(t Type) func(Type) bool { return func(u Type) bool { return u == t } }

func isNumeric(t Type) bool { return t.numeric() }

// column picks a column of type t, from sc's own items with probability
// 0.85 when it has some; ok is false when there is none.
func (g *gen) column(sc *scope, t Type) (string, bool) {
	all := sc.cols(is(t))
	var own []colRef
	for _, c := range all {
		if !c.outer {
			own = append(own, c)
		}
	}
	if len(own) > 0 && (len(own) == len(all) || g.p(0.85)) {
		return own[g.n(len(own))].text, true
	}
	if len(all) == 0 {
		return "", false
	}
	g.use("correlated")
	return all[g.n(len(all))].text, true
}

// literal writes a constant of type t.
func (g *gen) literal(t Type) string {
	switch t {
	case Int:
		return fmt.Sprint(g.n(7) - 1)
	case Float:
		s := strconv.FormatFloat(float64(g.n(20)-2)/4, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	return quote(words[g.n(len(words))])
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// leaf is a column of type t (or, without one, a literal; rarely NULL).
func (g *gen) leaf(sc *scope, t Type) string {
	if g.p(0.04) {
		g.use("null-literal")
		return "NULL"
	}
	if g.p(0.75) {
		if c, ok := g.column(sc, t); ok {
			return c
		}
		// No column of type t: a conversion of an INT column.
		if c, ok := g.column(sc, Int); ok && t != Int && g.p(0.6) {
			if t == Float {
				return "(" + c + " * 0.5)"
			}
			g.use("cast")
			return "CAST(" + c + " AS TEXT)"
		}
	}
	return g.literal(t)
}

// typeIn picks the type of a column of sc's own items (weighted by how
// many there are), INT without one.
func (g *gen) typeIn(sc *scope) Type {
	var ts []Type
	for _, b := range sc.items {
		for _, c := range b.t.Columns {
			ts = append(ts, c.Type)
		}
	}
	if len(ts) == 0 || g.p(0.1) {
		return Int
	}
	return ts[g.n(len(ts))]
}

// expr writes a value expression of type t with at most d levels of
// operators.
func (g *gen) expr(sc *scope, t Type, d int) string {
	if d <= 0 || g.p(0.35) {
		return g.leaf(sc, t)
	}
	switch t {
	case Int:
		return g.intExpr(sc, d)
	case Float:
		return g.floatExpr(sc, d)
	}
	return g.stringExpr(sc, d)
}

func (g *gen) intExpr(sc *scope, d int) string {
	switch g.n(14) {
	case 0, 1:
		op := []string{"+", "-", "*"}[g.n(3)]
		g.use("arith")
		return "(" + g.expr(sc, Int, d-1) + " " + op + " " + g.expr(sc, Int, d-1) + ")"
	case 2:
		g.use("int-div")
		return "(" + g.expr(sc, Int, d-1) + " / " + g.divisor(sc, Int, d) + ")"
	case 3:
		g.use("mod")
		return "(" + g.expr(sc, Int, d-1) + " % " + g.divisor(sc, Int, d) + ")"
	case 4:
		g.use("neg")
		return "(- " + g.expr(sc, Int, d-1) + ")"
	case 5:
		g.use("abs")
		return "ABS(" + g.expr(sc, Int, d-1) + ")"
	case 6:
		g.use("length")
		return "LENGTH(" + g.expr(sc, String, d-1) + ")"
	case 7:
		g.use("cast")
		if g.p(0.7) {
			return "CAST(" + g.expr(sc, Float, d-1) + " AS INTEGER)"
		}
		return "CAST(" + g.expr(sc, String, d-1) + " AS INTEGER)"
	case 8, 9:
		return g.caseExpr(sc, Int, d)
	case 10, 11:
		return g.nullFn(sc, Int, d)
	case 12:
		if sc.sub > 0 {
			return g.scalarSub(sc, Int)
		}
	}
	return g.leaf(sc, Int)
}

// divisor is the right operand of / or %: a literal 0 now and then.
func (g *gen) divisor(sc *scope, t Type, d int) string {
	if g.p(0.15) {
		g.use("div-zero")
		return "0"
	}
	return g.expr(sc, t, d-1)
}

func (g *gen) floatExpr(sc *scope, d int) string {
	switch g.n(13) {
	case 0, 1:
		op := []string{"+", "-", "*"}[g.n(3)]
		g.use("arith")
		a, b := g.expr(sc, Float, d-1), g.expr(sc, Int, d-1)
		if g.p(0.5) {
			a, b = b, a
		}
		return "(" + a + " " + op + " " + b + ")"
	case 2:
		g.use("float-div")
		return "(" + g.expr(sc, Float, d-1) + " / " + g.divisor(sc, []Type{Int, Float}[g.n(2)], d) + ")"
	case 3:
		g.use("neg")
		return "(- " + g.expr(sc, Float, d-1) + ")"
	case 4:
		g.use("abs")
		return "ABS(" + g.expr(sc, Float, d-1) + ")"
	case 5:
		g.use("round")
		if g.p(0.5) {
			return "ROUND(" + g.expr(sc, Float, d-1) + ")"
		}
		return "ROUND(" + g.expr(sc, Float, d-1) + ", " + fmt.Sprint(g.n(3)) + ")"
	case 6:
		g.use("cast")
		return "CAST(" + g.expr(sc, Int, d-1) + " AS REAL)"
	case 7, 8:
		return g.caseExpr(sc, Float, d)
	case 9, 10:
		return g.nullFn(sc, Float, d)
	case 11:
		if sc.sub > 0 {
			return g.scalarSub(sc, Float)
		}
	}
	return g.leaf(sc, Float)
}

func (g *gen) stringExpr(sc *scope, d int) string {
	switch g.n(12) {
	case 0:
		g.use("upper-lower")
		return []string{"UPPER", "LOWER"}[g.n(2)] + "(" + g.expr(sc, String, d-1) + ")"
	case 1:
		g.use("trim")
		return "TRIM(" + g.expr(sc, String, d-1) + ")"
	case 2, 3:
		g.use("substr")
		start := fmt.Sprint(g.n(6) - 2)
		if g.p(0.3) {
			start = g.expr(sc, Int, d-1)
		}
		if g.p(0.4) {
			return "SUBSTR(" + g.expr(sc, String, d-1) + ", " + start + ")"
		}
		return "SUBSTR(" + g.expr(sc, String, d-1) + ", " + start + ", " + fmt.Sprint(g.n(5)-1) + ")"
	case 4, 5:
		g.use("concat")
		b := g.expr(sc, String, d-1)
		if g.p(0.25) {
			b = g.expr(sc, Int, d-1)
		}
		return "(" + g.expr(sc, String, d-1) + " || " + b + ")"
	case 6:
		g.use("cast")
		return "CAST(" + g.expr(sc, []Type{Int, Float}[g.n(2)], d-1) + " AS TEXT)"
	case 7, 8:
		return g.caseExpr(sc, String, d)
	case 9, 10:
		return g.nullFn(sc, String, d)
	case 11:
		if sc.sub > 0 {
			return g.scalarSub(sc, String)
		}
	}
	return g.leaf(sc, String)
}

// caseExpr writes a searched or simple CASE of type t, with or without
// ELSE (then NULL when no branch holds).
func (g *gen) caseExpr(sc *scope, t Type, d int) string {
	var b strings.Builder
	b.WriteString("CASE")
	simple := g.p(0.3)
	var subject Type
	if simple {
		g.use("case-simple")
		subject = []Type{Int, String}[g.n(2)]
		b.WriteString(" " + g.expr(sc, subject, d-1))
	}
	for range 1 + g.n(2) {
		if simple {
			b.WriteString(" WHEN " + g.literal(subject))
		} else {
			b.WriteString(" WHEN " + g.cond(sc, d-1))
		}
		b.WriteString(" THEN " + g.expr(sc, t, d-1))
	}
	if g.p(0.6) {
		g.use("case-else")
		b.WriteString(" ELSE " + g.expr(sc, t, d-1))
	} else {
		g.use("case-no-else")
	}
	b.WriteString(" END")
	return b.String()
}

// nullFn writes COALESCE, IFNULL or NULLIF of type t.
func (g *gen) nullFn(sc *scope, t Type, d int) string {
	switch g.n(3) {
	case 0:
		g.use("coalesce")
		args := []string{g.expr(sc, t, d-1), g.expr(sc, t, d-1)}
		if g.p(0.4) {
			args = append(args, g.literal(t))
		}
		return "COALESCE(" + strings.Join(args, ", ") + ")"
	case 1:
		g.use("ifnull")
		return "IFNULL(" + g.expr(sc, t, d-1) + ", " + g.literal(t) + ")"
	}
	g.use("nullif")
	return "NULLIF(" + g.expr(sc, t, d-1) + ", " + g.expr(sc, t, d-1) + ")"
}

// operands writes two expressions that compare: both numeric or both
// strings.
func (g *gen) operands(sc *scope, d int) (string, string) {
	if g.p(0.25) {
		return g.expr(sc, String, d), g.expr(sc, String, d)
	}
	return g.expr(sc, []Type{Int, Int, Float}[g.n(3)], d), g.expr(sc, []Type{Int, Float}[g.n(2)], d)
}

var cmpOps = []string{"=", "<>", "<", "<=", ">", ">=", "!="}

// cond writes a condition with at most d levels of connectives.
func (g *gen) cond(sc *scope, d int) string {
	if d <= 0 {
		return g.atom(sc, 0)
	}
	switch g.n(10) {
	case 0, 1:
		g.use("and")
		return "(" + g.cond(sc, d-1) + " AND " + g.cond(sc, d-1) + ")"
	case 2, 3:
		g.use("or")
		return "(" + g.cond(sc, d-1) + " OR " + g.cond(sc, d-1) + ")"
	case 4:
		g.use("not")
		return "NOT (" + g.cond(sc, d-1) + ")"
	}
	return g.atom(sc, d-1)
}

// atom writes a predicate whose operands have at most d levels.
func (g *gen) atom(sc *scope, d int) string {
	k := 11
	if sc.sub > 0 {
		k = 15
	}
	switch g.n(k) {
	case 0, 1, 2:
		g.use("compare")
		a, b := g.operands(sc, d)
		return a + " " + cmpOps[g.n(len(cmpOps))] + " " + b
	case 3:
		g.use("between")
		not := ""
		if g.p(0.3) {
			not = "NOT "
		}
		t := []Type{Int, Float}[g.n(2)]
		return g.expr(sc, t, d) + " " + not + "BETWEEN " + g.literal(t) + " AND " + g.literal(t)
	case 4:
		g.use("in-list")
		t := []Type{Int, Int, String}[g.n(3)]
		var items []string
		for range 1 + g.n(3) {
			items = append(items, g.literal(t))
		}
		if g.p(0.25) {
			g.use("in-list-null")
			items = append(items, "NULL")
		}
		not := ""
		if g.p(0.3) {
			not = "NOT "
		}
		return g.expr(sc, t, d) + " " + not + "IN (" + strings.Join(items, ", ") + ")"
	case 5, 6:
		g.use("is-null")
		t := []Type{Int, Float, String}[g.n(3)]
		return g.expr(sc, t, d) + []string{" IS NULL", " IS NOT NULL"}[g.n(2)]
	case 7:
		g.use("is-distinct")
		a, b := g.operands(sc, d)
		return a + []string{" IS DISTINCT FROM ", " IS NOT DISTINCT FROM "}[g.n(2)] + b
	case 8:
		g.use("like")
		not := ""
		if g.p(0.3) {
			not = "NOT "
		}
		return g.expr(sc, String, d) + " " + not + "LIKE " + quote(likePatterns[g.n(len(likePatterns))])
	case 9:
		g.use("bool-const")
		return []string{"1 = 1", "1 = 0", "NULL = 1"}[g.n(3)]
	case 10:
		g.use("compare")
		a, b := g.operands(sc, d)
		return a + " " + cmpOps[g.n(len(cmpOps))] + " " + b
	case 11, 12:
		return g.inSub(sc)
	case 13:
		return g.existsSub(sc)
	}
	g.use("scalar-subquery")
	t := []Type{Int, Float}[g.n(2)]
	return g.expr(sc, t, d) + " " + cmpOps[g.n(len(cmpOps))] + " " + g.scalarSub(sc, t)
}
