package lang

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type gotName struct {
	Name    string
	Named   bool
	NamePos string // "" when unnamed
}

func viewNamesOf(f *File) []gotName {
	var out []gotName
	for _, q := range f.Queries {
		g := gotName{Name: q.Name, Named: q.Named}
		if q.Named {
			g.NamePos = q.NamePos.String()
		}
		out = append(out, g)
	}
	return out
}

// TestViewNames checks the names `-- name:` comments and CREATE VIEW give
// (as written, where written), that unnamed views keep QUERY<n> by
// position, and that Format writes the names so that they parse back.
func TestViewNames(t *testing.T) {
	src := "CREATE STREAM R (A INT, B INT);\n" +
		"-- name: TopCustomers\n" +
		"SELECT A, SUM(B) FROM R GROUP BY A;\n" +
		"SELECT SUM(A) FROM R; -- name:   spaced_Name  \r\n" +
		"\n" +
		"/* a block comment */ -- other text\n" +
		"  SELECT SUM(B) FROM R;\n" +
		"SELECT COUNT(*) FROM R;\n" +
		"-- Name: prose, not a view name\n" +
		"SELECT SUM(A + B) FROM R;\n" +
		"create view myView as select count(*) from R;\n" +
		"-- name:X\n" +
		"SELECT SUM(A) FROM R WHERE A IN (SELECT B FROM R);\n"
	f, err := Parse("n.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []gotName{
		{"TopCustomers", true, "n.sql:2:10"},
		{"QUERY2", false, ""},
		{"spaced_Name", true, "n.sql:4:34"},
		{"QUERY4", false, ""},
		{"QUERY5", false, ""},
		{"myView", true, "n.sql:11:13"},
		{"X", true, "n.sql:12:9"},
	}
	if d := cmp.Diff(want, viewNamesOf(f)); d != "" {
		t.Errorf("view names (-want +got):\n%s", d)
	}
	g, err := Parse("formatted.sql", []byte(Format(f)))
	if err != nil {
		t.Fatalf("Format's output does not parse: %v\n%s", err, Format(f))
	}
	for i, q := range g.Queries {
		if q.Name != want[i].Name || q.Named != want[i].Named {
			t.Errorf("view %d after Format: %s (named %v), want %s (named %v)", i+1, q.Name, q.Named, want[i].Name, want[i].Named)
		}
	}
}

// TestViewNamesIncluded checks that a view named in an included file is
// positioned there and that the QUERY<n> numbering counts it.
func TestViewNamesIncluded(t *testing.T) {
	inc := filepath.Join(t.TempDir(), "inc.sql")
	if err := os.WriteFile(inc, []byte("CREATE STREAM R (A INT);\n-- name: Included\nSELECT SUM(A) FROM R;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Parse("main.sql", []byte("INCLUDE '"+inc+"';\nSELECT COUNT(*) FROM R;\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []gotName{{"Included", true, inc + ":2:10"}, {"QUERY2", false, ""}}
	if d := cmp.Diff(want, viewNamesOf(f)); d != "" {
		t.Errorf("view names (-want +got):\n%s", d)
	}
}

// TestViewNameErrors checks the rendering of each error about view names,
// and that name comments do not move the positions of other errors.
func TestViewNameErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"digit first", "-- name: 2nd\nSELECT SUM(A) FROM R;",
			`e.sql:3:10: view name 2nd must start with a letter (A-Z, a-z): the view's Go identifiers derive from it
	-- name: 2nd
	         ^`},
		{"bad character", "-- name: top-customers\nSELECT SUM(A) FROM R;",
			`e.sql:3:13: view name "top-customers" may hold only ASCII letters, digits and underscores
	-- name: top-customers
	            ^`},
		{"non-ASCII", "-- name: Größe\nSELECT SUM(A) FROM R;",
			`e.sql:3:12: view name "Größe" may hold only ASCII letters, digits and underscores
	-- name: Größe
	           ^`},
		{"sqlc annotation", "-- name: Top :many\nSELECT SUM(A) FROM R;",
			`e.sql:3:13: view name "Top :many" may hold only ASCII letters, digits and underscores (sqlc's :one/:many annotations have no meaning here)
	-- name: Top :many
	            ^`},
		{"empty", "-- name:\nSELECT SUM(A) FROM R;",
			`e.sql:3:1: -- name: needs a view name (a Go identifier such as TopCustomers)
	-- name:
	^`},
		{"underscore first", "CREATE VIEW _v AS SELECT SUM(A) FROM R;",
			`e.sql:3:13: view name _v must start with a letter (A-Z, a-z): the view's Go identifiers derive from it
	CREATE VIEW _v AS SELECT SUM(A) FROM R;
	            ^`},
		{"duplicate", "-- name: Top\nSELECT SUM(A) FROM R;\nCREATE VIEW TOP AS SELECT SUM(C) FROM S;",
			`e.sql:5:13: view name TOP is already the name of the view at e.sql:3:10 (view names are case-insensitive)
	CREATE VIEW TOP AS SELECT SUM(C) FROM S;
	            ^`},
		{"unnamed view's name", "-- name: query2\nSELECT SUM(A) FROM R;\nSELECT SUM(C) FROM S;",
			`e.sql:3:10: view name query2 is already the name of the unnamed view QUERY2 at e.sql:5:1 (view names are case-insensitive)
	-- name: query2
	         ^`},
		{"not before a SELECT", "-- name: Top\nCREATE STREAM T (X INT);\nSELECT SUM(A) FROM R;",
			`e.sql:3:1: -- name: Top is not followed by a SELECT statement (a view name comment stands on the line before its SELECT)
	-- name: Top
	^`},
		{"at the end", "SELECT SUM(A) FROM R;\n-- name: Top\n",
			`e.sql:4:1: -- name: Top is not followed by a SELECT statement (a view name comment stands on the line before its SELECT)
	-- name: Top
	^`},
		{"before a subquery", "SELECT SUM(A) FROM R WHERE A IN (\n-- name: Top\nSELECT C FROM S);",
			`e.sql:4:1: -- name: Top is not followed by a SELECT statement (a view name comment stands on the line before its SELECT)
	-- name: Top
	^`},
		{"two names", "-- name: A1\n-- name: A2\nSELECT SUM(A) FROM R;",
			`e.sql:4:1: a second -- name: comment before one statement (the first, at line 3, names it A1)
	-- name: A2
	^`},
		{"before CREATE VIEW", "-- name: A1\nCREATE VIEW A2 AS SELECT SUM(A) FROM R;",
			`e.sql:3:1: -- name: before CREATE VIEW, which names the view itself
	-- name: A1
	^`},
		{"column list", "CREATE VIEW V (total) AS SELECT SUM(A) FROM R;",
			`e.sql:3:15: CREATE VIEW with a column list is not supported: name the columns in the SELECT (expr AS name)
	CREATE VIEW V (total) AS SELECT SUM(A) FROM R;
	              ^`},
		{"other errors keep their positions", "-- name: Top\nSELECT SUM(Z) FROM R;",
			`e.sql:4:12: unknown column Z
	SELECT SUM(Z) FROM R;
	           ^`},
		{"in a CREATE VIEW", "CREATE VIEW V AS SELECT SUM(Z) FROM R;",
			`e.sql:3:29: unknown column Z
	CREATE VIEW V AS SELECT SUM(Z) FROM R;
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
