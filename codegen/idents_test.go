package codegen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// generate runs the pipeline on src and returns the generated source.
func generate(t *testing.T, src string) []byte {
	t.Helper()
	f, err := lang.Parse("q.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
	if err != nil {
		t.Fatal(err)
	}
	out, err := codegen.Generate(p, codegen.Options{Package: "q", Source: "q.sql"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// declared returns the package-level types and functions of a Go source
// file and its methods, as Recv.Name.
func declared(t *testing.T, src []byte) map[string]bool {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "q.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				name = recv.(*ast.Ident).Name + "." + name
			}
			out[name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					out[ts.Name.Name] = true
				}
			}
		}
	}
	return out
}

// TestViewIdentifiers checks the Go identifiers of named and unnamed
// views: a named view's from its name as written, first letter
// upper-cased; an unnamed view's from QUERY<n>, as before names existed.
func TestViewIdentifiers(t *testing.T) {
	src := generate(t, `CREATE STREAM R (A INT, B INT);
-- name: topCustomers
SELECT B, SUM(A) AS total FROM R GROUP BY B;
SELECT SUM(A) FROM R;
CREATE VIEW Totals_by_A AS SELECT A, COUNT(*) FROM R GROUP BY A;
`)
	have := declared(t, src)
	for _, id := range []string{
		"TopCustomersRow", "Engine.TopCustomers", "Engine.TopCustomersGet", "Engine.TopCustomersRows", "Engine.topCustomersRow",
		"Query2Row", "Engine.Query2", "Engine.Query2Get", "Engine.Query2Rows", "Engine.query2Row",
		"Totals_by_ARow", "Engine.Totals_by_A", "Engine.Totals_by_AGet", "Engine.Totals_by_ARows", "Engine.totals_by_ARow",
	} {
		if !have[id] {
			t.Errorf("generated package lacks %s", id)
		}
	}
	for id := range have {
		if strings.Contains(strings.ToLower(id), "query1") || strings.Contains(strings.ToLower(id), "query3") {
			t.Errorf("generated package has %s: named views take no QUERY<n> identifiers", id)
		}
	}
	// Views() names each view as written, for toastgen run.
	for _, name := range []string{"topCustomers", "QUERY2", "Totals_by_A"} {
		if !regexp.MustCompile(`\bName:\s+"` + name + `"`).Match(src) {
			t.Errorf("Views() does not name view %s", name)
		}
	}
}

// TestCheckNames checks the positioned errors for view names whose Go
// identifiers would clash, and that names that do not clash are accepted.
func TestCheckNames(t *testing.T) {
	const schema = "CREATE STREAM R (A INT, B INT);\n"
	tests := []struct {
		name, src, want string // want "" for no error
	}{
		{"unnamed views", "SELECT SUM(A) FROM R;\nSELECT SUM(B) FROM R;", ""},
		{"Engine and New", "-- name: engine\nSELECT SUM(A) FROM R;\nCREATE VIEW New AS SELECT SUM(B) FROM R;", ""},
		{"prefix of another view", "-- name: Top\nSELECT SUM(A) FROM R;\n-- name: TopRow\nSELECT SUM(B) FROM R;", ""},
		{"Engine method", "-- name: views\nSELECT SUM(A) FROM R;",
			"q.sql:2:10: view name views: its snapshot method Engine.Views is already a method of every Engine (runtime.Engine)\n" +
				"\t-- name: views\n" +
				"\t         ^"},
		{"trigger", "CREATE VIEW InsertR AS SELECT SUM(A) FROM R;",
			"q.sql:2:13: view name InsertR: its snapshot method Engine.InsertR clashes with the insert trigger Engine.InsertR of relation R\n" +
				"\tCREATE VIEW InsertR AS SELECT SUM(A) FROM R;\n" +
				"\t            ^"},
		{"another view's point lookup", "-- name: Top\nSELECT SUM(A) FROM R;\n-- name: TopGet\nSELECT SUM(B) FROM R;",
			"q.sql:4:10: view name TopGet: its snapshot method Engine.TopGet clashes with the point lookup Engine.TopGet of view Top\n" +
				"\t-- name: TopGet\n" +
				"\t         ^"},
		{"an unnamed view's", "SELECT SUM(A) FROM R;\n-- name: Query1Rows\nSELECT SUM(B) FROM R;",
			"q.sql:3:10: view name Query1Rows: its snapshot method Engine.Query1Rows clashes with the row iterator Engine.Query1Rows of view QUERY1\n" +
				"\t-- name: Query1Rows\n" +
				"\t         ^"},
		{"row type and constant", "CREATE STREAM X_ROW (C INT);\n-- name: RelationX\nSELECT SUM(A) FROM R;",
			"q.sql:3:10: view name RelationX: its row type RelationXRow clashes with the index constant RelationXRow of relation X_ROW\n" +
				"\t-- name: RelationX\n" +
				"\t         ^"},
		{"vet", "-- name: writeTo\nSELECT SUM(A) FROM R;",
			"q.sql:2:10: view name writeTo: its snapshot method Engine.WriteTo has the name of the io.WriterTo method, whose signature go vet checks\n" +
				"\t-- name: writeTo\n" +
				"\t         ^"},
		{"relations", "CREATE STREAM R_ (C INT);\nSELECT SUM(A) FROM R;",
			"q.sql:2:1: relation R_: its insert trigger Engine.InsertR clashes with the insert trigger Engine.InsertR of relation R\n" +
				"\tCREATE STREAM R_ (C INT);\n" +
				"\t^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := lang.Parse("q.sql", []byte(schema+tt.src))
			if err != nil {
				t.Fatal(err)
			}
			err = codegen.CheckNames(f)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("CheckNames:\n got: %q\nwant: %q", got, tt.want)
			}
			// Generate makes the same check, without the position.
			qs, err := calculus.FromSQL(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
			if err != nil {
				t.Fatal(err)
			}
			_, err = codegen.Generate(p, codegen.Options{Package: "q"})
			want := ""
			if tt.want != "" {
				// q.sql:L:C: msg\n… becomes q.sql: msg.
				first, _, _ := strings.Cut(tt.want, "\n")
				want = "q.sql: " + strings.SplitN(first, ": ", 2)[1]
			}
			got = ""
			if err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("Generate:\n got: %q\nwant: %q", got, want)
			}
		})
	}
}
