package oracle

import (
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

const schema = `
CREATE STREAM R (A INT, X FLOAT, S STRING, D DATE);
`

func parse(t *testing.T, src string) *lang.File {
	t.Helper()
	f, err := lang.Parse("test.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func date(s string) runtime.Date { return runtime.CastDate(s) }

// TestView checks the oracle's SQL conventions and conversions on one table:
// case-sensitive LIKE, the tg_* functions, float columns from integer sums,
// date keys, and deletion of exactly one of two equal rows.
func TestView(t *testing.T) {
	f := parse(t, schema+`
SELECT D, COUNT(*) AS n, SUM(A) / 2 AS half FROM R GROUP BY D;
SELECT COUNT(*) FROM R WHERE S LIKE 'Pro%';
SELECT COUNT(*) FROM R WHERE D < DATE('1995-01-01') + INTERVAL '1' MONTH AND REGEXP_MATCH('[A-Z]', S) = 1;
SELECT CAST_STRING(A) AS s, CAST_DATE('1995-02-03') AS d, COUNT(*) AS n FROM R GROUP BY CAST_STRING(A), CAST_DATE('1995-02-03');
SELECT SUM(X) FROM R WHERE A > 100;
`)
	db, err := Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows := [][]any{
		{int64(1), 0.5, "Promo", date("1995-01-15")},
		{int64(1), 0.5, "Promo", date("1995-01-15")},
		{int64(2), 1.25, "promo", date("1995-02-10")},
	}
	for _, r := range rows {
		if err := db.Insert("R", r); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Delete("R", rows[0]); err != nil {
		t.Fatal(err)
	}
	if err := db.Delete("R", []any{int64(9), 0.0, "", date("1995-01-01")}); err == nil {
		t.Error("deleting an absent tuple: no error")
	}
	want := [][][]any{
		{{date("1995-01-15"), int64(1), 0.5}, {date("1995-02-10"), int64(1), 1.0}},
		{{int64(1)}},
		{{int64(1)}},
		{{"1", date("1995-02-03"), int64(1)}, {"2", date("1995-02-03"), int64(1)}},
		{{0.0}},
	}
	for i, q := range f.Queries {
		v, err := db.View(q)
		if err != nil {
			t.Fatal(err)
		}
		if err := Compare(runtime.View{Name: v.Name, Keys: v.Keys, Values: v.Values, Rows: want[i]}, v, 1e-9); err != nil {
			t.Errorf("%s: %v", q.Name, err)
		}
	}
}

func TestCompare(t *testing.T) {
	cols := []runtime.Column{{Name: "K", Type: runtime.Int}}
	vals := []runtime.Column{{Name: "V", Type: runtime.Float}}
	view := func(rows ...[]any) runtime.View {
		return runtime.View{Name: "Q", Keys: cols, Values: vals, Rows: rows}
	}
	tests := []struct {
		name      string
		want, got runtime.View
		err       string // substring; "" for equal
	}{
		{"equal", view([]any{int64(1), 2.0}), view([]any{int64(1), 2.0}), ""},
		{"relative", view([]any{int64(1), 1e9}), view([]any{int64(1), 1e9 + 0.5}), ""},
		{"near zero", view([]any{int64(1), 0.0}), view([]any{int64(1), 1e-12}), ""},
		{"float differs", view([]any{int64(1), 2.0}), view([]any{int64(1), 2.001}), "row 0"},
		{"type differs", view([]any{int64(1), 2.0}), view([]any{int64(1), int64(2)}), "got  [1, 2]"},
		{"missing row", view([]any{int64(1), 2.0}, []any{int64(2), 3.0}), view([]any{int64(1), 2.0}), "(none)"},
		{"extra row", view(), view([]any{int64(1), 2.0}), "want (none)"},
		{"columns", view(), runtime.View{Keys: cols}, "value columns"},
	}
	for _, tt := range tests {
		err := Compare(tt.want, tt.got, 1e-9)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.err != "" && err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.err != "" && !strings.Contains(err.Error(), tt.err):
			t.Errorf("%s: error %q does not mention %q", tt.name, err, tt.err)
		}
	}
}

// TestGenerate checks that static tables are loaded first, that deletes only
// remove live tuples, that values come from the domain, and that streams are
// deterministic.
func TestGenerate(t *testing.T) {
	f := parse(t, schema+"CREATE TABLE STATIC (K INT);\nSELECT COUNT(*) FROM R;")
	d := Domain{Ints: 3, Columns: map[string]Domain{"R.A": {Ints: 2}}, Days: 10}
	s := Generate(f, 7, 3000, 0.3, d)
	if len(s.Events) != 150+3000 {
		t.Fatalf("%d events", len(s.Events))
	}
	for i, e := range s.Events[:150] {
		if e.Rel != "STATIC" || !e.Insert {
			t.Fatalf("event %d is %v, want an insert into the static table", i, e)
		}
	}
	live := map[string]int{}
	deletes := 0
	for i, e := range s.Events[150:] {
		if e.Rel != "R" {
			t.Fatalf("event %d on %s", i, e.Rel)
		}
		k := e.String()[1:]
		if e.Insert {
			live[k]++
		} else {
			deletes++
			if live[k] == 0 {
				t.Fatalf("event %d deletes an absent tuple: %v", i, e)
			}
			live[k]--
		}
		a, x, dt := e.Tuple[0].(int64), e.Tuple[1].(float64), e.Tuple[3].(runtime.Date)
		if a < 0 || a >= 2 || x < 0 || x >= 3 || x*4 != float64(int(x*4)) ||
			dt < DefaultDateFrom || dt >= DefaultDateFrom.AddDays(10) {
			t.Fatalf("event %d out of domain: %v", i, e)
		}
	}
	if deletes < 700 || deletes > 1100 {
		t.Errorf("%d deletes of 3000 events, want about 900", deletes)
	}
	s2 := Generate(f, 7, 3000, 0.3, d)
	for i := range s.Events {
		if s.Events[i].String() != s2.Events[i].String() {
			t.Fatalf("event %d differs between runs with the same seed", i)
		}
	}
}
