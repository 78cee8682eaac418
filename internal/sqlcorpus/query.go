package sqlcorpus

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// colRe matches a column reference (alias.column).
var colRe = regexp.MustCompile(`\b[a-z]+[0-9]+\.[a-z]`)

// top writes the top-level SELECT: a plain SELECT (a bag, or DISTINCT), a
// grouped aggregate, or an ungrouped one.
func (g *gen) top() string {
	sc := &scope{sub: 1}
	if g.p(0.15) {
		sc.sub = 2 // a subquery inside a subquery
	}
	from, where := g.from(sc)
	if g.p(0.75) {
		where = append(where, g.cond(sc, 2))
	}
	var b strings.Builder
	switch k := g.n(10); {
	case k < 4:
		g.use("select")
		b.WriteString("SELECT ")
		if g.p(0.25) {
			g.use("select-distinct")
			b.WriteString("DISTINCT ")
		}
		var items, exprs []string
		var types []Type
		for range 1 + g.n(3) {
			t := g.typeIn(sc)
			e := g.expr(sc, t, 2)
			types, exprs = append(types, t), append(exprs, e)
			items = append(items, g.item(e))
		}
		windowed := !strings.HasPrefix(b.String(), "SELECT DISTINCT ") && g.p(0.25)
		if windowed {
			g.windowed(&b, sc, exprs, items, from, where)
			break
		}
		b.WriteString(strings.Join(items, ", ") + " FROM " + from)
		writeWhere(&b, where)
		if g.p(0.15) {
			b.WriteString(g.orderLimitText(len(items)))
		} else if g.p(0.35) {
			// The first arm as the raw check runs it: columns c1, c2, ….
			var first strings.Builder
			first.WriteString("SELECT ")
			if strings.HasPrefix(b.String(), "SELECT DISTINCT ") {
				first.WriteString("DISTINCT ")
			}
			first.WriteString(aliased(exprs) + " FROM " + from)
			writeWhere(&first, where)
			g.compound(&b, types, first.String())
			if g.p(0.2) {
				// After the last arm: it orders and limits the compound.
				tail := g.orderLimitText(len(items))
				b.WriteString(tail)
				if g.raw != "" {
					g.raw += tail
				}
			}
		}
	case k < 8:
		g.use("group-by")
		own := &scope{items: sc.items}
		var keys, items []string
		for range 1 + g.n(2) {
			t := g.typeIn(own)
			key, _ := g.column(own, t)
			// A key reads a column: a constant key would be pointless, and
			// SQLite reads an integer constant as a select item's position.
			if e := g.expr(own, t, 1); g.p(0.3) && colRe.MatchString(e) {
				g.use("group-by-expr")
				key = e
			}
			keys = append(keys, key)
			if g.p(0.85) {
				items = append(items, g.item(key))
			} else {
				g.use("group-by-unselected")
			}
		}
		for range 1 + g.n(3) {
			items = append(items, g.item(g.aggExpr(own, g.typeIn(own), 1)))
		}
		having := g.p(0.35)
		filter := ""
		if !having && g.p(0.2) {
			w, rank := g.groupWindow(own, keys)
			if rank && g.p(0.4) {
				// The top groups: a filter on their rank, over the
				// grouped query as a derived table.
				g.use("window-groups-filter")
				for i, it := range items {
					if !strings.Contains(it, " AS ") {
						g.aliases++
						items[i] = fmt.Sprintf("%s AS x%d", it, g.aliases)
					}
				}
				g.aliases++
				name := fmt.Sprintf("w%d", g.aliases)
				w += " AS " + name
				filter = fmt.Sprintf("%s <= %d", name, 1+g.n(3))
				items = append(items, w)
			} else {
				items = append(items, g.item(w))
			}
		}
		g.rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		b.WriteString("SELECT " + strings.Join(items, ", ") + " FROM " + from)
		writeWhere(&b, where)
		b.WriteString(" GROUP BY " + strings.Join(keys, ", "))
		if having {
			b.WriteString(" HAVING " + g.having(own, keys))
		}
		if filter != "" {
			inner := b.String()
			b.Reset()
			b.WriteString("SELECT * FROM (" + inner + ") AS wq WHERE " + filter)
		}
		if g.p(0.15) {
			b.WriteString(g.orderLimitText(len(items)))
		}
		if text := b.String(); strings.Contains(text, moreTies) {
			// ROW_NUMBER over groups numbers peers by the view's keys:
			// the selected GROUP BY keys in SELECT order, then the others.
			var ties []string
			for _, it := range items {
				e, _, _ := strings.Cut(it, " AS ")
				if slices.Contains(keys, e) && !slices.Contains(ties, e) {
					ties = append(ties, e)
				}
			}
			for _, k := range keys {
				if !slices.Contains(ties, k) {
					ties = append(ties, k)
				}
			}
			b.Reset()
			b.WriteString(strings.ReplaceAll(text, moreTies, ""))
			g.raw = strings.ReplaceAll(text, moreTies, ", "+strings.Join(ties, ", "))
		}
	default:
		g.use("aggregate")
		own := &scope{items: sc.items}
		var items []string
		for range 1 + g.n(3) {
			items = append(items, g.item(g.aggExpr(own, g.typeIn(own), 1)))
		}
		b.WriteString("SELECT " + strings.Join(items, ", ") + " FROM " + from)
		writeWhere(&b, where)
	}
	return b.String()
}

// Placeholders in a ROW_NUMBER's OVER clause for the order of its peers
// (windowed), which the raw SQL spells out.
const (
	moreTies = "\x01" // after an ORDER BY: ", ties"
	onlyTies = "\x02" // without one: " ORDER BY ties"
)

// windowFn is a window function written by window.
type windowFn struct {
	text string
	kind string   // "rank", "row-number", "count" or "value"
	t    Type     // the type of a "value"
	keys []string // its PARTITION BY and ORDER BY columns
}

// window writes a window function over sc's rows: SUM, COUNT, AVG, MIN or
// MAX OVER (PARTITION BY columns), now and then with an ORDER BY column (a
// running SUM, COUNT or AVG; RANK; DENSE_RANK), or ROW_NUMBER.
func (g *gen) window(sc *scope) windowFn {
	var w windowFn
	var parts []string
	for range g.n(3) {
		if c, ok := g.column(sc, g.anyType()); ok {
			parts = append(parts, c)
		}
	}
	w.keys = parts
	over := ""
	if len(parts) > 0 {
		over = "PARTITION BY " + strings.Join(parts, ", ")
	}
	ordered := g.p(0.4)
	if ordered {
		c, ok := g.column(sc, g.anyType())
		if !ok {
			ordered = false
		} else {
			w.keys = append(w.keys, c)
			if over != "" {
				over += " "
			}
			over += "ORDER BY " + c
			if g.p(0.4) {
				over += " DESC"
			}
			if c2, ok := g.column(sc, g.anyType()); ok && g.p(0.3) {
				g.use("window-order-keys")
				w.keys = append(w.keys, c2)
				over += ", " + c2
				if g.p(0.4) {
					over += " DESC"
				}
			}
		}
	}
	// Not the bare NULL literal, as in agg.
	arg := func(t Type) string {
		e := g.expr(sc, t, 1)
		if e == "NULL" {
			e = g.literal(t)
		}
		return e
	}
	var call string
	switch k := g.n(8); {
	case k == 7:
		g.use("row-number")
		w.kind = "row-number"
		if ordered {
			over += moreTies
		} else {
			over += onlyTies
		}
		call = "ROW_NUMBER()"
	case ordered && k == 5:
		g.use("rank")
		w.kind = "rank"
		call = []string{"RANK()", "DENSE_RANK()"}[g.n(2)]
	case k < 2:
		g.use("window-count")
		w.kind = "count"
		call = "COUNT(*)"
		if k == 1 {
			call = "COUNT(" + arg(g.anyType()) + ")"
		}
	case k < 4 || ordered:
		g.use("window-sum")
		w.kind, w.t = "value", []Type{Int, Float}[g.n(2)]
		call = []string{"SUM", "AVG"}[g.n(2)] + "(" + arg(w.t) + ")"
	default:
		g.use("window-min-max")
		w.kind, w.t = "value", g.anyType()
		call = []string{"MIN", "MAX"}[g.n(2)] + "(" + arg(w.t) + ")"
	}
	if ordered {
		g.use("window-order")
	}
	w.text = call + " OVER (" + over + ")"
	return w
}

// windowed writes a plain SELECT of the items (over exprs) with one or two
// windows, now and then filtered on them: by a QUALIFY or a WHERE over it
// as a derived table. A ROW_NUMBER numbers peers by the view's keys, the
// items without windows, then the windows' columns (lang's Window.Ties):
// the raw SQL spells that order out, which SQLite would leave arbitrary.
func (g *gen) windowed(b *strings.Builder, sc *scope, exprs, items []string, from string, where []string) {
	filtered := g.p(0.4)
	var wins []windowFn
	ties := slices.Clone(exprs)
	names := map[int]string{}
	for range 1 + g.n(2) {
		w := g.window(sc)
		if w.kind == "row-number" && slices.ContainsFunc(wins, func(v windowFn) bool { return v.kind == w.kind }) {
			// Two numberings would pair a bag's equal rows' numbers
			// arbitrarily.
			continue
		}
		wins = append(wins, w)
		ties = append(ties, w.keys...)
		if filtered {
			g.aliases++
			names[len(wins)-1] = fmt.Sprintf("w%d", g.aliases)
			items = append(items, w.text+" AS "+names[len(wins)-1])
		} else {
			items = append(items, g.item(w.text))
		}
	}
	if filtered {
		// Every column named, for the derived table.
		for i := range exprs {
			if !strings.Contains(items[i], " AS ") {
				g.aliases++
				items[i] = fmt.Sprintf("%s AS x%d", items[i], g.aliases)
			}
		}
	}
	var q strings.Builder
	q.WriteString(b.String() + strings.Join(items, ", ") + " FROM " + from)
	writeWhere(&q, where)
	inner := q.String()
	text, raw := inner, inner
	numbered := strings.Contains(inner, moreTies) || strings.Contains(inner, onlyTies)
	if filtered {
		cond := g.windowFilter(wins, names)
		text = "SELECT * FROM (" + inner + ") AS wq WHERE " + cond
		if g.p(0.5) {
			g.use("qualify")
			text = inner + " QUALIFY " + cond
		} else {
			g.use("window-filter")
		}
		raw = "SELECT * FROM (" + inner + ") AS wq WHERE " + cond
	}
	if !numbered && g.p(0.15) {
		tail := g.orderLimitText(len(items))
		text += tail
		raw += tail
	}
	tieList := strings.Join(ties, ", ")
	text = strings.NewReplacer(moreTies, "", onlyTies, "").Replace(text)
	raw = strings.NewReplacer(moreTies, ", "+tieList, onlyTies, " ORDER BY "+tieList).Replace(raw)
	b.Reset()
	b.WriteString(text)
	if raw != text {
		g.raw = raw
	}
}

// windowFilter writes a condition on the windows, named by names: bounds
// on a rank or row number, comparisons of counts and values; joined by OR
// now and then, but not over a ROW_NUMBER (whose bounds must be an
// interval, joined by AND).
func (g *gen) windowFilter(wins []windowFn, names map[int]string) string {
	var conds []string
	anyRowNumber := false
	for range 1 + g.n(2) {
		i := g.n(len(wins))
		w, n := wins[i], names[i]
		k := 1 + g.n(3)
		switch w.kind {
		case "row-number":
			anyRowNumber = true
			conds = append(conds, []string{
				fmt.Sprintf("%s <= %d", n, k), fmt.Sprintf("%s = %d", n, k), fmt.Sprintf("%s > %d", n, k),
				fmt.Sprintf("%s BETWEEN %d AND %d", n, k, k+2)}[g.n(4)])
		case "rank":
			conds = append(conds, []string{
				fmt.Sprintf("%s <= %d", n, k), fmt.Sprintf("%s = %d", n, k), fmt.Sprintf("%s <> %d", n, k),
				fmt.Sprintf("%s BETWEEN %d AND %d", n, k, k+1)}[g.n(4)])
		case "count":
			conds = append(conds, fmt.Sprintf("%s >= %d", n, k))
		default:
			if g.p(0.3) {
				conds = append(conds, n+" IS NOT NULL")
			} else {
				conds = append(conds, n+" "+[]string{"<", ">", "<=", ">="}[g.n(4)]+" "+g.literal(w.t))
			}
		}
	}
	// Bounds on two ROW_NUMBERs are not supported: keep one's.
	var rn string
	kept := conds[:0]
	for _, c := range conds {
		name, _, _ := strings.Cut(c, " ")
		if isRowNumber(wins, names, name) {
			if rn != "" && rn != name {
				continue
			}
			rn = name
		}
		kept = append(kept, c)
	}
	op := " AND "
	if !anyRowNumber && g.p(0.3) {
		op = " OR "
	}
	return strings.Join(kept, op)
}

// isRowNumber reports whether the window named n is a ROW_NUMBER.
func isRowNumber(wins []windowFn, names map[int]string, n string) bool {
	for i, w := range wins {
		if names[i] == n {
			return w.kind == "row-number"
		}
	}
	return false
}

// groupWindow writes a window over the groups of a grouped query: SUM or
// AVG of a group's SUM or COUNT, or COUNT(*), over all groups or those
// sharing a GROUP BY key; or RANK, DENSE_RANK or ROW_NUMBER ordered by a
// key or by the groups' SUM, COUNT or AVG (rank reports those).
func (g *gen) groupWindow(own *scope, keys []string) (text string, rank bool) {
	g.use("window-groups")
	over := ""
	if g.p(0.4) {
		over = "PARTITION BY " + keys[g.n(len(keys))]
	}
	if g.p(0.3) {
		if over != "" {
			over += " "
		}
		by := keys[g.n(len(keys))]
		if g.p(0.5) {
			// A leaderboard: ordered by an aggregate of the groups.
			g.use("window-groups-by-aggregate")
			e := g.expr(own, []Type{Int, Float}[g.n(2)], 1)
			if e == "NULL" {
				e = "1"
			}
			by = []string{"SUM(" + e + ")", "COUNT(*)", "AVG(" + e + ")"}[g.n(3)]
		}
		over += "ORDER BY " + by
		if g.p(0.4) {
			over += " DESC"
		}
		if g.p(0.4) || by != keys[0] && !slices.Contains(keys, by) {
			fn := []string{"RANK()", "DENSE_RANK()", "ROW_NUMBER()"}[g.n(3)]
			if fn == "ROW_NUMBER()" {
				over += moreTies // the raw SQL spells its ties (top)
			}
			return fn + " OVER (" + over + ")", true
		}
	}
	var call string
	switch g.n(3) {
	case 0:
		call = "COUNT(*)"
	case 1:
		call = []string{"SUM", "AVG"}[g.n(2)] + "(COUNT(*))"
	default:
		e := g.expr(own, []Type{Int, Float}[g.n(2)], 1)
		if e == "NULL" {
			e = "1"
		}
		call = []string{"SUM", "AVG"}[g.n(2)] + "(SUM(" + e + "))"
	}
	return call + " OVER (" + over + ")", false
}

// orderLimitText is an ORDER BY of every column of the SELECT list (by
// position, in a random order and directions: a total order but for equal
// rows, so that the rows a LIMIT keeps are the same in SQLite) and a LIMIT,
// sometimes with an OFFSET.
func (g *gen) orderLimitText(n int) string {
	var b strings.Builder
	g.use("limit")
	var keys []string
	for _, i := range g.rng.Perm(n) {
		k := strconv.Itoa(i + 1)
		if g.p(0.4) {
			k += " DESC"
		}
		keys = append(keys, k)
	}
	b.WriteString(" ORDER BY " + strings.Join(keys, ", ") + " LIMIT " + strconv.Itoa(g.n(6)))
	if g.p(0.3) {
		b.WriteString(" OFFSET " + strconv.Itoa(1+g.n(3)))
	}
	return b.String()
}

// compound appends one or two arms to a plain SELECT whose columns have
// the given types: UNION, INTERSECT or EXCEPT, with or without ALL, each
// arm a SELECT of its own over other (or the same) relations. SQLite has
// no INTERSECT ALL or EXCEPT ALL, so the raw check (raw_test.go) runs
// g.raw instead: the same chain, folded left to right, with each bag
// operator spelled as the set operator over rows numbered within their
// copies (ROW_NUMBER() OVER (PARTITION BY every column)), built here from
// the arms, apart from lang's translation. first is the first arm with its
// columns named c1, c2, ….
func (g *gen) compound(b *strings.Builder, types []Type, first string) {
	g.use("compound")
	cols := make([]string, len(types))
	for i := range cols {
		cols[i] = fmt.Sprintf("c%d", i+1)
	}
	numbered := func(q string) string {
		return "SELECT *, ROW_NUMBER() OVER (PARTITION BY " + strings.Join(cols, ", ") + ") AS tg_n FROM (" + q + ")"
	}
	raw, bag := first, false
	for range 1 + g.n(2) {
		op := []string{"UNION", "INTERSECT", "EXCEPT"}[g.n(3)]
		g.use(strings.ToLower(op))
		all := g.p(0.5)
		b.WriteString(" " + op)
		if all {
			g.use(strings.ToLower(op) + "-all")
			b.WriteString(" ALL")
		}
		sc := &scope{sub: 1}
		from, where := g.from(sc)
		if g.p(0.6) {
			where = append(where, g.cond(sc, 1))
		}
		var exprs []string
		for _, t := range types {
			exprs = append(exprs, g.expr(sc, t, 1))
		}
		b.WriteString(" SELECT " + strings.Join(exprs, ", ") + " FROM " + from)
		writeWhere(b, where)
		var arm strings.Builder
		arm.WriteString("SELECT " + aliased(exprs) + " FROM " + from)
		writeWhere(&arm, where)
		if all && op != "UNION" {
			bag = true
			raw = "SELECT " + strings.Join(cols, ", ") + " FROM (" + numbered(raw) + " " + op + " " + numbered(arm.String()) + ")"
			continue
		}
		if all {
			op += " ALL"
		}
		raw += " " + op + " " + arm.String()
	}
	if bag {
		g.raw = raw
	}
}

// aliased names expressions c1, c2, ….
func aliased(exprs []string) string {
	out := make([]string, len(exprs))
	for i, e := range exprs {
		out[i] = fmt.Sprintf("%s AS c%d", e, i+1)
	}
	return strings.Join(out, ", ")
}

func writeWhere(b *strings.Builder, conds []string) {
	if len(conds) > 0 {
		b.WriteString(" WHERE " + strings.Join(conds, " AND "))
	}
}

// anyType is INT, FLOAT or STRING, INT the most often.
func (g *gen) anyType() Type { return []Type{Int, Int, Float, String}[g.n(4)] }

// item names a select item now and then.
func (g *gen) item(e string) string {
	if g.p(0.2) {
		g.aliases++
		return fmt.Sprintf("%s AS x%d", e, g.aliases)
	}
	return e
}

// bind adds an aliased FROM item for t to sc.
func (g *gen) bind(sc *scope, t *Table) string {
	g.aliases++
	a := fmt.Sprintf("%s%d", strings.ToLower(t.Name), g.aliases)
	sc.items = append(sc.items, binding{a, t})
	return t.Name + " " + a
}

// table picks a relation.
func (g *gen) table() *Table { return &g.tables[g.n(len(g.tables))] }

// joinEq writes an equality between a column of b and one of the items
// before it in sc, of a comparable type (every relation has an INT
// column).
func (g *gen) joinEq(sc *scope, b binding) string {
	left := &scope{items: sc.items[:len(sc.items)-1]}
	right := &scope{items: []binding{b}}
	match := isNumeric
	if g.p(0.2) && len(left.cols(is(String))) > 0 && len(right.cols(is(String))) > 0 {
		match = is(String)
	}
	ls, rs := left.cols(match), right.cols(match)
	return ls[g.n(len(ls))].text + " = " + rs[g.n(len(rs))].text
}

// from writes the FROM clause of a top-level query: one to three items,
// joined by commas (the join equalities returned as WHERE conjuncts; now
// and then none: a cross product) or by [INNER|LEFT|RIGHT|FULL] JOIN … ON.
func (g *gen) from(sc *scope) (string, []string) {
	k := 1
	if r := g.n(20); r >= 9 {
		k = 2
		if r >= 17 {
			k = 3
		}
	}
	text := g.bind(sc, g.table())
	var where []string
	comma := g.p(0.5)
	for range k - 1 {
		item := g.bind(sc, g.table())
		eq := g.joinEq(sc, sc.items[len(sc.items)-1])
		if comma {
			g.use("comma-join")
			text += ", " + item
			if g.p(0.1) {
				g.use("cross-product")
			} else {
				where = append(where, eq)
			}
			continue
		}
		kinds := []string{"JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "RIGHT JOIN", "FULL JOIN", "FULL OUTER JOIN"}
		kind := kinds[g.n(len(kinds))]
		g.use(map[byte]string{'J': "inner-join", 'I': "inner-join", 'L': "left-join", 'R': "right-join", 'F': "full-join"}[kind[0]])
		on := eq
		if g.p(0.3) {
			own := &scope{items: sc.items}
			on = "(" + eq + " AND " + g.atom(own, 0) + ")"
		}
		text += " " + kind + " " + item + " ON " + on
	}
	return text, where
}

// aggExpr writes an expression of type t over aggregates of own's rows:
// an aggregate, or (d > 0) arithmetic, COALESCE or CASE over aggregates.
func (g *gen) aggExpr(own *scope, t Type, d int) string {
	if d > 0 && g.p(0.3) {
		switch g.n(3) {
		case 0:
			if t.numeric() {
				g.use("agg-arith")
				op := []string{"+", "-", "*", "/"}[g.n(4)]
				return "(" + g.aggExpr(own, t, d-1) + " " + op + " " + g.aggExpr(own, []Type{Int, t}[g.n(2)], d-1) + ")"
			}
		case 1:
			g.use("coalesce")
			return "COALESCE(" + g.agg(own, t) + ", " + g.literal(t) + ")"
		case 2:
			g.use("case-agg")
			return "CASE WHEN " + g.agg(own, Int) + " " + cmpOps[g.n(len(cmpOps))] + " " + g.literal(Int) +
				" THEN " + g.agg(own, t) + " ELSE " + g.literal(t) + " END"
		}
	}
	return g.agg(own, t)
}

// agg writes one aggregate of type t over own's rows, DISTINCT now and
// then. Its argument reads own's columns only (an aggregate of an
// enclosing query's columns would belong to that query).
func (g *gen) agg(own *scope, t Type) string {
	own = &scope{items: own.items}
	distinct := ""
	if g.p(0.2) {
		g.use("agg-distinct")
		distinct = "DISTINCT "
	}
	// Not the bare NULL literal: PostgreSQL cannot type SUM(NULL).
	arg := func(t Type) string {
		e := g.expr(own, t, 1)
		if e == "NULL" {
			e = g.literal(t)
		}
		return distinct + e
	}
	minmax := func() string {
		g.use("min-max")
		return []string{"MIN", "MAX"}[g.n(2)] + "(" + arg(t) + ")"
	}
	switch t {
	case Int:
		switch g.n(5) {
		case 0:
			g.use("count-star")
			return "COUNT(*)"
		case 1:
			g.use("count")
			return "COUNT(" + arg(g.anyType()) + ")"
		case 2, 3:
			g.use("sum")
			return "SUM(" + arg(Int) + ")"
		}
		return minmax()
	case Float:
		switch g.n(3) {
		case 0:
			g.use("avg")
			return "AVG(" + arg([]Type{Int, Float}[g.n(2)]) + ")"
		case 1:
			g.use("sum")
			return "SUM(" + arg(Float) + ")"
		}
		return minmax()
	}
	return minmax()
}

// having writes a HAVING condition: comparisons of aggregates, and of the
// GROUP BY keys with IS [NOT] NULL.
func (g *gen) having(own *scope, keys []string) string {
	g.use("having")
	c := g.aggExpr(own, []Type{Int, Float}[g.n(2)], 1) + " " + cmpOps[g.n(len(cmpOps))] + " " + g.literal(Int)
	switch g.n(4) {
	case 0:
		return "(" + c + " AND " + keys[g.n(len(keys))] + " IS NOT NULL)"
	case 1:
		return "(" + c + " OR " + g.aggExpr(own, Int, 0) + " > " + g.literal(Int) + ")"
	}
	return c
}

// subquery writes the FROM and WHERE of a subquery of sc: one relation, or
// two in a comma join; correlated with sc (an equality, now and then an
// inequality) more often than not; with a local condition half the time.
func (g *gen) subquery(sc *scope) (*scope, string) {
	in := &scope{outer: sc, sub: sc.sub - 1}
	from := g.bind(in, g.table())
	var where []string
	if g.p(0.2) {
		g.use("subquery-join")
		from += ", " + g.bind(in, g.table())
		where = append(where, g.joinEq(in, in.items[1]))
	}
	if g.p(0.65) {
		g.use("correlated-subquery")
		inner := in.items[g.n(len(in.items))]
		mine := (&scope{items: []binding{inner}}).cols(isNumeric)
		outer := sc.cols(isNumeric)
		op := "="
		if g.p(0.2) {
			g.use("inequality-correlation")
			op = cmpOps[1+g.n(len(cmpOps)-1)]
		}
		where = append(where, mine[g.n(len(mine))].text+" "+op+" "+outer[g.n(len(outer))].text)
	}
	if g.p(0.5) {
		where = append(where, g.cond(in, 1))
	}
	if len(where) > 0 {
		from += " WHERE " + strings.Join(where, " AND ")
	}
	return in, from
}

// inSub writes e [NOT] IN (SELECT col …).
func (g *gen) inSub(sc *scope) string {
	g.use("in-subquery")
	t := []Type{Int, Int, Float, String}[g.n(4)]
	in, from := g.subquery(sc)
	col, ok := g.column(&scope{items: in.items}, t)
	if !ok {
		t = Int
		col, _ = g.column(&scope{items: in.items}, t)
	}
	not := ""
	if g.p(0.4) {
		g.use("not-in-subquery")
		not = "NOT "
	}
	distinct := ""
	if g.p(0.2) {
		distinct = "DISTINCT "
	}
	return g.expr(sc, t, 1) + " " + not + "IN (SELECT " + distinct + col + " FROM " + from + ")"
}

// existsSub writes [NOT] EXISTS (SELECT col …).
func (g *gen) existsSub(sc *scope) string {
	g.use("exists")
	in, from := g.subquery(sc)
	not := ""
	if g.p(0.4) {
		g.use("not-exists")
		not = "NOT "
	}
	col, _ := g.column(&scope{items: in.items}, Int)
	return not + "EXISTS (SELECT " + col + " FROM " + from + ")"
}

// scalarSub writes (SELECT agg …): one row, its aggregate NULL (or COUNT
// 0) over no rows.
func (g *gen) scalarSub(sc *scope, t Type) string {
	g.use("scalar-subquery")
	in, from := g.subquery(sc)
	return "(SELECT " + g.agg(in, t) + " FROM " + from + ")"
}
