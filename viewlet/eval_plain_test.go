package viewlet

import (
	"database/sql"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// plainExprs are constant expressions of the shared scalar functions over
// many values; SQLite evaluates the source text itself, or the text after
// " ==> " where toastgen's dialect differs from SQLite by design.
func plainExprs(sqlDialect bool) []string {
	nums := []string{"0", "1", "-1", "7", "-9223372036854775807", "2.5", "-2.5", "0.125", "-0.125", "1.005", "2.675",
		"0.045", "1234.5678", "-0.0001", "1e20", "1e-5", "123456789.125", "0.1", "3.0", "49.47", "4503599627370497.0"}
	strs := []string{"''", "'a'", "'hello'", "'  two words  '", "'héllo wörld'", "'ÄÖÜ äöü'", "'日本語'", "'xxhixx'", "'MiXeD 123'"}
	var es []string
	for _, x := range nums {
		es = append(es, "ABS("+x+")", "ROUND("+x+")", "LENGTH("+x+")", "UPPER("+x+")", x+" || ''", "'<' || "+x+" || '>'")
		for n := -1; n <= 5; n++ {
			es = append(es, fmt.Sprintf("ROUND(%s, %d)", x, n))
		}
		if sqlDialect {
			es = append(es, "CAST("+x+" AS INTEGER)", "CAST("+x+" AS REAL)", "CAST("+x+" AS TEXT)", "CAST("+x+" AS VARCHAR(4))",
				"SUBSTR("+x+", 2)", "(("+x+") > 1) + 10", "SUM(("+x+") >= 0)")
		}
	}
	for _, s := range strs {
		es = append(es, "LENGTH("+s+")", "UPPER("+s+")", "LOWER("+s+")", "TRIM("+s+")", "LTRIM("+s+")", "RTRIM("+s+")",
			"TRIM("+s+", 'xé ')", "LTRIM("+s+", 'x')", "RTRIM("+s+", 'x ')", s+" || "+s, s+" || 1 || 2.5")
		if !sqlDialect {
			// DBToaster's SUBSTRING counts from 0.
			es = append(es, "SUBSTRING("+s+", 1, 2) ==> substr("+s+", 2, 2)", "SUBSTR("+s+", 2) ==> substr("+s+", 3)")
			continue
		}
		for start := -4; start <= 4; start++ {
			es = append(es, fmt.Sprintf("SUBSTR(%s, %d)", s, start), fmt.Sprintf("SUBSTRING(%s, %d)", s, start))
			for n := -3; n <= 3; n++ {
				es = append(es, fmt.Sprintf("SUBSTR(%s, %d, %d)", s, start, n))
			}
		}
	}
	if sqlDialect {
		for _, s := range []string{"'12abc'", "' 42 '", "'1e3'", "'1.5e3x'", "'-0.5'", "'abc'", "''", "'9223372036854775808'", "' +7'", "'.5'", "'3.14abc'"} {
			es = append(es, "CAST("+s+" AS INTEGER)", "CAST("+s+" AS INT)", "CAST("+s+" AS REAL)", "CAST("+s+" AS DOUBLE)",
				"CAST("+s+" AS FLOAT)", "CAST("+s+" AS TEXT)", "CAST("+s+" AS CHAR(3))",
				// DECIMAL is REAL: SQLite's NUMERIC would make 12.0 the integer 12.
				"CAST("+s+" AS DECIMAL) ==> CAST("+s+" AS REAL)")
		}
		es = append(es, "(1 = 1) + (2 < 1)", "(NULL = 1)", "CASE WHEN 1 > 0 THEN 1 END = (2 < 3)", "(1 < 2) = (3 < 4)",
			"-(1 < 2)", "ABS((1 < 2) - 5)", "(1 < 2) || 'x'")
	}
	return es
}

// TestEvalPlainFunctions evaluates the shared scalar functions with the
// interpreter and with SQLite, in both dialects: values and types must be
// the same, floats bit for bit.
func TestEvalPlainFunctions(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, d := range []lang.Dialect{lang.DBToaster, lang.SQL} {
		in := &Interp{sql: d == lang.SQL, likes: map[string]*runtime.LikePattern{}}
		n := 0
		for _, src := range plainExprs(d == lang.SQL) {
			sqliteSrc := src
			if i := strings.Index(src, " ==> "); i >= 0 {
				src, sqliteSrc = src[:i], src[i+5:]
			}
			f, err := lang.Config{Dialect: d}.Parse("e.sql", []byte("SELECT "+src+" AS v;"))
			if err != nil {
				t.Errorf("%s: %s: %v", d, src, err)
				continue
			}
			e := f.Queries[0].Items[0].Expr
			if a, ok := e.(*lang.Agg); ok {
				e = a.Arg // SUM over the one row of SELECT without FROM
			}
			got := in.evalExpr(e, &env{})
			var want any
			if err := db.QueryRow("SELECT " + sqliteSrc).Scan(&want); err != nil {
				t.Errorf("%s: SQLite: %v", src, err)
				continue
			}
			if b, ok := want.([]byte); ok {
				want = string(b)
			}
			if !sameValue(got, want) {
				t.Errorf("%s: %s = %v (%T), SQLite says %v (%T)", d, src, got, got, want, want)
			}
			n++
		}
		t.Logf("%s: %d expressions", d, n)
	}
}

// sameValue compares an interpreter value with an SQLite one: same type
// (a DATE is not expected), floats bit for bit but for the sign of zero.
func sameValue(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case int64:
		g, ok := got.(int64)
		return ok && g == w
	case float64:
		g, ok := got.(float64)
		return ok && (math.Float64bits(g) == math.Float64bits(w) || g == 0 && w == 0)
	case string:
		g, ok := got.(string)
		return ok && g == w
	}
	return false
}
