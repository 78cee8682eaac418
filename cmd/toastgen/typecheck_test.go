package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// TestCheckGenerated checks that generated code type-checks against the
// embedded runtime, and that a type error in the code of one view is
// reported at that view's query.
func TestCheckGenerated(t *testing.T) {
	t.Parallel()
	const src = "CREATE STREAM R (A INT, B INT);\n-- name: Totals\nSELECT A, SUM(B) AS S FROM R GROUP BY A;\n-- name: Rows\nSELECT A, B FROM R;\n"
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
	gen, err := codegen.Generate(p, codegen.Options{Package: "q", Source: "q.sql"})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkGenerated(f, "q.sql.go", gen); err != nil {
		t.Fatalf("generated code: %v", err)
	}
	// A mismatched type in the read-out of view Totals.
	at := []byte("func (e *Engine) totalsRow(")
	i := bytes.Index(gen, at)
	if i < 0 {
		t.Fatalf("no %s in the generated code", at)
	}
	j := i + bytes.Index(gen[i:], []byte("{\n")) + 2
	bad := append(append(append([]byte{}, gen[:j]...), "\tvar x int64 = 1.5 * float64(len(e.totalsCount.entries))\n\t_ = x\n"...), gen[j:]...)
	err = checkGenerated(f, "q.sql.go", bad)
	if err == nil {
		t.Fatal("a type error was not reported")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "q.sql:3:1: toastgen generated Go code for this query that does not compile") || !strings.Contains(msg, "\n\t^") {
		t.Errorf("error not at query Totals with a caret:\n%s", msg)
	}
}
