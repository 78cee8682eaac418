package codegen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// TestRowOrder checks that a view's row struct and its Get method list the
// keys in SELECT order, then the unselected GROUP BY keys, then the values:
// the order of `toastgen run`'s keys and values.
func TestRowOrder(t *testing.T) {
	tests := []struct {
		query       string
		row, params []string // "Name type"
	}{
		{"SELECT b, a, SUM(c) AS s FROM R GROUP BY a, b",
			[]string{"B string", "A int64", "S int64"}, []string{"b string", "a int64"}},
		{"SELECT a, SUM(c) AS s, b FROM R GROUP BY b, a",
			[]string{"A int64", "B string", "S int64"}, []string{"a int64", "b string"}},
		{"SELECT b, COUNT(*) AS n FROM R GROUP BY a, d, b",
			[]string{"B string", "A int64", "D runtime.Date", "N int64"}, []string{"b string", "a int64", "d runtime.Date"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			src := "CREATE STREAM R (A INT, B STRING, C INT, D DATE);\n" + tt.query + ";\n"
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
			code, err := codegen.Generate(p, codegen.Options{Package: "q", Source: "q.sql"})
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(token.NewFileSet(), "q.go", code, 0)
			if err != nil {
				t.Fatal(err)
			}
			var row, params []string
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.TypeSpec:
					if s, ok := n.Type.(*ast.StructType); ok && n.Name.Name == "Query1Row" {
						row = fieldList(s.Fields)
					}
				case *ast.FuncDecl:
					if n.Name.Name == "Query1Get" {
						params = fieldList(n.Type.Params)
					}
				}
				return true
			})
			if d := cmp.Diff(tt.row, row); d != "" {
				t.Errorf("Query1Row fields (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.params, params); d != "" {
				t.Errorf("Query1Get parameters (-want +got):\n%s", d)
			}
		})
	}
}

// fieldList prints each name of a field list with its type.
func fieldList(fl *ast.FieldList) []string {
	var out []string
	for _, f := range fl.List {
		typ := "?"
		switch x := f.Type.(type) {
		case *ast.Ident:
			typ = x.Name
		case *ast.SelectorExpr:
			if pkg, ok := x.X.(*ast.Ident); ok {
				typ = pkg.Name + "." + x.Sel.Name
			}
		}
		for _, n := range f.Names {
			out = append(out, n.Name+" "+typ)
		}
	}
	return out
}
