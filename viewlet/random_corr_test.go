package viewlet_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// TestRandomCorrelations is a random differential test of the shapes of
// issue 8's families I and D: subqueries correlated by inequalities (mixed
// with equalities, through joins, grouped inside IN and EXISTS, in SELECT
// and HAVING, two levels deep) and computed columns of derived tables
// (joins and UNION ALL) compared by inequalities. Each query runs in the
// interpreter at every depth (unbounded, 1, 0) against SQLite after every
// event. TOASTGEN_RANDOM_CORR=N runs N queries (default 60; 0 with -short).
// A query the front end rejects counts as rejected and is logged; the
// compiler must accept every one it gets.
func TestRandomCorrelations(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 0
	}
	if s := os.Getenv("TOASTGEN_RANDOM_CORR"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		n = v
	}
	const schema = `CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
`
	rejected := 0
	for i := 0; i < n; i++ {
		rng := rand.New(rand.NewPCG(uint64(i), 0xc0441))
		q := groupKeys(randomCorrQuery(rng))
		src := schema + q + "\n"
		f, err := lang.Parse(fmt.Sprintf("random%d.sql", i), []byte(src))
		if err != nil {
			t.Fatalf("query %d: %s\n%v", i, q, err)
		}
		qs, err := calculus.FromSQL(f)
		if err != nil {
			rejected++
			t.Logf("query %d rejected: %s\n%v", i, q, err)
			continue
		}
		for _, depth := range []int{viewlet.Unbounded, 1, 0} {
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
			if err != nil {
				t.Fatalf("query %d depth %d: %s\n%v", i, depth, q, err)
			}
			s := oracle.Generate(f, int64(i), 150, 0.3, oracle.Domain{Ints: 5})
			ok := t.Run(fmt.Sprintf("q%d/depth=%d", i, depth), func(t *testing.T) {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s\npanic: %v", q, r)
					}
				}()
				runDiff(t, q, depth, int64(i), f, p, s, false)
			})
			if !ok {
				t.Logf("failing query %d: %s", i, q)
			}
		}
	}
	t.Logf("%d queries, %d rejected by the front end", n, rejected)
}

// randomCorrQuery returns one query over S(B, C), T(C, D), U(C, E).
func randomCorrQuery(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	op := func() string { return pick("<", "<=", ">", ">=", "=", "<>") }
	ineq := func() string { return pick("<", "<=", ">", ">=", "<>") }
	// corr returns 1–3 correlation conditions between inner columns and
	// outer ones, at least one an inequality.
	corr := func(inner, outer []string) string {
		k := 1 + rng.IntN(3)
		var cs []string
		for j := 0; j < k; j++ {
			o := ineq()
			if j > 0 {
				o = op()
			}
			rhs := pick(outer...)
			if rng.IntN(4) == 0 {
				rhs += " + " + pick("1", "2")
			}
			cs = append(cs, pick(inner...)+" "+o+" "+rhs)
		}
		return strings.Join(cs, " AND ")
	}
	innerFrom := func() (string, []string, string) {
		if rng.IntN(3) == 0 {
			return "T t, U u", []string{"t.C", "t.D", "u.E"}, "t.C = u.C AND "
		}
		return "T t", []string{"t.C", "t.D"}, ""
	}
	agg := func(cols []string) string {
		return pick("COUNT(*)", "SUM("+pick(cols...)+")")
	}
	switch rng.IntN(9) {
	case 0: // scalar subquery in SELECT of a grouped query
		from, cols, join := innerFrom()
		keys := pick("s.C", "s.B, s.C")
		outer := strings.Split(keys, ", ")
		return fmt.Sprintf("SELECT %s, %s AS w, (SELECT %s FROM %s WHERE %s%s) AS v FROM S s GROUP BY %s;",
			keys, agg([]string{"s.B", "s.C"}), agg(cols), from, join, corr(cols, outer), keys)
	case 1: // in HAVING
		from, cols, join := innerFrom()
		return fmt.Sprintf("SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING %s %s (SELECT %s FROM %s WHERE %s%s);",
			pick("COUNT(*)", "SUM(s.B)"), op(), agg(cols), from, join, corr(cols, []string{"s.C"}))
	case 2: // grouped IN in WHERE
		from, cols, join := innerFrom()
		having := ""
		if rng.IntN(3) == 0 {
			having = " HAVING COUNT(*) > 1"
		}
		return fmt.Sprintf("SELECT %s FROM S s WHERE s.%s %sIN (SELECT t.C FROM %s WHERE %s%s GROUP BY t.C%s);",
			pick("COUNT(*) AS v", "SUM(s.B) AS v", "s.B, COUNT(*) AS v"), pick("B", "C"), pick("", "NOT "),
			from, join, corr(cols, []string{"s.B", "s.C"}), having)
	case 3: // EXISTS, grouped or not
		from, cols, join := innerFrom()
		group := ""
		sel := "*"
		if rng.IntN(2) == 0 {
			group, sel = " GROUP BY t.C", "t.C"
		}
		return fmt.Sprintf("SELECT COUNT(*) AS v FROM S s WHERE %sEXISTS (SELECT %s FROM %s WHERE %s%s%s);",
			pick("", "NOT "), sel, from, join, corr(cols, []string{"s.B", "s.C"}), group)
	case 4: // scalar subquery in WHERE
		from, cols, join := innerFrom()
		return fmt.Sprintf("SELECT SUM(s.B) AS v FROM S s WHERE s.%s %s (SELECT %s FROM %s WHERE %s%s);",
			pick("B", "C"), op(), agg(cols), from, join, corr(cols, []string{"s.B", "s.C"}))
	case 5: // two levels
		return fmt.Sprintf("SELECT COUNT(*) AS v FROM S s WHERE s.B %s (SELECT %s FROM T t WHERE %s AND EXISTS (SELECT * FROM U u WHERE %s));",
			op(), pick("COUNT(*)", "SUM(t.D)"), corr([]string{"t.C", "t.D"}, []string{"s.C", "s.B"}),
			corr([]string{"u.C", "u.E"}, []string{"t.D", "s.C"}))
	case 6: // computed columns of a derived join, compared
		x := pick("s.C + t.C", "s.B * 2", "s.B - t.D", "t.D + 1")
		y := pick("t.D", "s.C", "t.C + s.B")
		join := pick("", " WHERE s.C = t.C", " WHERE s.B < t.C")
		other, cond := "", "d.x "+ineq()+" d.y"
		if rng.IntN(2) == 0 {
			other, cond = ", U u", "d.x "+ineq()+" u.E AND d.y "+op()+" u.C"
		}
		return fmt.Sprintf("SELECT %s FROM (SELECT %s AS x, %s AS y FROM S s, T t%s) d%s WHERE %s;",
			pick("COUNT(*) AS v", "SUM(d.y) AS v", "d.y, COUNT(*) AS v"), x, y, join, other, cond)
	case 7: // UNION ALL derived table with computed columns
		return fmt.Sprintf("SELECT %s FROM (SELECT s.B + %s AS x FROM S s UNION ALL SELECT t.C * %s AS x FROM T t) d, U u WHERE d.x %s u.E%s;",
			pick("COUNT(*) AS v", "SUM(d.x) AS v"), pick("1", "s.C"), pick("1", "2"), ineq(),
			pick("", " AND d.x < u.C + 3", " AND d.x IN (SELECT s2.B FROM S s2)"))
	default: // computed derived column correlating a subquery
		return fmt.Sprintf("SELECT COUNT(*) AS v FROM (SELECT s.B %s s.C AS x FROM S s) d WHERE d.x %s (SELECT %s FROM T t WHERE t.C %s d.x);",
			pick("+", "-"), op(), pick("COUNT(*)", "SUM(t.D)"), ineq())
	}
}

// groupKeys adds the GROUP BY of a query whose SELECT list starts with a
// column (s.B or d.y).
func groupKeys(q string) string {
	for _, k := range []string{"s.B", "d.y"} {
		if strings.HasPrefix(q, "SELECT "+k+",") && !strings.Contains(q, "GROUP BY s.") {
			return strings.TrimSuffix(q, ";") + " GROUP BY " + k + ";"
		}
	}
	return q
}
