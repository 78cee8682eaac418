package lang

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toastgen/toastgen/runtime"
	"modernc.org/sqlite"
)

var registerOnce sync.Once

// registerFuncs installs the scalar functions the translation relies on,
// with the semantics the oracle harness gives them.
func registerFuncs(t *testing.T) {
	registerOnce.Do(func() {
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(sqlite.RegisterDeterministicScalarFunction("tg_date_add", 3, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			d, n := runtime.Date(a[0].(int64)), a[1].(int64)
			switch a[2].(string) {
			case "DAY":
				d = d.AddDays(n)
			case "MONTH":
				d = d.AddMonths(n)
			default:
				d = d.AddYears(n)
			}
			return int64(d), nil
		}))
		must(sqlite.RegisterDeterministicScalarFunction("tg_regexp_match", 2, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			re, err := regexp.Compile("^(?:" + a[0].(string) + ")")
			if err != nil {
				return nil, err
			}
			if re.MatchString(a[1].(string)) {
				return int64(1), nil
			}
			return int64(0), nil
		}))
		must(sqlite.RegisterDeterministicScalarFunction("tg_cast_string", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			return fmt.Sprint(a[0]), nil
		}))
		must(sqlite.RegisterDeterministicScalarFunction("tg_cast_date", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			d, err := runtime.ParseDate([]byte(fmt.Sprint(a[0])))
			return int64(d), err
		}))
		for name, m := range runtime.MathFuncs {
			must(sqlite.RegisterDeterministicScalarFunction("tg_"+strings.ToLower(name), int32(m.Arity), func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				fs := make([]float64, len(a))
				for i, v := range a {
					switch v := v.(type) {
					case int64:
						fs[i] = float64(v)
					case float64:
						fs[i] = v
					default:
						return nil, fmt.Errorf("%s: argument %d is %T", name, i+1, v)
					}
				}
				return m.Eval(fs), nil
			}))
		}
		must(sqlite.RegisterDeterministicScalarFunction("tg_hash", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			return runtime.Hash(a[0].(int64)), nil
		}))
		must(sqlite.RegisterDeterministicScalarFunction("tg_hash_float", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			return runtime.HashFloat(a[0].(float64)), nil
		}))
		must(sqlite.RegisterDeterministicScalarFunction("tg_hash_string", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
			return runtime.HashString(a[0].(string)), nil
		}))
		// Stand-ins for the oracle's ordered-set aggregates (lang/oracle
		// registers the real ones; this package cannot import it): the
		// translation only has to run.
		for _, fn := range []string{"TOAST_PERCENTILE_CONT", "TOAST_PERCENTILE_DISC", "TOAST_MODE"} {
			must(sqlite.RegisterFunction(fn, &sqlite.FunctionImpl{NArgs: 3, Deterministic: true,
				MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) { return &lastValue{}, nil }}))
		}
	})
}

// lastValue is an aggregate that returns the last value it saw.
type lastValue struct{ v driver.Value }

func (a *lastValue) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	a.v = args[0]
	return nil
}
func (a *lastValue) WindowInverse(*sqlite.FunctionContext, []driver.Value) error { return nil }
func (a *lastValue) WindowValue(*sqlite.FunctionContext) (driver.Value, error)   { return a.v, nil }
func (a *lastValue) Final(*sqlite.FunctionContext)                               {}

// TestSQLiteRuns executes the translation of every testdata query in SQLite
// over small tables, checking that it is valid SQL with the view's columns.
func TestSQLiteRuns(t *testing.T) {
	registerFuncs(t)
	for _, path := range queryFiles(t) {
		f, err := parseTestFile(t, path)
		if err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite", ":memory:")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		defer db.Close()
		if _, err := db.Exec("PRAGMA case_sensitive_like=ON"); err != nil {
			t.Fatal(err)
		}
		sqlType := map[Type]string{TInt: "INTEGER", TFloat: "REAL", TString: "TEXT", TDate: "INTEGER"}
		for _, r := range f.Relations {
			var cols, vals []string
			for _, c := range r.Columns {
				cols = append(cols, c.Name+" "+sqlType[c.Type])
			}
			if _, err := db.Exec("CREATE TABLE " + r.Name + " (" + strings.Join(cols, ", ") + ")"); err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 3; i++ {
				vals = vals[:0]
				for _, c := range r.Columns {
					switch c.Type {
					case TInt:
						vals = append(vals, strconv.Itoa(i))
					case TFloat:
						vals = append(vals, fmt.Sprintf("%d.5", i))
					case TString:
						// A date's text, so that CAST_DATE of a string column works.
						vals = append(vals, fmt.Sprintf("'1998-01-0%d'", i))
					case TDate:
						vals = append(vals, fmt.Sprintf("1998010%d", i))
					}
				}
				if _, err := db.Exec("INSERT INTO " + r.Name + " VALUES (" + strings.Join(vals, ", ") + ")"); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, q := range f.Queries {
			s := SQLiteIn(f.Dialect, q)
			rows, err := db.Query(s)
			if err != nil {
				t.Errorf("%s %s: %v\n%s", path, q.Name, err, s)
				continue
			}
			cols, _ := rows.Columns()
			keys, values := q.View()
			if len(cols) != len(keys)+len(values) {
				t.Errorf("%s %s: %d columns, want %d", path, q.Name, len(cols), len(keys)+len(values))
			}
			for rows.Next() {
			}
			if err := rows.Err(); err != nil {
				t.Errorf("%s %s: %v\n%s", path, q.Name, err, s)
			}
			rows.Close()
		}
	}
}

// TestSQLiteScalarEmpty checks the dialect's rule that an ungrouped
// aggregate over empty input is one row of zeros.
func TestSQLiteScalarEmpty(t *testing.T) {
	f, err := Parse("e.sql", []byte("CREATE STREAM R (A INT, B FLOAT); SELECT SUM(A), COUNT(*), AVG(B), MAX(A) FROM R;"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE R (A INTEGER, B REAL)"); err != nil {
		t.Fatal(err)
	}
	var s, c int64
	var a float64
	var m int64
	if err := db.QueryRow(SQLite(f.Queries[0])).Scan(&s, &c, &a, &m); err != nil {
		t.Fatal(err)
	}
	if s != 0 || c != 0 || a != 0 || m != 0 {
		t.Errorf("got %d %d %g %d, want zeros", s, c, a, m)
	}
}

// TestSQLiteNullSubquery checks the translation of a scalar subquery with
// GROUP BY over an empty group, which is NULL: a view key holding it reads
// as 0 (COALESCE), and SOME/ALL over a NULL comparison are NULL, so that
// neither they nor their NOT hold (SQL's three-valued logic, which
// [NOT] EXISTS alone does not give).
func TestSQLiteNullSubquery(t *testing.T) {
	const schema = "CREATE STREAM R (A INT, B INT); CREATE STREAM S (B INT, C INT);\n"
	sub := "(SELECT SUM(s.C) FROM S s WHERE s.B = r2.A GROUP BY s.B)"
	tests := []struct {
		query string
		want  [][]int64
	}{
		{"SELECT r.A, (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY s.B) AS x FROM R r;", [][]int64{{1, 0, 1}}},
		{"SELECT (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY s.B) AS x, COUNT(*) FROM R r GROUP BY x;", [][]int64{{0, 1}}},
		{"SELECT COUNT(*) FROM R r WHERE r.B >= ALL (SELECT " + sub + " FROM R r2);", [][]int64{{0}}},
		{"SELECT COUNT(*) FROM R r WHERE NOT (r.B >= ALL (SELECT " + sub + " FROM R r2));", [][]int64{{0}}},
		{"SELECT COUNT(*) FROM R r WHERE NOT (r.B < SOME (SELECT " + sub + " FROM R r2));", [][]int64{{0}}},
		{"SELECT COUNT(*) FROM R r WHERE r.B < SOME (SELECT " + sub + " FROM R r2) OR r.A = 1;", [][]int64{{1}}},
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, s := range []string{"CREATE TABLE R (A INTEGER, B INTEGER)", "CREATE TABLE S (B INTEGER, C INTEGER)", "INSERT INTO R VALUES (1, 5)"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range tests {
		f, err := Parse("n.sql", []byte(schema+tt.query))
		if err != nil {
			t.Fatal(err)
		}
		s := SQLite(f.Queries[0])
		rows, err := db.Query(s)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.query, err, s)
		}
		var got [][]int64
		cols, _ := rows.Columns()
		for rows.Next() {
			raw := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range raw {
				ptrs[i] = &raw[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			row := make([]int64, len(cols))
			for i, x := range raw {
				n, ok := x.(int64)
				if !ok {
					n = -1 // NULL (or not an integer): no row wants it
				}
				row[i] = n
			}
			got = append(got, row)
		}
		rows.Close()
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: got %v, want %v\n%s", tt.query, got, tt.want, s)
		}
	}
}
