package lang

import (
	"database/sql"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestColumnLabels checks the names Columns reports, which are SQLite's
// (checked against SQLite by TestColumnLabelsMatchSQLite), and the view's
// unique names.
func TestColumnLabels(t *testing.T) {
	for _, tt := range labelCases {
		t.Run(tt.query, func(t *testing.T) {
			f, err := Parse("c.sql", []byte(labelSchema+tt.query+";"))
			if err != nil {
				t.Fatal(err)
			}
			q := f.Queries[0]
			var labels []string
			for _, c := range q.Columns() {
				labels = append(labels, c.Name)
			}
			keys, vals := q.View()
			names := func(its []*SelectItem) string {
				var s []string
				for _, it := range its {
					s = append(s, it.Name)
				}
				return strings.Join(s, " ")
			}
			got := []string{strings.Join(labels, "|"), names(keys), names(vals)}
			if d := cmp.Diff([]string{tt.labels, tt.keys, tt.vals}, got); d != "" {
				t.Errorf("labels, keys, values (-want +got):\n%s", d)
			}
		})
	}
}

// TestColumnLabelsMatchSQLite runs the queries of TestColumnLabels as
// written in SQLite and compares its column names with the labels.
func TestColumnLabelsMatchSQLite(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE T (Abc INTEGER, b INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range labelCases {
		rows, err := db.Query(tt.query)
		if err != nil {
			t.Errorf("%s: %v", tt.query, err)
			continue
		}
		cols, err := rows.Columns()
		rows.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(cols, "|"); got != tt.labels {
			t.Errorf("%s: SQLite names the columns %s, want %s", tt.query, got, tt.labels)
		}
	}
}

const labelSchema = "CREATE STREAM T (Abc INT, b INT);\n"

var labelCases = []struct {
	query      string
	labels     string // Columns names, separated by |
	keys, vals string // the view's names
}{
	{"SELECT (abc), t.ABC, abc /* c */ + 1, abc as MyName FROM t",
		"Abc|Abc|abc /* c */ + 1|MyName", "ABC T_ABC COL3 MYNAME", "COUNT"},
	{"SELECT x.Cc, x.* FROM t, (SELECT abc+1 AS Cc, b FROM t) x",
		"Cc|Cc|b", "CC X_CC B", "COUNT"},
	{"SELECT * FROM t", "Abc|b", "ABC B", "COUNT"},
	{"SELECT abc FROM t UNION SELECT b FROM t", "Abc", "ABC", "COUNT"},
	{"SELECT b AS q FROM t UNION SELECT abc AS z FROM t", "q", "Q", "COUNT"},
	{"SELECT COUNT(DISTINCT abc), sum( DISTINCT b ) FROM t",
		"COUNT(DISTINCT abc)|sum( DISTINCT b )", "", "COL1 COL2"},
	{"SELECT CAST(abc AS INT), - abc, 'x'||abc FROM t",
		"CAST(abc AS INT)|- abc|'x'||abc", "COL1 COL2 COL3", "COUNT"},
	{"SELECT * FROM (SELECT b+1 FROM t) d", "b+1", "COL1", "COUNT"},
	{"SELECT abc, abc FROM t", "Abc|Abc", "ABC T_ABC", "COUNT"},
	{"SELECT 13 FROM t GROUP BY t.abc", "13", "ABC", "COL1"},
	{"SELECT 13, COUNT(*) AS abc FROM t GROUP BY t.b, t.abc", "13|abc", "B ABC_2", "COL1 ABC"},
	{"SELECT b AS abc, abc FROM t", "abc|Abc", "ABC T_ABC", "COUNT"},
	{"SELECT abc, b AS abc FROM t", "Abc|abc", "T_ABC ABC", "COUNT"},
	{"SELECT abc + 1, abc + 1 FROM t", "abc + 1|abc + 1", "COL1 COL2", "COUNT"},
	{"SELECT abc, SUM(b) FROM t GROUP BY abc, abc", "Abc|SUM(b)", "ABC ABC_2", "COL2"},
	{"SELECT DISTINCT abc, SUM(b) FROM t GROUP BY abc, b", "Abc|SUM(b)", "ABC COL2", "COUNT"},
	{"SELECT x.abc FROM (t) AS x, (t AS y CROSS JOIN t AS z) WHERE x.b = y.b", "Abc", "ABC", "COUNT"},
}

// TestPlainErrors checks the positioned errors of the plain SQL constructs.
func TestPlainErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		sql             bool
	}{
		{"duplicate alias", "SELECT A AS x, B AS X FROM R;",
			`e.sql:3:16: duplicate result column X
	SELECT A AS x, B AS X FROM R;
	               ^`, false},
		{"abs of string", "SELECT ABS(NAME) FROM R;",
			`e.sql:3:12: ABS needs an INT or FLOAT argument, got STRING
	SELECT ABS(NAME) FROM R;
	           ^`, false},
		{"abs arity", "SELECT ABS(A, B) FROM R;",
			`e.sql:3:8: ABS takes 1 argument, got 2
	SELECT ABS(A, B) FROM R;
	       ^`, false},
		{"round arity", "SELECT ROUND() FROM R;",
			`e.sql:3:8: ROUND takes 1 or 2 arguments, got 0
	SELECT ROUND() FROM R;
	       ^`, false},
		{"round digits", "SELECT ROUND(B, 1.5) FROM R;",
			`e.sql:3:17: ROUND argument 2 must be INT, got FLOAT
	SELECT ROUND(B, 1.5) FROM R;
	                ^`, false},
		{"round of date", "SELECT ROUND(D) FROM R;",
			`e.sql:3:14: ROUND needs an INT or FLOAT argument, got DATE
	SELECT ROUND(D) FROM R;
	             ^`, false},
		{"length of condition", "SELECT LENGTH(A > 1) FROM R;",
			`e.sql:3:17: a condition cannot be used as a value
	SELECT LENGTH(A > 1) FROM R;
	                ^`, false},
		{"upper arity", "SELECT UPPER(NAME, NAME) FROM R;",
			`e.sql:3:8: UPPER takes 1 argument, got 2
	SELECT UPPER(NAME, NAME) FROM R;
	       ^`, false},
		{"trim arity", "SELECT TRIM(NAME, 'a', 'b') FROM R;",
			`e.sql:3:8: TRIM takes 1 or 2 arguments, got 3
	SELECT TRIM(NAME, 'a', 'b') FROM R;
	       ^`, false},
		{"substring start dbtoaster", "SELECT SUBSTR(NAME, 'a') FROM R;",
			`e.sql:3:21: SUBSTR argument 2 must be INT, got STRING
	SELECT SUBSTR(NAME, 'a') FROM R;
	                    ^`, false},
		{"substring string dbtoaster", "SELECT SUBSTRING(A, 0, 1) FROM R;",
			`e.sql:3:18: SUBSTRING argument 1 must be STRING, got INT
	SELECT SUBSTRING(A, 0, 1) FROM R;
	                 ^`, false},
		{"substr arity sql", "SELECT SUBSTR(NAME) FROM R;",
			`e.sql:3:8: SUBSTR takes 2 or 3 arguments, got 1
	SELECT SUBSTR(NAME) FROM R;
	       ^`, true},
		{"substr length sql", "SELECT SUBSTR(NAME, 1, B) FROM R;",
			`e.sql:3:24: SUBSTR argument 3 must be INT, got FLOAT
	SELECT SUBSTR(NAME, 1, B) FROM R;
	                       ^`, true},
		{"concat condition dbtoaster", "SELECT NAME || (A = 1) FROM R;",
			`e.sql:3:19: a condition cannot be used as a value
	SELECT NAME || (A = 1) FROM R;
	                  ^`, false},
		{"concat times", "SELECT A * NAME || 'x' FROM R;",
			`e.sql:3:10: operator * needs numeric operands, got INT and STRING
	SELECT A * NAME || 'x' FROM R;
	         ^`, false},
		{"cast date to int sql", "SELECT CAST(D AS INTEGER) FROM R;",
			`e.sql:3:8: CAST of a DATE AS INTEGER is not supported in the sql dialect (SQLite has no DATE type; use EXTRACT)
	SELECT CAST(D AS INTEGER) FROM R;
	       ^`, true},
		{"cast unknown type", "SELECT CAST(A AS BLOB) FROM R;",
			`e.sql:3:18: unknown type BLOB
	SELECT CAST(A AS BLOB) FROM R;
	                 ^`, false},
		{"all in a function", "SELECT UPPER(ALL NAME) FROM R;",
			`e.sql:3:8: UPPER is not an aggregate
	SELECT UPPER(ALL NAME) FROM R;
	       ^`, false},
		{"condition as value dbtoaster", "SELECT A = 1 FROM R;",
			`e.sql:3:10: a condition cannot be used as a value
	SELECT A = 1 FROM R;
	         ^`, false},
		{"join group alias", "SELECT COUNT(*) FROM (R JOIN S ON R.A = S.A) AS J;",
			`e.sql:3:22: a parenthesised join cannot have an alias
	SELECT COUNT(*) FROM (R JOIN S ON R.A = S.A) AS J;
	                     ^`, false},
		{"natural join of a group", "SELECT COUNT(*) FROM S NATURAL JOIN (R CROSS JOIN S AS S2);",
			`e.sql:3:37: NATURAL JOIN with a parenthesised join is not supported (join its tables one by one)
	SELECT COUNT(*) FROM S NATURAL JOIN (R CROSS JOIN S AS S2);
	                                    ^`, false},
		{"natural join in a later group", "SELECT COUNT(*) FROM S AS S2, (R NATURAL JOIN S);",
			`e.sql:3:34: NATURAL JOIN inside a parenthesised join is only supported at the start of FROM
	SELECT COUNT(*) FROM S AS S2, (R NATURAL JOIN S);
	                                 ^`, false},
		{"outer join in a group", "SELECT COUNT(*) FROM (R LEFT JOIN S ON R.A = S.A);",
			`e.sql:3:25: LEFT OUTER JOIN needs -dialect sql (the dbtoaster dialect has no NULLs)
	SELECT COUNT(*) FROM (R LEFT JOIN S ON R.A = S.A);
	                        ^`, false},
		{"outer join on reads another item", "SELECT COUNT(*) FROM R, S AS S2 LEFT JOIN S ON R.A = S.A;",
			`e.sql:3:48: the ON condition of this LEFT JOIN reads R, which is not one of its operands
	SELECT COUNT(*) FROM R, S AS S2 LEFT JOIN S ON R.A = S.A;
	                                               ^`, true},
		{"outer join without on", "SELECT COUNT(*) FROM R FULL JOIN S;",
			`e.sql:3:24: FULL OUTER JOIN needs an ON condition (or use a comma or CROSS JOIN)
	SELECT COUNT(*) FROM R FULL JOIN S;
	                       ^`, true},
		{"natural beside outer join", "SELECT COUNT(*) FROM R NATURAL JOIN S RIGHT JOIN S AS S2 ON S.C = S2.C;",
			`e.sql:3:24: NATURAL JOIN beside an outer join is not supported yet (write the join's ON condition)
	SELECT COUNT(*) FROM R NATURAL JOIN S RIGHT JOIN S AS S2 ON S.C = S2.C;
	                       ^`, true},
		{"subquery in outer join on", "SELECT COUNT(*) FROM R LEFT JOIN S ON S.A IN (SELECT C FROM S);",
			`e.sql:3:43: a subquery in the ON condition of an outer join is not supported yet
	SELECT COUNT(*) FROM R LEFT JOIN S ON S.A IN (SELECT C FROM S);
	                                          ^`, true},
		{"outer join on an inner join's padded operand", "SELECT COUNT(*) FROM R LEFT JOIN (S JOIN S AS S2 ON S.C = R.A) ON R.A = S.A;",
			`e.sql:3:59: the ON condition of this JOIN reads R, which is not one of its operands
	SELECT COUNT(*) FROM R LEFT JOIN (S JOIN S AS S2 ON S.C = R.A) ON R.A = S.A;
	                                                          ^`, true},
		{"duplicate alias in a group", "SELECT COUNT(*) FROM R, (S CROSS JOIN R);",
			`e.sql:3:39: duplicate table alias R in FROM
	SELECT COUNT(*) FROM R, (S CROSS JOIN R);
	                                      ^`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Config{}
			if tt.sql {
				c.Dialect = SQL
			}
			_, err := c.Parse("e.sql", []byte(schema+tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error: %v", err, err)
			}
			if d := cmp.Diff(tt.want, err.Error()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestPlainAccepted checks constructs that parse in both dialects, with the
// normal form of the function calls.
func TestPlainAccepted(t *testing.T) {
	tests := []struct {
		src, dbtoaster, sql string
	}{
		{"SELECT SUBSTR(NAME, 2) FROM R", "SUBSTRING(R.NAME, 2, 9223372036854775807)", "SQL_SUBSTR(R.NAME, 2)"},
		{"SELECT SUBSTRING(NAME, 1, 2) FROM R", "SUBSTRING(R.NAME, 1, 2)", "SQL_SUBSTR(R.NAME, 1, 2)"},
		{"SELECT CAST(B AS INTEGER) FROM R", "CAST_INT(R.B)", "SQL_CAST_INT(R.B)"},
		{"SELECT CAST(NAME AS REAL) FROM R", "CAST_FLOAT(R.NAME)", "SQL_CAST_FLOAT(R.NAME)"},
		{"SELECT CAST(B AS VARCHAR(3)) FROM R", "CAST_STRING(R.B)", "SQL_CAST_STRING(R.B)"},
		{"SELECT CAST(NAME AS DATE) FROM R", "CAST_DATE(R.NAME)", "CAST_DATE(R.NAME)"},
		{"SELECT A || B FROM R", "CONCAT(SQL_CAST_STRING(R.A), SQL_CAST_STRING(R.B))", "CONCAT(SQL_CAST_STRING(R.A), SQL_CAST_STRING(R.B))"},
		{"SELECT ALL ROUND(A) FROM R", "ROUND(R.A, 0)", "ROUND(R.A, 0)"},
		{"SELECT MAX(DISTINCT A) FROM R", "MAX(R.A)", "MAX(R.A)"},
	}
	for _, tt := range tests {
		for _, d := range []Dialect{DBToaster, SQL} {
			want := tt.dbtoaster
			if d == SQL {
				want = tt.sql
			}
			src := strings.NewReplacer(" INT", " INT NOT NULL", " FLOAT", " FLOAT NOT NULL", " STRING", " STRING NOT NULL", " DATE)", " DATE NOT NULL)").Replace(schema)
			f, err := Config{Dialect: d}.Parse("a.sql", []byte(src+tt.src+";"))
			if err != nil {
				t.Errorf("%s: %s: %v", d, tt.src, err)
				continue
			}
			if got := exprKey(f.Queries[0].Items[0].Expr); got != want {
				t.Errorf("%s: %s: %s, want %s", d, tt.src, got, want)
			}
		}
	}
}
