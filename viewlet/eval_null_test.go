package viewlet

import (
	"database/sql"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	_ "modernc.org/sqlite"
)

// TestEvalThreeValued evaluates constant expressions of dialect sql with the
// interpreter and with SQLite, which must agree: NULL propagation, Kleene
// AND/OR/NOT, IN lists with NULL, IS [NOT] NULL, IS [NOT] DISTINCT FROM,
// COALESCE, NULLIF, CASE without ELSE, INT / INT, x / 0 and %. SQLite runs
// the source text itself, so that the front end's rewrites (NOT pushed down,
// BETWEEN, simple CASE) are checked too.
func TestEvalThreeValued(t *testing.T) {
	// Conditions are read as CASE WHEN c THEN 1 WHEN NOT (c) THEN 0 ELSE -1
	// END: -1 is UNKNOWN, and NOT is the resolver's pushed-down form.
	conds := []string{
		"1 = NULL", "NULL <> NULL",
		"NULL AND 1 = 0", "NULL AND 1 = 1", "1 = 0 AND NULL", "NULL OR 1 = 1", "NULL OR 1 = 0", "1 = 1 OR NULL",
		"NOT (NULL = 1)", "NOT (1 = 1 AND NULL)", "NOT (1 = 0 AND NULL)", "NOT (1 < 2) OR NULL", "NULL",
		"1 IN (2, NULL)", "1 IN (1, NULL)", "1 NOT IN (2, NULL)", "1 NOT IN (1, NULL)", "NULL IN (1, 2)", "1 NOT IN (2, 3)",
		"NULL IS NULL", "1 IS NULL", "NULL IS NOT NULL", "NOT (NULL IS NULL)",
		"NULL IS NOT DISTINCT FROM NULL", "1 IS DISTINCT FROM NULL", "1 IS NOT DISTINCT FROM 1", "2 IS DISTINCT FROM 2.0",
		"NOT (1 IS DISTINCT FROM NULL)", "NULL LIKE 'a%'", "'ab' LIKE 'a%'", "NOT ('ab' LIKE 'b%')",
		"NOT (2 < 2)", "NOT (2 <= 2)", "NOT (2 > 2)", "NOT (2 >= 2)", "NOT (2 = 2)", "NOT (2 <> 2)", "NOT (2 < 3)", "NOT (3 <= 2)",
		"NOT (NOT (2 < 2))", "NOT (2 IN (1, 2))", "NOT (NULL IN (1))", "NOT (1 = 1 OR 2 = 3)",
		"NOT (NULL BETWEEN 1 AND 2)", "NOT (3 BETWEEN 1 AND NULL)", "NOT (0 BETWEEN 1 AND NULL)",
	}
	exprs := []string{
		"NULL + 1", "-(NULL)", "NULL * 2.5",
		"COALESCE(NULL, 2)", "COALESCE(NULL, NULL, 3.5)", "COALESCE(1, NULL)", "NULLIF(2, 2)", "NULLIF(2, 3)", "NULLIF(NULL, 1)",
		"CASE WHEN NULL THEN 1 ELSE 2 END", "CASE WHEN 1 = 0 THEN 1 END", "CASE 1 WHEN NULL THEN 1 ELSE 0 END",
		"7 / 2", "-7 / 2", "7 / -2", "7 / 0", "7.0 / 0", "7.5 / 2", "0 / 5",
		"7 % 3", "-7 % 3", "7 % -3", "7 % 0", "5.5 % 2", "-5.5 % 2",
		"+3 - +2",
	}
	for _, c := range conds {
		exprs = append(exprs, "CASE WHEN "+c+" THEN 1 WHEN NOT ("+c+") THEN 0 ELSE -1 END")
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA case_sensitive_like=ON"); err != nil {
		t.Fatal(err)
	}
	in := &Interp{sql: true, likes: map[string]*runtime.LikePattern{}}
	for _, src := range exprs {
		f, err := lang.Config{Dialect: lang.SQL}.Parse("e.sql", []byte("SELECT "+src+" AS v;"))
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got := in.evalExpr(f.Queries[0].Items[0].Expr, &env{})
		var want any
		if err := db.QueryRow("SELECT " + src).Scan(&want); err != nil {
			t.Errorf("%s: SQLite: %v", src, err)
			continue
		}
		if (got == nil) != (want == nil) || (got != nil && !equalValues(got, want)) {
			t.Errorf("%s = %v (%T), SQLite says %v (%T)", src, got, got, want, want)
		}
	}
}
