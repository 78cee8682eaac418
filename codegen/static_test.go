package codegen_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// TestStaticTablesGenerated checks the generated engine's static tables
// (dialect dbtoaster), as viewlet's TestStaticTables the interpreter's: an
// event on a table after the first stream event is rejected by the
// exported method, Apply and ApplyBatch with runtime.ErrStaticTable, state
// unchanged, and after a restore from a snapshot that counts a stream
// event.
func TestStaticTablesGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package; skipped with -short")
	}
	t.Parallel()
	const src = "CREATE TABLE N(K int, G int);\nCREATE STREAM R(A int, K int);\nSELECT N.G, SUM(R.A) FROM R, N WHERE R.K = N.K GROUP BY N.G;\n"
	f, err := lang.Config{Dialect: lang.DBToaster}.Parse("static.sql", []byte(src))
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
	out, err := codegen.Generate(p, codegen.Options{Package: "q", Source: "static.sql"})
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "q", "q.go"), out)
	write(t, filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf("module statictest\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)))
	write(t, filepath.Join(dir, "main.go"), []byte(staticMain))
	run := exec.Command("go", "run", "-trimpath", ".")
	run.Dir = dir
	run.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	b, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got := strings.TrimSpace(string(b)); got != "ok" {
		t.Errorf("%s", got)
	}
}

const staticMain = `package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"

	"github.com/toastgen/toastgen/runtime"
	"statictest/q"
)

func check(what string, err error, reject bool) {
	if errors.Is(err, runtime.ErrStaticTable) != reject || (!reject && err != nil) {
		fmt.Printf("%s: %v, want rejected %v\n", what, err, reject)
		os.Exit(1)
	}
}

func main() {
	e := q.New()
	check("table first", e.InsertN(1, 10), false)
	check("stream", e.InsertR(5, 1), false)
	before := e.Views()
	check("InsertN after a stream event", e.InsertN(1, 20), true)
	check("DeleteN after a stream event", e.DeleteN(1, 10), true)
	check("Apply", e.Apply(q.RelationN, true, [][]byte{[]byte("1"), []byte("30")}), true)
	b := q.Batch{}
	b.Add(q.RelationR, true, [][]byte{[]byte("6"), []byte("1")})
	b.Add(q.RelationN, true, [][]byte{[]byte("1"), []byte("40")})
	check("ApplyBatch", e.ApplyBatch(&b), true)
	if !reflect.DeepEqual(before, e.Views()) {
		fmt.Printf("rejected events changed the views: %v, then %v\n", before, e.Views())
		os.Exit(1)
	}
	// A batch of table events then stream events on a fresh engine.
	f := q.New()
	b = q.Batch{}
	b.Add(q.RelationN, true, [][]byte{[]byte("1"), []byte("10")})
	b.Add(q.RelationR, true, [][]byte{[]byte("5"), []byte("1")})
	check("a batch loading the table first", f.ApplyBatch(&b), false)
	check("after that batch", f.InsertN(2, 10), true)
	for _, tt := range []struct {
		sources []runtime.SourceCount
		reject  bool
	}{
		{[]runtime.SourceCount{{Relation: "N", Events: 1}, {Relation: "R", Events: 1}}, true},
		{[]runtime.SourceCount{{Relation: "N", Events: 1}, {Relation: "R", Events: 0}}, false},
		{nil, true},
	} {
		var buf bytes.Buffer
		if err := e.WriteSnapshot(&buf, tt.sources...); err != nil {
			panic(err)
		}
		r := q.New()
		if _, err := r.RestoreSnapshot(&buf); err != nil {
			panic(err)
		}
		check(fmt.Sprintf("restored from counts %v", tt.sources), r.InsertN(2, 10), tt.reject)
	}
	fmt.Println("ok")
}
`
