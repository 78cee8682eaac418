package sqlcorpus

import (
	"slices"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// TestGenerateDeterministic: a seed gives one query; seeds give different
// queries; NotNull changes the schema only, and not q's.
func TestGenerateDeterministic(t *testing.T) {
	seen := map[string]int64{}
	for s := int64(1); s <= 200; s++ {
		a, b := Generate(s), Generate(s)
		if a.File() != b.File() || !slices.Equal(a.Features, b.Features) {
			t.Fatalf("seed %d: two different queries", s)
		}
		if prev, ok := seen[a.SQL]; ok {
			t.Errorf("seeds %d and %d: the same query %s", prev, s, a.SQL)
		}
		seen[a.SQL] = s
		nn := a.NotNull()
		if nn.SQL != a.SQL || strings.Count(strings.TrimSuffix(nn.File(), nn.SQL+";\n"), " NOT NULL") != countColumns(a) {
			t.Errorf("seed %d: NotNull: %s", s, nn.File())
		}
		if a.File() != b.File() {
			t.Errorf("seed %d: NotNull changed the query it copied", s)
		}
	}
}

func countColumns(q *Query) int {
	n := 0
	for _, t := range q.Tables {
		n += len(t.Columns)
	}
	return n
}

// TestGenerateShape: 2–3 relations of 2–4 columns, each with an INT
// column; some columns NOT NULL, most nullable; all three types.
func TestGenerateShape(t *testing.T) {
	notNull, cols := 0, 0
	types := map[Type]int{}
	for s := int64(1); s <= 300; s++ {
		q := Generate(s)
		if len(q.Tables) < 2 || len(q.Tables) > 3 {
			t.Fatalf("seed %d: %d relations", s, len(q.Tables))
		}
		for _, tb := range q.Tables {
			if len(tb.Columns) < 2 || len(tb.Columns) > 4 || tb.Columns[0].Type != Int {
				t.Fatalf("seed %d: relation %s: %v", s, tb.Name, tb.Columns)
			}
			for _, c := range tb.Columns {
				cols++
				types[c.Type]++
				if c.NotNull {
					notNull++
				}
			}
		}
	}
	if frac := float64(notNull) / float64(cols); frac < 0.15 || frac > 0.35 {
		t.Errorf("%.2f of the columns NOT NULL, want about 1/4", frac)
	}
	for _, ty := range []Type{Int, Float, String} {
		if types[ty] < cols/10 {
			t.Errorf("%d %s columns of %d", types[ty], ty, cols)
		}
	}
}

// TestFeatures: over a few hundred seeds the generator writes every
// construct the corpus is meant to cover.
func TestFeatures(t *testing.T) {
	want := []string{
		"abs", "agg-arith", "agg-distinct", "aggregate", "and", "arith", "avg", "between", "bool-const",
		"case-agg", "case-else", "case-no-else", "case-simple", "cast", "coalesce", "comma-join", "compare",
		"compound", "concat", "correlated", "correlated-subquery", "count", "count-star", "cross-product", "div-zero",
		"except", "except-all", "exists", "float-div", "full-join", "group-by", "group-by-expr", "group-by-unselected", "having",
		"ifnull", "in-list", "in-list-null", "in-subquery", "inequality-correlation", "inner-join", "int-div", "intersect", "intersect-all",
		"is-distinct", "is-null", "left-join", "length", "like", "min-max", "mod", "neg", "not", "not-exists",
		"not-in-subquery", "null-literal", "nullif", "or", "right-join", "round", "scalar-subquery", "select",
		"select-distinct", "subquery-join", "substr", "sum", "trim", "union", "union-all", "upper-lower",
		"limit", "qualify", "rank", "row-number", "window-count", "window-filter", "window-groups-by-aggregate", "window-groups-filter", "window-order-keys", "window-groups", "window-sum", "window-min-max", "window-order",
	}
	got := map[string]int{}
	for s := int64(1); s <= 400; s++ {
		for _, f := range Generate(s).Features {
			got[f]++
		}
	}
	for _, f := range want {
		if got[f] == 0 {
			t.Errorf("no query uses %s", f)
		}
	}
	for f := range got {
		if !slices.Contains(want, f) {
			t.Errorf("feature %s (in %d queries) is not in the test's list", f, got[f])
		}
	}
}

// TestSQLiteAccepts: SQLite prepares every generated query, with and
// without NOT NULL columns.
func TestSQLiteAccepts(t *testing.T) {
	for s := int64(1); s <= 500; s++ {
		for _, q := range []*Query{Generate(s), Generate(s).NotNull()} {
			r, err := openRaw(q)
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", s, err, q.File())
			}
			r.Close()
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"calculus: q11.sql:4:244: -dialect sql does not support yet: COALESCE; -dialect dbtoaster has DBToaster's semantics\n  SELECT …",
			"calculus: -dialect sql does not support yet: COALESCE"},
		{"q3.sql:1:2: FULL OUTER JOIN is not supported", "FULL OUTER JOIN is not supported"},
		{"plain message", "plain message"},
	}
	for _, tt := range tests {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestViewRows: a view is projected onto the SELECT list, a bag's rows
// repeated by multiplicity, NULLs and numbers written alike on both sides.
func TestViewRows(t *testing.T) {
	src := "CREATE STREAM R (ra INT, rb FLOAT);\n"
	tests := []struct {
		query string
		rows  [][]any // the view's rows: keys then values
		want  []string
	}{
		{"SELECT r1.rb, r1.ra FROM R r1", [][]any{{1.5, int64(2), int64(2)}, {nil, nil, int64(1)}},
			[]string{"1.5 | 2", "1.5 | 2", "NULL | NULL"}},
		{"SELECT SUM(r1.rb), r1.ra FROM R r1 GROUP BY r1.ra", [][]any{{int64(1), 2.0}, {nil, nil}},
			[]string{"2 | 1", "NULL | NULL"}},
		{"SELECT COUNT(*) FROM R r1 GROUP BY r1.ra", [][]any{{int64(1), int64(3)}, {int64(2), int64(3)}},
			[]string{"3", "3"}},
	}
	for _, tt := range tests {
		f, err := lang.Config{Dialect: lang.SQL}.Parse("v.sql", []byte(src+tt.query+";"))
		if err != nil {
			t.Fatal(err)
		}
		q := f.Queries[0]
		keys, _ := q.View()
		v := runtime.View{Keys: make([]runtime.Column, len(keys)), Columns: q.Columns(), Rows: tt.rows}
		got, err := viewRows(q, v)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.query, got, tt.want)
		}
	}
}

// TestReplayDetects: the harness tells an interpreter that computes another
// query (WRONG) and an oracle that differs from the query text (ORACLE)
// from agreement, with and without NULLs in the stream.
func TestReplayDetects(t *testing.T) {
	tables := []Table{{Name: "R", Stream: true, Columns: []Column{{"ra", Int, false}, {"rb", Int, false}}}}
	const q0 = "SELECT r1.ra, COUNT(*) FROM R r1 WHERE r1.rb > 1 GROUP BY r1.ra"
	tests := []struct {
		name   string
		prog   string // the interpreter's query, over NOT NULL columns; "" for none
		rawSQL string // the query SQLite runs as written; the oracle's is q0
		nulls  bool   // NULLs in the stream
		want   class
	}{
		{"agree", q0, q0, false, accepted},
		{"agree with NULLs", "", q0, true, accepted},
		{"wrong interpreter", "SELECT r1.ra, COUNT(*) FROM R r1 WHERE r1.rb > 0 GROUP BY r1.ra", q0, false, wrong},
		{"wrong oracle", "", "SELECT r1.ra, COUNT(*) FROM R r1 WHERE r1.rb > 0 GROUP BY r1.ra", true, oracleBad},
		{"NULL group dropped", "", q0 + " HAVING r1.ra IS NOT NULL", true, oracleBad},
	}
	for _, tt := range tests {
		q := &Query{Seed: 1, Tables: tables, SQL: q0}
		f, err := lang.Config{Dialect: lang.SQL}.Parse("q.sql", []byte(q.File()))
		if err != nil {
			t.Fatal(err)
		}
		var progs []*viewlet.Program
		if tt.prog != "" {
			pf, err := lang.Config{Dialect: lang.SQL}.Parse("p.sql", []byte((&Query{Tables: tables, SQL: tt.prog}).NotNull().File()))
			if err != nil {
				t.Fatal(err)
			}
			if progs, err = compile(pf); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := openRaw(&Query{Tables: tables, SQL: tt.rawSQL})
		if err != nil {
			t.Fatal(err)
		}
		frac := -1.0
		if tt.nulls {
			frac = 0.3
		}
		s := oracle.Generate(f, 3, 80, 0.3, oracle.Domain{Ints: 3, NullFrac: frac})
		var r result
		c, reason, detail := replay(q, f, progs, raw, s, &r)
		raw.Close()
		if c != tt.want {
			t.Errorf("%s: %v (%s), want %v\n%s", tt.name, c, reason, tt.want, detail)
		}
		if c != accepted && !strings.Contains(detail, "seed 1, after event") {
			t.Errorf("%s: report without seed and event:\n%s", tt.name, detail)
		}
		if c == accepted && (r.rows == 0 || r.nulls != tt.nulls) {
			t.Errorf("%s: largest view %d rows, NULLs %v", tt.name, r.rows, r.nulls)
		}
	}
}
