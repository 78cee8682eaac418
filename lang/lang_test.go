package lang

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}

func queryFiles(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	return files
}

// parseTestFile parses a testdata file in the dialect its first line names
// ("-- dialect sql"), else in dialect dbtoaster.
func parseTestFile(t *testing.T, path string) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c Config
	if bytes.HasPrefix(src, []byte("-- dialect sql\n")) {
		c.Dialect = SQL
	}
	return c.Parse(path, src)
}

// TestFormat parses and resolves every testdata/*.sql and compares Format's
// output with testdata/*.golden.
func TestFormat(t *testing.T) {
	for _, path := range queryFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := parseTestFile(t, path)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, strings.TrimSuffix(path, ".sql")+".golden", Format(f))
		})
	}
}

// TestSQLite compares the SQLite translation of every query in
// testdata/*.sql with testdata/*.sqlite.golden.
func TestSQLite(t *testing.T) {
	for _, path := range queryFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := parseTestFile(t, path)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, q := range f.Queries {
				b.WriteString("-- " + q.Name + "\n" + SQLiteIn(f.Dialect, q) + ";\n\n")
			}
			golden(t, strings.TrimSuffix(path, ".sql")+".sqlite.golden", b.String())
		})
	}
}

func TestView(t *testing.T) {
	src := `CREATE STREAM R (A INT, B INT, C FLOAT);
SELECT SUM(C) / B FROM R GROUP BY B;
SELECT A AS x, B + 1, SUM(C) AS s FROM R GROUP BY A, B + 1, C;
SELECT A, B FROM R;
SELECT C, SUM(A) AS s, B + 1 AS b1, B FROM R GROUP BY B, A, C, B + 1;`
	f, err := Parse("v.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	names := func(its []*SelectItem) (s []string) {
		for _, it := range its {
			s = append(s, it.Name+":"+it.Expr.Type().String())
		}
		return s
	}
	want := [][2][]string{
		{{"B:INT"}, {"COL1:FLOAT"}},
		{{"X:INT", "COL2:INT", "C:FLOAT"}, {"S:FLOAT"}},
		{{"A:INT", "B:INT"}, {"COUNT:INT"}},
		// Keys in SELECT order, then the unselected one (A).
		{{"C:FLOAT", "B1:INT", "B:INT", "A:INT"}, {"S:INT"}},
	}
	// The SELECT lists: name, then kN for key N or vN for value N.
	// Names as SQLite gives them (aliases as written, source text).
	wantCols := [][]string{
		{"SUM(C) / B v0"},
		{"x k0", "B + 1 k1", "s v0"},
		{"A k0", "B k1"},
		{"C k0", "s v0", "b1 k1", "B k2"},
	}
	for i, q := range f.Queries {
		k, v := q.View()
		got := [2][]string{names(k), names(v)}
		if d := cmp.Diff(want[i], got); d != "" {
			t.Errorf("%s view (-want +got):\n%s", q.Name, d)
		}
		var cols []string
		for _, c := range q.Columns() {
			kind := "v"
			if c.Key {
				kind = "k"
			}
			cols = append(cols, fmt.Sprintf("%s %s%d", c.Name, kind, c.Index))
		}
		if d := cmp.Diff(wantCols[i], cols); d != "" {
			t.Errorf("%s columns (-want +got):\n%s", q.Name, d)
		}
	}
}

const schema = "CREATE STREAM R (A INT, B FLOAT, NAME STRING, D DATE);\nCREATE STREAM S (A INT, C INT);\n"

// TestErrors checks the complete rendering of one error of each kind.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"malformed", "SELECT A FROM R WHERE;",
			`e.sql:3:22: unexpected token ";" (expected expression)
	SELECT A FROM R WHERE;
	                     ^`},
		{"lexer", "SELECT A FROM R WHERE A = \"x\";",
			`e.sql:3:27: invalid input text "\"x\";"
	SELECT A FROM R WHERE A = "x";
	                          ^`},
		{"unknown table", "SELECT SUM(A) FROM Q;",
			`e.sql:3:20: unknown table Q
	SELECT SUM(A) FROM Q;
	                   ^`},
		{"unknown column", "SELECT SUM(R.Z) FROM R;",
			`e.sql:3:12: unknown column R.Z
	SELECT SUM(R.Z) FROM R;
	           ^`},
		{"unknown alias", "SELECT SUM(X.A) FROM R;",
			`e.sql:3:12: unknown table or alias X
	SELECT SUM(X.A) FROM R;
	           ^`},
		{"ambiguous column", "SELECT SUM(A) FROM R, S;",
			`e.sql:3:12: ambiguous column A (in R and S)
	SELECT SUM(A) FROM R, S;
	           ^`},
		{"duplicate alias", "SELECT SUM(C) FROM S, R AS S;",
			`e.sql:3:23: duplicate table alias S in FROM
	SELECT SUM(C) FROM S, R AS S;
	                      ^`},
		{"string plus int", "SELECT SUM('a' + 1) FROM R;",
			`e.sql:3:16: operator + needs numeric operands, got STRING and INT
	SELECT SUM('a' + 1) FROM R;
	               ^`},
		{"sum of string", "SELECT SUM(NAME) FROM R;",
			`e.sql:3:12: SUM needs a numeric argument, got STRING
	SELECT SUM(NAME) FROM R;
	           ^`},
		{"date vs int", "SELECT COUNT(*) FROM R WHERE D < 1;",
			`e.sql:3:32: mismatched types DATE and INT in <
	SELECT COUNT(*) FROM R WHERE D < 1;
	                               ^`},
		{"bool as value", "SELECT SUM(A > 1) FROM R;",
			`e.sql:3:14: a condition cannot be used as a value
	SELECT SUM(A > 1) FROM R;
	             ^`},
		{"where not bool", "SELECT COUNT(*) FROM R WHERE A;",
			`e.sql:3:30: WHERE needs a condition, got a INT value
	SELECT COUNT(*) FROM R WHERE A;
	                             ^`},
		{"like non-string", "SELECT COUNT(*) FROM R WHERE A LIKE 'x%';",
			`e.sql:3:30: LIKE needs a STRING operand, got INT
	SELECT COUNT(*) FROM R WHERE A LIKE 'x%';
	                             ^`},
		{"aggregate in where", "SELECT COUNT(*) FROM R WHERE SUM(A) > 1;",
			`e.sql:3:30: aggregate SUM is not allowed in WHERE
	SELECT COUNT(*) FROM R WHERE SUM(A) > 1;
	                             ^`},
		{"nested aggregate", "SELECT SUM(MAX(A)) FROM R;",
			`e.sql:3:12: aggregate MAX cannot be nested in another aggregate
	SELECT SUM(MAX(A)) FROM R;
	           ^`},
		{"percentile out of range", "SELECT PERCENTILE_CONT(2) WITHIN GROUP (ORDER BY A) FROM R;",
			`e.sql:3:24: the fraction of PERCENTILE_CONT must be a constant between 0 and 1
	SELECT PERCENTILE_CONT(2) WITHIN GROUP (ORDER BY A) FROM R;
	                       ^`},
		{"percentile not constant", "SELECT PERCENTILE_DISC(A) WITHIN GROUP (ORDER BY A) FROM R;",
			`e.sql:3:24: the fraction of PERCENTILE_DISC must be a constant between 0 and 1
	SELECT PERCENTILE_DISC(A) WITHIN GROUP (ORDER BY A) FROM R;
	                       ^`},
		{"percentile without within", "SELECT PERCENTILE_DISC(0.5) FROM R;",
			`e.sql:3:8: PERCENTILE_DISC needs the form PERCENTILE_DISC(fraction) WITHIN GROUP (ORDER BY x)
	SELECT PERCENTILE_DISC(0.5) FROM R;
	       ^`},
		{"median of string", "SELECT MEDIAN(NAME) FROM R;",
			`e.sql:3:15: MEDIAN needs a numeric argument, got STRING
	SELECT MEDIAN(NAME) FROM R;
	              ^`},
		{"within group on sum", "SELECT SUM(A) WITHIN GROUP (ORDER BY A) FROM R;",
			`e.sql:3:15: WITHIN GROUP is only allowed with PERCENTILE_CONT, PERCENTILE_DISC and MODE
	SELECT SUM(A) WITHIN GROUP (ORDER BY A) FROM R;
	              ^`},
		{"mode distinct", "SELECT MODE(DISTINCT A) FROM R;",
			`e.sql:3:8: MODE does not take * or DISTINCT
	SELECT MODE(DISTINCT A) FROM R;
	       ^`},
		{"window in where", "SELECT A FROM R WHERE SUM(B) OVER (PARTITION BY A) > 1;",
			`e.sql:3:23: window function SUM … OVER is not allowed in WHERE (windows are computed after WHERE: filter on them with QUALIFY, or in a query over a derived table with the window)
	SELECT A FROM R WHERE SUM(B) OVER (PARTITION BY A) > 1;
	                      ^`},
		{"window order by min", "SELECT A, MIN(B) OVER (PARTITION BY A ORDER BY B) FROM R;",
			`e.sql:3:48: a running MIN (ORDER BY in its window) is not supported yet
	SELECT A, MIN(B) OVER (PARTITION BY A ORDER BY B) FROM R;
	                                               ^`},
		{"window frame", "SELECT A, SUM(B) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM R;",
			`e.sql:3:24: window frames are not supported yet (but RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, the default with ORDER BY)
	SELECT A, SUM(B) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM R;
	                       ^`},
		{"rank without order", "SELECT A, RANK() OVER (PARTITION BY A) FROM R;",
			`e.sql:3:11: RANK needs an ORDER BY in its window
	SELECT A, RANK() OVER (PARTITION BY A) FROM R;
	          ^`},
		{"row_number limit", "SELECT A, ROW_NUMBER() OVER (ORDER BY A) AS n FROM R ORDER BY n LIMIT 3;",
			`e.sql:3:65: a LIMIT over rows numbered by ROW_NUMBER is not supported yet (filter on the number instead: SELECT … FROM (SELECT …, ROW_NUMBER() OVER (…) AS n …) WHERE n <= k)
	SELECT A, ROW_NUMBER() OVER (ORDER BY A) AS n FROM R ORDER BY n LIMIT 3;
	                                                                ^`},
		{"row_number filter", "SELECT A FROM (SELECT A, ROW_NUMBER() OVER (ORDER BY B) AS n FROM R) AS t WHERE n <> 2;",
			`e.sql:3:83: a filter on ROW_NUMBER must compare it with an integer constant (=, <, <=, >, >=, BETWEEN), joined by AND
	SELECT A FROM (SELECT A, ROW_NUMBER() OVER (ORDER BY B) AS n FROM R) AS t WHERE n <> 2;
	                                                                                  ^`},
		{"row_number two filters", "SELECT A, B FROM R QUALIFY ROW_NUMBER() OVER (ORDER BY B) < 3 AND ROW_NUMBER() OVER (ORDER BY A) < 3;",
			`e.sql:3:98: a filter on two different ROW_NUMBER windows is not supported
	SELECT A, B FROM R QUALIFY ROW_NUMBER() OVER (ORDER BY B) < 3 AND ROW_NUMBER() OVER (ORDER BY A) < 3;
	                                                                                                 ^`},
		{"row_number expression", "SELECT A, ROW_NUMBER() OVER (ORDER BY B) * 10 FROM R;",
			`e.sql:3:11: ROW_NUMBER in an expression is not supported yet in a query without GROUP BY (select the number itself)
	SELECT A, ROW_NUMBER() OVER (ORDER BY B) * 10 FROM R;
	          ^`},
		{"row_number argument", "SELECT A, ROW_NUMBER(B) OVER (ORDER BY B) FROM R;",
			`e.sql:3:11: ROW_NUMBER takes no argument
	SELECT A, ROW_NUMBER(B) OVER (ORDER BY B) FROM R;
	          ^`},
		{"qualify without window", "SELECT A, B FROM R QUALIFY A > 1;",
			`e.sql:3:30: QUALIFY needs a window function in the query
	SELECT A, B FROM R QUALIFY A > 1;
	                             ^`},
		{"window derived table joined", "SELECT t.A FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS t, R WHERE t.A = R.A;",
			`e.sql:3:28: a window function in a subquery or derived table is not supported yet (but in a derived table that the view's query selects from and filters: SELECT … FROM (SELECT …, RANK() OVER (…) AS r FROM …) AS t WHERE r <= 3)
	SELECT t.A FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS t, R WHERE t.A = R.A;
	                           ^`},
		{"window derived table nested", "SELECT A FROM (SELECT * FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS u) AS t WHERE n < 3;",
			`e.sql:3:41: a window function in a subquery or derived table is not supported yet (but in a derived table that the view's query selects from and filters: SELECT … FROM (SELECT …, RANK() OVER (…) AS r FROM …) AS t WHERE r <= 3)
	SELECT A FROM (SELECT * FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS u) AS t WHERE n < 3;
	                                        ^`},
		{"window derived table subquery", "SELECT A FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS t WHERE n < (SELECT COUNT(*) FROM R);",
			`e.sql:3:79: a subquery in a query over a derived table with window functions is not supported yet
	SELECT A FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS t WHERE n < (SELECT COUNT(*) FROM R);
	                                                                              ^`},
		{"window derived table distinct", "SELECT DISTINCT A FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS t WHERE n < 3;",
			`e.sql:3:1: SELECT DISTINCT over a derived table with window functions is not supported yet
	SELECT DISTINCT A FROM (SELECT A, RANK() OVER (ORDER BY B) AS n FROM R) AS t WHERE n < 3;
	^`},
		{"window grouped", "SELECT A, SUM(B), SUM(A) OVER () FROM R GROUP BY A;",
			`e.sql:3:19: a window over groups is supported for SUM and AVG of a SUM or COUNT, COUNT(*), RANK, DENSE_RANK and ROW_NUMBER only
	SELECT A, SUM(B), SUM(A) OVER () FROM R GROUP BY A;
	                  ^`},
		{"window in subquery", "SELECT COUNT(*) FROM (SELECT A, SUM(B) OVER () AS s FROM R) x;",
			`e.sql:3:1: a query over a derived table with window functions may only select and filter its rows (no grouping, aggregates or windows)
	SELECT COUNT(*) FROM (SELECT A, SUM(B) OVER () AS s FROM R) x;
	^`},
		{"window column not a key", "SELECT A, B + SUM(B) OVER (PARTITION BY A) FROM R;",
			`e.sql:3:11: column R.B of a window item must be a SELECT column or a PARTITION BY expression
	SELECT A, B + SUM(B) OVER (PARTITION BY A) FROM R;
	          ^`},
		{"over on a scalar function", "SELECT ABS(A) OVER () FROM R;",
			`e.sql:3:20: ABS is not a window function
	SELECT ABS(A) OVER () FROM R;
	                   ^`},
		{"not grouped", "SELECT A, NAME, SUM(B) FROM R GROUP BY A;",
			`e.sql:3:11: column R.NAME must appear in GROUP BY or be used in an aggregate
	SELECT A, NAME, SUM(B) FROM R GROUP BY A;
	          ^`},
		{"not grouped having", "SELECT A, SUM(B) FROM R GROUP BY A HAVING B > 1;",
			`e.sql:3:43: column R.B must appear in GROUP BY or be used in an aggregate
	SELECT A, SUM(B) FROM R GROUP BY A HAVING B > 1;
	                                          ^`},
		{"offset without limit", "SELECT A, SUM(B) FROM R GROUP BY A ORDER BY 2 OFFSET 3;",
			`e.sql:3:47: OFFSET needs a LIMIT (write LIMIT n OFFSET m)
	SELECT A, SUM(B) FROM R GROUP BY A ORDER BY 2 OFFSET 3;
	                                              ^`},
		{"limit not constant", "SELECT A FROM R ORDER BY A LIMIT B;",
			`e.sql:3:34: LIMIT needs a non-negative integer constant
	SELECT A FROM R ORDER BY A LIMIT B;
	                                 ^`},
		{"limit negative", "SELECT A FROM R ORDER BY A LIMIT -1;",
			`e.sql:3:34: LIMIT needs a non-negative integer constant
	SELECT A FROM R ORDER BY A LIMIT -1;
	                                 ^`},
		{"limit in subquery", "SELECT COUNT(*) FROM (SELECT A FROM R ORDER BY A LIMIT 3) x;",
			`e.sql:3:50: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT COUNT(*) FROM (SELECT A FROM R ORDER BY A LIMIT 3) x;
	                                                 ^`},
		{"limit in IN subquery", "SELECT A FROM R WHERE A IN (SELECT A FROM R ORDER BY A LIMIT 2);",
			`e.sql:3:56: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A FROM R WHERE A IN (SELECT A FROM R ORDER BY A LIMIT 2);
	                                                       ^`},
		{"limit 0 in EXISTS", "SELECT A FROM R WHERE EXISTS (SELECT B FROM R r2 WHERE r2.B > R.A LIMIT 0);",
			`e.sql:3:67: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A FROM R WHERE EXISTS (SELECT B FROM R r2 WHERE r2.B > R.A LIMIT 0);
	                                                                  ^`},
		{"limit in ALL", "SELECT A FROM R WHERE A > ALL (SELECT B FROM R LIMIT 1);",
			`e.sql:3:48: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A FROM R WHERE A > ALL (SELECT B FROM R LIMIT 1);
	                                               ^`},
		{"limit in SOME", "SELECT A FROM R WHERE A = SOME (SELECT B FROM R ORDER BY B LIMIT 1 OFFSET 1);",
			`e.sql:3:60: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A FROM R WHERE A = SOME (SELECT B FROM R ORDER BY B LIMIT 1 OFFSET 1);
	                                                           ^`},
		{"limit in scalar subquery", "SELECT A, (SELECT B FROM R r2 ORDER BY B DESC LIMIT 1) AS latest FROM R;",
			`e.sql:3:47: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A, (SELECT B FROM R r2 ORDER BY B DESC LIMIT 1) AS latest FROM R;
	                                              ^`},
		{"limit in compound IN subquery", "SELECT A FROM R WHERE A IN (SELECT A FROM R UNION SELECT B FROM R LIMIT 1);",
			`e.sql:3:67: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A FROM R WHERE A IN (SELECT A FROM R UNION SELECT B FROM R LIMIT 1);
	                                                                  ^`},
		{"limit in nested derived table", "SELECT A FROM R WHERE A IN (SELECT x.A FROM (SELECT A FROM R LIMIT 2) x);",
			`e.sql:3:62: LIMIT in a subquery or derived table is not supported yet (only a view's own SELECT may have one)
	SELECT A FROM R WHERE A IN (SELECT x.A FROM (SELECT A FROM R LIMIT 2) x);
	                                                             ^`},
		{"order by before the last arm", "SELECT A FROM R ORDER BY A UNION SELECT B FROM R;",
			`e.sql:3:26: ORDER BY must come after the last arm of a compound query (UNION, INTERSECT, EXCEPT)
	SELECT A FROM R ORDER BY A UNION SELECT B FROM R;
	                         ^`},
		{"compound order by expression", "SELECT A FROM R UNION SELECT B FROM R ORDER BY A + 1 LIMIT 2;",
			`e.sql:3:48: ORDER BY of a compound query must name one of its columns, by name or position
	SELECT A FROM R UNION SELECT B FROM R ORDER BY A + 1 LIMIT 2;
	                                               ^`},
		{"order by outside select with limit", "SELECT A FROM R ORDER BY B LIMIT 3;",
			`e.sql:3:26: ORDER BY with LIMIT must name a column of the SELECT list (add this expression to it)
	SELECT A FROM R ORDER BY B LIMIT 3;
	                         ^`},
		{"order by position", "SELECT A FROM R ORDER BY 2;",
			`e.sql:3:26: ORDER BY position 2 is not a column of the SELECT list (it has 1)
	SELECT A FROM R ORDER BY 2;
	                         ^`},
		{"left join", "SELECT COUNT(*) FROM R LEFT JOIN S ON R.A = S.A;",
			`e.sql:3:24: LEFT OUTER JOIN needs -dialect sql (the dbtoaster dialect has no NULLs)
	SELECT COUNT(*) FROM R LEFT JOIN S ON R.A = S.A;
	                       ^`},
		{"is null", "SELECT COUNT(*) FROM R WHERE A IS NULL;",
			`e.sql:3:32: IS [NOT] NULL is not supported in the dbtoaster dialect, which has no NULLs (columns always hold a value; use -dialect sql)
	SELECT COUNT(*) FROM R WHERE A IS NULL;
	                               ^`},
		{"null literal", "SELECT COUNT(*) FROM R WHERE A = NULL;",
			`e.sql:3:34: NULL is not supported in the dbtoaster dialect, which has no NULLs (columns always hold a value; use -dialect sql)
	SELECT COUNT(*) FROM R WHERE A = NULL;
	                                 ^`},
		{"coalesce", "SELECT SUM(COALESCE(A, 0)) FROM R;",
			`e.sql:3:12: COALESCE is not supported in the dbtoaster dialect, which has no NULLs (columns always hold a value; use -dialect sql)
	SELECT SUM(COALESCE(A, 0)) FROM R;
	           ^`},
		{"modulo", "SELECT SUM(A % 2) FROM R;",
			`e.sql:3:14: operator % is not supported in the dbtoaster dialect (use -dialect sql)
	SELECT SUM(A % 2) FROM R;
	             ^`},
		{"null column", "SELECT 1;\nCREATE STREAM T (X INT NULL);",
			`e.sql:4:24: a NULL column is not supported in the dbtoaster dialect, which has no NULLs (use -dialect sql)
	CREATE STREAM T (X INT NULL);
	                       ^`},
		{"star of unknown alias", "SELECT X.* FROM R;",
			`e.sql:3:8: unknown table or alias X in X.*
	SELECT X.* FROM R;
	       ^`},
		{"star with alias", "SELECT R.* AS Y FROM R;",
			`e.sql:3:8: R.* cannot have an alias
	SELECT R.* AS Y FROM R;
	       ^`},
		{"unknown function", "SELECT FOO(A) FROM R;",
			`e.sql:3:8: unknown function FOO
	SELECT FOO(A) FROM R;
	       ^`},
		{"math function arity", "SELECT SUM(VEC_LENGTH(A, B)) FROM R;",
			`e.sql:3:12: VEC_LENGTH takes 3 arguments, got 2
	SELECT SUM(VEC_LENGTH(A, B)) FROM R;
	           ^`},
		{"math function one argument", "SELECT SUM(SQRT(A, B)) FROM R;",
			`e.sql:3:12: SQRT takes 1 argument, got 2
	SELECT SUM(SQRT(A, B)) FROM R;
	           ^`},
		{"dihedral angle arity", "SELECT SUM(DIHEDRAL_ANGLE(A, B, A, B, A, B, A, B, A, B, A)) FROM R;",
			`e.sql:3:12: DIHEDRAL_ANGLE takes 12 arguments, got 11
	SELECT SUM(DIHEDRAL_ANGLE(A, B, A, B, A, B, A, B, A, B, A)) FROM R;
	           ^`},
		{"math function string argument", "SELECT SUM(VEC_DOT(A, B, A, B, NAME, A)) FROM R;",
			`e.sql:3:32: VEC_DOT argument 5 must be INT or FLOAT, got STRING
	SELECT SUM(VEC_DOT(A, B, A, B, NAME, A)) FROM R;
	                               ^`},
		{"math function date argument", "SELECT COUNT(*) FROM R WHERE COS(D) > 0;",
			`e.sql:3:34: COS argument 1 must be INT or FLOAT, got DATE
	SELECT COUNT(*) FROM R WHERE COS(D) > 0;
	                                 ^`},
		{"math function condition argument", "SELECT SUM(POW(A > 1, 2)) FROM R;",
			`e.sql:3:18: a condition cannot be used as a value
	SELECT SUM(POW(A > 1, 2)) FROM R;
	                 ^`},
		{"hash arity", "SELECT SUM(HASH(A, B)) FROM R;",
			`e.sql:3:12: HASH takes 1 argument, got 2
	SELECT SUM(HASH(A, B)) FROM R;
	           ^`},
		{"hash no argument", "SELECT SUM(HASH()) FROM R;",
			`e.sql:3:12: HASH takes 1 argument, got 0
	SELECT SUM(HASH()) FROM R;
	           ^`},
		{"duplicate result column", "SELECT A AS b, B AS b FROM R;",
			`e.sql:3:16: duplicate result column B
	SELECT A AS b, B AS b FROM R;
	               ^`},
		{"scalar subquery columns", "SELECT COUNT(*) FROM R WHERE A > (SELECT S.A, S.C FROM S);",
			`e.sql:3:34: subquery must return exactly one column, not 2
	SELECT COUNT(*) FROM R WHERE A > (SELECT S.A, S.C FROM S);
	                                 ^`},
		{"interval on int", "SELECT COUNT(*) FROM R WHERE D < A + INTERVAL '1' DAY;",
			`e.sql:3:36: INTERVAL needs a DATE left operand, got INT
	SELECT COUNT(*) FROM R WHERE D < A + INTERVAL '1' DAY;
	                                   ^`},
		{"bad date", "SELECT COUNT(*) FROM R WHERE D < DATE('1998-13-01');",
			`e.sql:3:34: invalid date "1998-13-01" (no such day: dates run from 0001-01-01 to 9999-12-31)
	SELECT COUNT(*) FROM R WHERE D < DATE('1998-13-01');
	                                 ^`},
		{"no such day", "SELECT COUNT(*) FROM R WHERE D < DATE('2024-02-30');",
			`e.sql:3:34: invalid date "2024-02-30" (no such day: dates run from 0001-01-01 to 9999-12-31)
	SELECT COUNT(*) FROM R WHERE D < DATE('2024-02-30');
	                                 ^`},
		{"year 0", "SELECT COUNT(*) FROM R WHERE D < DATE('0000-01-01');",
			`e.sql:3:34: invalid date "0000-01-01" (no such day: dates run from 0001-01-01 to 9999-12-31)
	SELECT COUNT(*) FROM R WHERE D < DATE('0000-01-01');
	                                 ^`},
		{"date syntax", "SELECT COUNT(*) FROM R WHERE D < DATE('1998-1-01');",
			`e.sql:3:34: invalid date "1998-1-01" (want yyyy-mm-dd)
	SELECT COUNT(*) FROM R WHERE D < DATE('1998-1-01');
	                                 ^`},
		{"tabs kept", "SELECT\tCOUNT(*)\tFROM\tX;",
			"e.sql:3:22: unknown table X\n\tSELECT\tCOUNT(*)\tFROM\tX;\n\t      \t        \t    \t^"},
		{"missing semicolon", "SELECT SUM(A) FROM R\nSELECT SUM(B) FROM R;",
			`e.sql:4:1: unexpected token "SELECT"
	SELECT SUM(B) FROM R;
	^`},
		{"include missing", "INCLUDE 'testdata/does-not-exist.sql';",
			`e.sql:3:1: INCLUDE: open testdata/does-not-exist.sql: no such file or directory
	INCLUDE 'testdata/does-not-exist.sql';
	^`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.sql", []byte(schema+tt.src))
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

// TestIncludeErrors checks that errors in an included file are positioned
// in that file and that include cycles are reported.
func TestIncludeErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.sql")
	if err := os.WriteFile(bad, []byte("CREATE STREAM R (A INT);\nCREATE STREAM R (B INT);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Parse("main.sql", []byte("INCLUDE '"+bad+"';\n"))
	want := bad + ":2:1: relation R is already declared\n\tCREATE STREAM R (B INT);\n\t^"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	cyc := filepath.Join(dir, "cycle.sql")
	if err := os.WriteFile(cyc, []byte("INCLUDE '"+cyc+"';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ParseFile(cyc)
	if err == nil || !strings.Contains(err.Error(), "INCLUDE cycle") {
		t.Errorf("cycle: got %v", err)
	}
}

// TestNoPanic feeds truncated and mutated versions of valid queries to
// Parse: any input must yield a File or an *Error, never a panic or an
// internal error.
func TestNoPanic(t *testing.T) {
	var inputs []string
	for _, path := range queryFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(src)
		if i := strings.Index(s, "INCLUDE"); i >= 0 {
			// Splice the schema in, so that truncations exercise the resolver.
			inc, _ := os.ReadFile("testdata/schema.inc")
			s = string(inc) + s[strings.Index(s, ";")+1:]
		}
		inputs = append(inputs, s)
	}
	check := func(src string) {
		t.Helper()
		f, err := Parse("fuzz.sql", []byte(src))
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("internal error for input:\n%s\n%v", src, err)
			}
			return
		}
		Format(f)
		for _, q := range f.Queries {
			SQLite(q)
		}
	}
	// Mutate at evenly spread positions per file: parsing
	// is a few milliseconds per file, and every byte would take minutes.
	positions := 150
	if testing.Short() {
		positions = 30
	}
	n := 0
	for _, s := range inputs {
		for k := 0; k < positions; k++ {
			i := k * len(s) / positions
			check(s[:i])                   // truncation
			check(s[:i] + s[i+1:])         // deletion
			check(s[:i] + ")" + s[i:])     // insertion
			check(s[:i] + " NOT " + s[i:]) // keyword insertion
			n += 4
		}
	}
	t.Logf("%d inputs", n)
}

// FuzzParse parses any input in both dialects: errors are fine, a panic
// or an internal error is not. The seeds are the project's query files.
func FuzzParse(f *testing.F) {
	f.Add(schema+"SELECT A, SUM(B) FROM R WHERE D > DATE('2000-01-01') GROUP BY A;", false)
	for _, glob := range []string{"../examples/*/*.sql", "../viewlet/testdata/diff/*.sql"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil && !bytes.Contains(src, []byte("INCLUDE")) {
				f.Add(string(src), strings.Contains(p, "examples/tpch") || strings.Contains(p, "examples/finance"))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string, dbtoaster bool) {
		d := SQL
		if dbtoaster {
			d = DBToaster
		}
		file, err := Config{Dialect: d}.Parse("fuzz.sql", []byte(src))
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		for _, q := range file.Queries {
			SQLite(q)
		}
	})
}
