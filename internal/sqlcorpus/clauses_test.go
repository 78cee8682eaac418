package sqlcorpus

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toastgen/toastgen/lang"
)

// TestClauses checks that no clause the grammar parses is dropped: every
// clause, in every place a query can stand (a view, a derived table, IN,
// NOT IN, EXISTS, SOME, ALL, a scalar subquery, a compound's arm), is
// either maintained — the interpreter's views equal SQLite running the
// query text as written, after every event of a stream with NULLs,
// duplicates and deletes — or rejected with an error at a file:line:col.
// SQLite runs the text itself, not lang's translation for the oracle, so
// that a clause lang drops (as LIMIT in an IN subquery once was) shows as
// a wrong view rather than agreeing with an oracle that dropped it too.
//
// The walk: every keyword of the query grammar (lang.Grammar, the rules
// reachable from a SELECT) must appear in some case, but for the few that
// SQLite cannot run as written, each with its reason and the test that
// covers it instead.
func TestClauses(t *testing.T) {
	t.Parallel()
	var texts []string
	type tally struct{ accepted, rejected int }
	var mu sync.Mutex
	tallies := map[string]*tally{}
	t.Run("cases", func(t *testing.T) {
		seed := int64(9000)
		for _, inner := range clauseInner {
			for _, c := range clauseContexts {
				if c.name == "scalar" && !inner.oneRow {
					continue
				}
				sql := strings.ReplaceAll(c.text, "%s", inner.sql)
				texts = append(texts, sql)
				seed++
				q := &Query{Seed: seed, Tables: clauseTables, SQL: sql}
				name := fmt.Sprintf("%s/%s", c.name, inner.sql)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					r := run(q)
					mu.Lock()
					tl := tallies[c.name]
					if tl == nil {
						tl = &tally{}
						tallies[c.name] = tl
					}
					mu.Unlock()
					switch r.class {
					case accepted:
						mu.Lock()
						tl.accepted++
						mu.Unlock()
					case unsupported:
						if !positioned.MatchString(r.detail) {
							t.Errorf("rejected without a position:\n%s", r.detail)
						}
						t.Logf("rejected: %s", r.reason)
						mu.Lock()
						tl.rejected++
						mu.Unlock()
					default:
						t.Errorf("%v: %s\n%s", r.class, r.reason, r.detail)
					}
				})
			}
		}
	})
	for _, c := range clauseContexts {
		if tl := tallies[c.name]; tl != nil {
			t.Logf("%-8s %2d maintained, %2d rejected at their position", c.name, tl.accepted, tl.rejected)
		}
	}
	all := strings.ToUpper(strings.Join(texts, "\n"))
	for _, kw := range grammarKeywords(t, lang.Grammar(), "GUnion") {
		if _, ok := clauseExempt[kw]; ok {
			continue
		}
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(kw) + `\b`).MatchString(all) {
			t.Errorf("keyword %s of the grammar is in no case of TestClauses: add one (or, if SQLite cannot run it, an exemption naming the test that covers it)", kw)
		}
	}
}

// positioned matches an error at a query file's line and column.
var positioned = regexp.MustCompile(`\.sql:\d+:\d+: `)

// clauseTables are R(a, b, c) and S(a, b), nullable: R a stream, S too.
var clauseTables = []Table{
	{Name: "R", Stream: true, Columns: []Column{{Name: "a", Type: Int}, {Name: "b", Type: Int}, {Name: "c", Type: String}}},
	{Name: "S", Stream: true, Columns: []Column{{Name: "a", Type: Int}, {Name: "b", Type: Int}}},
}

// clauseQuery is a query of one INT column v; oneRow if it has at most one
// row (SQL's scalar subquery: SQLite would take any row of several).
type clauseQuery struct {
	sql    string
	oneRow bool
}

// clauseInner are the queries, each with a clause or two. Orders are total
// on what the query shows (ties keep equal values), so that SQLite's rows
// are the same as any engine's.
var clauseInner = []clauseQuery{
	{"SELECT r.b AS v FROM R r", false},
	{"SELECT DISTINCT r.b AS v FROM R r", false},
	{"SELECT ALL r.b AS v FROM R r WHERE r.a > 1", false},
	{"SELECT r.a AS v FROM R r GROUP BY r.a HAVING COUNT(*) > 1", false},
	{"SELECT r.b AS v FROM R r ORDER BY r.b", false},
	{"SELECT r.b AS v FROM R r ORDER BY r.b DESC LIMIT 2", false},
	{"SELECT r.b AS v FROM R r ORDER BY r.b ASC LIMIT 2 OFFSET 1", false},
	{"SELECT r.b AS v FROM R r ORDER BY r.b LIMIT 0", true},
	{"SELECT r.b AS v FROM R r ORDER BY r.b DESC LIMIT 1", true},
	{"SELECT MAX(r.b) AS v FROM R r", true},
	{"SELECT COUNT(DISTINCT r.b) AS v FROM R r", true},
	{"SELECT r.b AS v FROM R r UNION SELECT s.b FROM S s", false},
	{"SELECT r.b AS v FROM R r INTERSECT SELECT s.b FROM S s", false},
	{"SELECT r.b AS v FROM R r EXCEPT SELECT s.b FROM S s", false},
	{"SELECT r.b AS v FROM R r UNION ALL SELECT s.b FROM S s ORDER BY 1 LIMIT 3", false},
	{"SELECT r.b AS v FROM R r INNER JOIN S s ON r.a = s.a", false},
	{"SELECT r.b AS v FROM R r LEFT OUTER JOIN S s ON r.a = s.a WHERE s.b IS NULL", false},
	{"SELECT s.b AS v FROM R r RIGHT JOIN S s ON r.a = s.a", false},
	{"SELECT r.b + s.b AS v FROM R r FULL JOIN S s ON r.a = s.a", false},
	{"SELECT r.b AS v FROM R r NATURAL JOIN S s", false},
	{"SELECT r.b AS v FROM R r CROSS JOIN S s WHERE r.a = s.b", false},
	{"SELECT x.b AS v FROM (R x JOIN S y ON x.a = y.a)", false},
	{"SELECT ROW_NUMBER() OVER (PARTITION BY r.a ORDER BY r.b) AS v FROM R r", false},
	{"SELECT SUM(r.b) OVER (PARTITION BY r.a ORDER BY r.b ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS v FROM R r", false},
	{"SELECT COUNT(*) OVER (ORDER BY r.b RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS v FROM R r", false},
	{"SELECT COUNT(*) OVER (ORDER BY r.b GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS v FROM R r", false},
	{"SELECT r.b AS v FROM R r WHERE r.b BETWEEN 1 AND 3 OR r.a NOT BETWEEN 1 AND 2", false},
	{"SELECT r.b AS v FROM R r WHERE r.a IN (1, 2) OR r.a IS NOT NULL AND r.b IS DISTINCT FROM r.a", false},
	{"SELECT r.b AS v FROM R r WHERE NOT r.c LIKE 'a%' AND r.c NOT LIKE '%z'", false},
	{"SELECT CASE WHEN r.a > 1 THEN r.b WHEN r.a IS NULL THEN -r.b ELSE 0 END AS v FROM R r", false},
	{"SELECT CASE r.a WHEN 1 THEN r.b * 2 ELSE r.b % 3 END AS v FROM R r", false},
	{"SELECT LENGTH(r.c || 'x') AS v FROM R r", false},
	{"SELECT CAST(r.b AS INT) AS v FROM R r", false},
	{"SELECT r.b AS v FROM R r WHERE EXISTS (SELECT 1 FROM S s WHERE s.a = r.a)", false},
	{"SELECT r.b AS v FROM R r WHERE r.a NOT IN (SELECT s.a FROM S s)", false},
	{"SELECT (SELECT MAX(s.b) FROM S s WHERE s.a = r.a) AS v FROM R r", false},
	{"SELECT (SELECT s.b FROM S s WHERE s.a = r.a ORDER BY s.b DESC LIMIT 1) AS v FROM R r", false},
	{"SELECT (SELECT r.b) AS v FROM R r", false},
}

// clauseContexts are the places a query stands, %s the query.
var clauseContexts = []struct{ name, text string }{
	{"view", "%s"},
	{"derived", "SELECT x.v, COUNT(*) AS n FROM (%s) AS x GROUP BY x.v"},
	{"in", "SELECT t.a FROM S t WHERE t.b IN (%s)"},
	{"notin", "SELECT t.a FROM S t WHERE t.b NOT IN (%s)"},
	{"exists", "SELECT t.a FROM S t WHERE NOT EXISTS (%s)"},
	{"scalar", "SELECT t.a, (%s) AS w FROM S t"},
	{"arm", "SELECT t.b AS v FROM S t UNION ALL %s"},
}

// clauseExempt are the grammar's keywords that SQLite cannot run as
// written, and where they are checked instead.
var clauseExempt = map[string]string{
	"QUALIFY":  "SQLite has no QUALIFY: viewlet/testdata/diff/301_window_filter.sql (the oracle's translation)",
	"WITHIN":   "SQLite has no ordered-set aggregates: viewlet/testdata/diff holistic files",
	"INTERVAL": "SQLite has no INTERVAL: the date files of viewlet/testdata/diff",
	"DATE":     "a DATE literal is a string in SQLite: the date files of viewlet/testdata/diff",
	"LIST":     "IN LIST is DBToaster's spelling: lang's tests",
	"SOME":     "SQLite has no quantified comparisons: viewlet/testdata/diff/*quantified* (the oracle's translation)",
	"ANY":      "SQLite has no quantified comparisons: viewlet/testdata/diff/*quantified* (the oracle's translation)",
}

// grammarKeywords returns the keywords (quoted words) of the rules of an
// EBNF grammar reachable from rule root, sorted.
func grammarKeywords(t *testing.T, ebnf, root string) []string {
	rules := map[string]string{}
	for _, line := range strings.Split(ebnf, "\n") {
		name, body, ok := strings.Cut(strings.TrimSpace(line), " = ")
		if ok {
			rules[name] = body
		}
	}
	if rules[root] == "" {
		t.Fatalf("the grammar has no rule %s:\n%s", root, ebnf)
	}
	ref := regexp.MustCompile(`\bG[A-Z]\w*`)
	word := regexp.MustCompile(`"([A-Z]+)"`)
	seen := map[string]bool{root: true}
	kws := map[string]bool{}
	for todo := []string{root}; len(todo) > 0; {
		body := rules[todo[0]]
		todo = todo[1:]
		for _, r := range ref.FindAllString(body, -1) {
			if !seen[r] {
				seen[r] = true
				todo = append(todo, r)
			}
		}
		for _, m := range word.FindAllStringSubmatch(body, -1) {
			kws[m[1]] = true
		}
	}
	var out []string
	for k := range kws {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
