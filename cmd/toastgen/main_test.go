package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	rtdebug "runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// pipeline runs the whole compiler in process on src, reported as file name,
// and returns the first stage's error. A panic in any stage fails the test:
// bad input must give an error, never a crash.
func pipeline(t *testing.T, name, src string) (p *viewlet.Program, err error) {
	t.Helper()
	defer func() {
		if x := recover(); x != nil {
			t.Errorf("compiler panicked: %v\n%s", x, rtdebug.Stack())
			p, err = nil, fmt.Errorf("panic: %v", x)
		}
	}()
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		return nil, err
	}
	if err := codegen.CheckNames(f); err != nil {
		return nil, err
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, err
	}
	p, err = viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
	if err != nil {
		return nil, err
	}
	if _, err := codegen.Generate(p, codegen.Options{Package: "q", Source: name}); err != nil {
		return nil, err
	}
	return p, nil
}

// badSchema precedes every bad query, so errors are reported on line 3.
const badSchema = "CREATE STREAM R (A INT, B INT);\nCREATE STREAM S (B INT, C INT);\n"

// TestBadQueries checks that each stage rejects bad or unsupported input
// with a *lang.Error rendered as
//
//	file:line:col: message
//		<the source line>
//		<a caret under col>
func TestBadQueries(t *testing.T) {
	tests := []struct {
		name  string
		query string // appended to badSchema
		want  string
	}{
		{
			name:  "syntax error",
			query: "SELECT SUM(A) FROM R WHERE;",
			want: "bad.sql:3:27: unexpected token \";\" (expected expression)\n" +
				"\tSELECT SUM(A) FROM R WHERE;\n" +
				"\t                          ^",
		},
		{
			name:  "lexical error",
			query: "SELECT SUM(A) FROM R WHERE B = 'abc;",
			want: "bad.sql:3:32: invalid input text \"'abc;\"\n" +
				"\tSELECT SUM(A) FROM R WHERE B = 'abc;\n" +
				"\t                               ^",
		},
		{
			name:  "unknown table",
			query: "SELECT SUM(A) FROM Q;",
			want: "bad.sql:3:20: unknown table Q\n" +
				"\tSELECT SUM(A) FROM Q;\n" +
				"\t                   ^",
		},
		{
			name:  "caret keeps tabs",
			query: "SELECT SUM(A)\n\tFROM Q;",
			want: "bad.sql:4:7: unknown table Q\n" +
				"\t\tFROM Q;\n" +
				"\t\t     ^",
		},
		{
			name:  "unknown column",
			query: "SELECT SUM(R.Z) FROM R;",
			want: "bad.sql:3:12: unknown column R.Z\n" +
				"\tSELECT SUM(R.Z) FROM R;\n" +
				"\t           ^",
		},
		{
			name:  "ambiguous column",
			query: "SELECT SUM(B) FROM R, S;",
			want: "bad.sql:3:12: ambiguous column B (in R and S)\n" +
				"\tSELECT SUM(B) FROM R, S;\n" +
				"\t           ^",
		},
		{
			name:  "type error",
			query: "SELECT SUM(A) FROM R WHERE A = 'x';",
			want: "bad.sql:3:30: mismatched types INT and STRING in =\n" +
				"\tSELECT SUM(A) FROM R WHERE A = 'x';\n" +
				"\t                             ^",
		},
		{
			name:  "aggregate in WHERE",
			query: "SELECT SUM(A) FROM R WHERE SUM(B) > 1;",
			want: "bad.sql:3:28: aggregate SUM is not allowed in WHERE\n" +
				"\tSELECT SUM(A) FROM R WHERE SUM(B) > 1;\n" +
				"\t                           ^",
		},
		{
			name:  "nested aggregate",
			query: "SELECT SUM(SUM(A)) FROM R;",
			want: "bad.sql:3:12: aggregate SUM cannot be nested in another aggregate\n" +
				"\tSELECT SUM(SUM(A)) FROM R;\n" +
				"\t           ^",
		},
		{
			name:  "column not grouped",
			query: "SELECT A, SUM(B) FROM R;",
			want: "bad.sql:3:8: column R.A must appear in GROUP BY or be used in an aggregate\n" +
				"\tSELECT A, SUM(B) FROM R;\n" +
				"\t       ^",
		},
		{
			name:  "OFFSET without LIMIT",
			query: "SELECT SUM(A) FROM R OFFSET 10;",
			want: "bad.sql:3:22: OFFSET needs a LIMIT (write LIMIT n OFFSET m)\n" +
				"\tSELECT SUM(A) FROM R OFFSET 10;\n" +
				"\t                     ^",
		},
		// Rejected by package calculus, which must position its errors
		// like lang's (source line and caret included).
		{
			name:  "scalar subquery with a GROUP BY key not fixed",
			query: "SELECT SUM(a) FROM R WHERE a > (SELECT SUM(b) FROM S GROUP BY b);",
			want: "bad.sql:3:63: this scalar subquery can return several rows: its GROUP BY S.B is not fixed by an equality in its WHERE with a column of the enclosing query or a constant (not supported)\n" +
				"\tSELECT SUM(a) FROM R WHERE a > (SELECT SUM(b) FROM S GROUP BY b);\n" +
				"\t                                                              ^",
		},
		{
			name:  "scalar subquery with one of two GROUP BY keys fixed",
			query: "SELECT COUNT(*) FROM R r WHERE r.A > (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY s.B, s.C);",
			want: "bad.sql:3:94: this scalar subquery can return several rows: its GROUP BY S.C is not fixed by an equality in its WHERE with a column of the enclosing query or a constant (not supported)\n" +
				"\tSELECT COUNT(*) FROM R r WHERE r.A > (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY s.B, s.C);\n" +
				"\t                                                                                             ^",
		},
		{
			name:  "scalar subquery without aggregate",
			query: "SELECT SUM(A) FROM R WHERE A > (SELECT S.C FROM S);",
			want: "bad.sql:3:32: a scalar subquery must be an aggregate (not supported yet otherwise: it could return several rows)\n" +
				"\tSELECT SUM(A) FROM R WHERE A > (SELECT S.C FROM S);\n" +
				"\t                               ^",
		},
		{
			name:  "subquery as a scalar subquery's GROUP BY key",
			query: "SELECT COUNT(*) FROM R r WHERE r.A > (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY (SELECT COUNT(*) FROM R));",
			want: "bad.sql:3:89: a subquery in the GROUP BY of a scalar subquery is not supported yet\n" +
				"\tSELECT COUNT(*) FROM R r WHERE r.A > (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY (SELECT COUNT(*) FROM R));\n" +
				"\t                                                                                        ^",
		},
		{
			name:  "grouped scalar subquery in a UNION column",
			query: "SELECT COUNT(*) FROM (SELECT (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY s.B) AS x FROM R r UNION SELECT S.C FROM S) u;",
			want: "bad.sql:3:30: this UNION column can be NULL here (a NULL column, or a scalar subquery or aggregate over no rows), which is not supported yet\n" +
				"\tSELECT COUNT(*) FROM (SELECT (SELECT SUM(s.C) FROM S s WHERE s.B = r.A GROUP BY s.B) AS x FROM R r UNION SELECT S.C FROM S) u;\n" +
				"\t                             ^",
		},
		{
			name:  "subquery correlated with a non-grouped column",
			query: "SELECT r.A, SUM(r.B) + (SELECT SUM(s.B) FROM S s WHERE s.B = r.B) FROM R r GROUP BY r.A;",
			want: "bad.sql:3:62: column R.B must appear in GROUP BY or be used in an aggregate\n" +
				"\tSELECT r.A, SUM(r.B) + (SELECT SUM(s.B) FROM S s WHERE s.B = r.B) FROM R r GROUP BY r.A;\n" +
				"\t                                                             ^",
		},
		{
			name:  "math function arity",
			query: "SELECT SUM(VECTOR_ANGLE(A, B, A, B, A)) FROM R;",
			want: "bad.sql:3:12: VECTOR_ANGLE takes 6 arguments, got 5\n" +
				"\tSELECT SUM(VECTOR_ANGLE(A, B, A, B, A)) FROM R;\n" +
				"\t           ^",
		},
		{
			name:  "math function argument type",
			query: "SELECT COUNT(*) FROM R WHERE RADIANS(CAST_STRING(A)) > 1;",
			want: "bad.sql:3:38: RADIANS argument 1 must be INT or FLOAT, got STRING\n" +
				"\tSELECT COUNT(*) FROM R WHERE RADIANS(CAST_STRING(A)) > 1;\n" +
				"\t                                     ^",
		},
		{
			name:  "HASH arity",
			query: "SELECT HASH(A, B), COUNT(*) FROM R GROUP BY HASH(A, B);",
			want: "bad.sql:3:8: HASH takes 1 argument, got 2\n" +
				"\tSELECT HASH(A, B), COUNT(*) FROM R GROUP BY HASH(A, B);\n" +
				"\t       ^",
		},
		// View names: lang checks their syntax and duplicates,
		// codegen.CheckNames the Go identifiers they give.
		{
			name:  "view name syntax",
			query: "-- name: my-view\nSELECT SUM(A) FROM R;",
			want: "bad.sql:3:12: view name \"my-view\" may hold only ASCII letters, digits and underscores\n" +
				"\t-- name: my-view\n" +
				"\t           ^",
		},
		{
			name:  "duplicate view name",
			query: "CREATE VIEW Top AS SELECT SUM(A) FROM R;\n-- name: top\nSELECT SUM(B) FROM R;",
			want: "bad.sql:4:10: view name top is already the name of the view at bad.sql:3:13 (view names are case-insensitive)\n" +
				"\t-- name: top\n" +
				"\t         ^",
		},
		{
			name:  "view name without a SELECT",
			query: "-- name: Top\nCREATE STREAM T (D INT);",
			want: "bad.sql:3:1: -- name: Top is not followed by a SELECT statement (a view name comment stands on the line before its SELECT)\n" +
				"\t-- name: Top\n" +
				"\t^",
		},
		{
			name:  "view name clashing with a trigger",
			query: "-- name: deleteS\nSELECT SUM(A) FROM R;",
			want: "bad.sql:3:10: view name deleteS: its snapshot method Engine.DeleteS clashes with the delete trigger Engine.DeleteS of relation S\n" +
				"\t-- name: deleteS\n" +
				"\t         ^",
		},
		{
			name:  "CREATE VIEW column list",
			query: "CREATE VIEW V (x) AS SELECT SUM(A) FROM R;",
			want: "bad.sql:3:15: CREATE VIEW with a column list is not supported: name the columns in the SELECT (expr AS name)\n" +
				"\tCREATE VIEW V (x) AS SELECT SUM(A) FROM R;\n" +
				"\t              ^",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pipeline(t, "bad.sql", badSchema+tt.query)
			if err == nil {
				t.Fatalf("no error for %q", tt.query)
			}
			var le *lang.Error
			if !errors.As(err, &le) {
				t.Errorf("error is a %T, want a *lang.Error", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error for %q:\n got: %q\nwant: %q", tt.query, got, tt.want)
			}
		})
	}
}

// TestSyntaxErrorKeywords checks that the expected-token list of a syntax
// error spells keywords as written: the rewriting of grammar type names
// (GSelect → SELECT) must leave the GROUP keyword alone.
func TestSyntaxErrorKeywords(t *testing.T) {
	_, err := pipeline(t, "bad.sql", "SELECT")
	if err == nil {
		t.Fatal("no error for a lone SELECT")
	}
	if msg := err.Error(); strings.Contains(msg, `"roup"`) || !strings.Contains(msg, `"GROUP" "BY"`) {
		t.Errorf("GROUP keyword mangled in the syntax error:\n%s", msg)
	}
}

// TestBadDataRows replays malformed CSV files through the interpreter: the
// error must name the file, the line, the column and what was expected.
func TestBadDataRows(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string // after "<path>:"
	}{
		{"bad int", "1,2,2020-01-01\n3,4,2020-01-02\n5,x,2020-01-03\n", `3: column B: expected INT, got "x"`},
		{"bad date", "1,2,2020-01-01\n3,4,01/02/2020\n", `2: column D: expected DATE, got "01/02/2020"`},
		{"int out of range", "1,2,2020-01-01\n3,9223372036854775808,2020-01-02\n", `2: column B: INT out of range, got "9223372036854775808"`},
		{"no such date", "1,2,2024-02-29\n3,4,2024-02-30\n", `2: column D: no such DATE, got "2024-02-30"`},
		{"BOM", "\ufeff1,2,2020-01-01\n3,x,2020-01-02\n", `2: column B: expected INT, got "x"`},
		{"too few fields", "1,2,2020-01-01\n3,4\n", "2: expected 3 fields, got 2"},
		{"too many fields", "1,2,2020-01-01,9\n", "1: expected 3 fields, got 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "r.csv"), []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			src := "CREATE STREAM R (A INT, B INT, D DATE) FROM FILE 'r.csv' LINE DELIMITED CSV;\n" +
				"SELECT SUM(A * B) AS s FROM R WHERE D > DATE('2000-01-01');\n"
			p, err := pipeline(t, "rows.sql", src)
			if err != nil {
				t.Fatal(err)
			}
			err = runtime.Replay(viewlet.NewInterp(p), runtime.ReplayOptions{Dir: dir})
			if err == nil {
				t.Fatal("Replay accepted malformed data")
			}
			want := filepath.Join(dir, "r.csv") + ":" + tt.want
			if got := err.Error(); got != want {
				t.Errorf("Replay error:\n got: %q\nwant: %q", got, want)
			}
			var fe *runtime.FieldError
			if !errors.As(err, &fe) {
				t.Errorf("error is a %T, want a *runtime.FieldError", err)
			}
		})
	}
}

// The CLI tests run a toastgen binary built once, into binDir, by
// toastgenBinary; TestMain removes it.
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// toastgenBinary builds this command (once per test binary) and returns its
// path.
func toastgenBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binError = os.MkdirTemp("", "toastgen-test-")
		if binError != nil {
			return
		}
		binPath = filepath.Join(binDir, "toastgen")
		out, err := exec.Command("go", "build", "-trimpath", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binError = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

// repoRoot is the checkout's root, where the examples' FROM FILE paths are
// relative to.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// toastgen runs the binary with args in the repository root and returns its
// standard output; a non-zero exit fails the test.
func toastgen(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(toastgenBinary(t), args...)
	cmd.Dir = repoRoot(t)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("toastgen %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// TestRunSimple runs the bundled 3-way join example end to end with both
// engines. 306 is SUM(A*D) over r.dat ⋈ s.dat ⋈ t.dat, computed by hand.
func TestRunSimple(t *testing.T) {
	const want = `{"views":[{"name":"QUERY1","keys":[],"values":["TOTAL"],"columns":[{"name":"total","value":0}],"rows":[[306]]}]}` + "\n"
	for _, engine := range []string{"interp", "go"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "go" && testing.Short() {
				t.Skip("-short: not building the generated package")
			}
			got := toastgen(t, "run", "-engine", engine, "-format", "json", "examples/simple/rst.sql")
			if got != want {
				t.Errorf("toastgen run -engine %s:\n got: %q\nwant: %q", engine, got, want)
			}
		})
	}
}

// baseAtom matches a base relation atom of the example: R(, S( or T( not
// preceded by an identifier character.
var baseAtom = regexp.MustCompile(`(^|[^A-Za-z0-9_])[RST]\(`)

// TestM3SimpleHigherOrder checks that at unbounded depth no trigger
// statement of the 3-way join reads a base relation: every delta is
// materialized.
func TestM3SimpleHigherOrder(t *testing.T) {
	out := toastgen(t, "m3", "examples/simple/rst.sql")
	lines := strings.Split(out, "\n")
	inTriggers, stmts := false, 0
	for _, ln := range lines {
		if strings.HasPrefix(ln, "ON ") {
			inTriggers = true
			continue
		}
		// (A set-at-a-time trigger's EACH line names its event, as ON does.)
		if !inTriggers || strings.TrimSpace(ln) == "" || strings.HasPrefix(strings.TrimSpace(ln), "EACH ") {
			continue
		}
		stmts++
		if baseAtom.MatchString(ln) {
			t.Errorf("trigger statement reads a base relation: %s", strings.TrimSpace(ln))
		}
	}
	if stmts == 0 {
		t.Errorf("no trigger statements in toastgen m3 output:\n%s", out)
	}
}
