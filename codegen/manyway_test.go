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

// manyWayQuery is a join of n relations in the style of SQL test corpora,
// `tab0 AS cor0, tab1 AS cor1, …` (or the same table n times), with
// constant filters and a few equalities, as a COUNT(*), a grouped SUM and a
// bag.
func manyWayQuery(n int, same bool) string {
	var b strings.Builder
	tables := n
	if same {
		tables = 1
	}
	for i := 0; i < tables; i++ {
		fmt.Fprintf(&b, "CREATE STREAM tab%d (col0 INT, col1 INT, col2 INT);\n", i)
	}
	var from, where []string
	for i := 0; i < n; i++ {
		t := i
		if same {
			t = 0
		}
		from = append(from, fmt.Sprintf("tab%d AS cor%d", t, i))
		if i%3 == 0 {
			where = append(where, fmt.Sprintf("cor%d.col0 = %d", i, i%7))
		}
		if i%7 == 0 && i+1 < n {
			where = append(where, fmt.Sprintf("cor%d.col1 = cor%d.col2", i, i+1))
		}
	}
	f, w := strings.Join(from, ", "), strings.Join(where, " AND ")
	fmt.Fprintf(&b, "SELECT COUNT(*) FROM %s WHERE %s;\n", f, w)
	fmt.Fprintf(&b, "SELECT cor0.col1, SUM(cor1.col0), COUNT(*) FROM %s WHERE %s GROUP BY cor0.col1;\n", f, w)
	fmt.Fprintf(&b, "SELECT DISTINCT cor0.col2 FROM %s WHERE %s;\n", f, w)
	return b.String()
}

// TestManyWayJoins compiles 64-relation joins, of 64 distinct tables and of
// one table 64 times, through every stage and builds the generated
// packages. It makes no timing assertion: compiling the same table's
// independent occurrences together would expand its delta into 2^64 - 1
// monomials (calculus/factor.go keeps each group apart), and go test's
// timeout is the guard. A table repeated too often within one connected
// join is an error, not a hang.
func TestManyWayJoins(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, same := range []bool{false, true} {
		name := "distinct64"
		if same {
			name = "same64"
		}
		src := manyWayQuery(64, same)
		f, err := lang.Parse(name+".sql", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		qs, err := calculus.FromSQL(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, depth := range []int{viewlet.Unbounded, 1} {
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
			if err != nil {
				t.Fatalf("%s depth %d: %v", name, depth, err)
			}
			if depth != viewlet.Unbounded {
				continue
			}
			out, err := codegen.Generate(p, codegen.Options{Package: name, Source: name + ".sql"})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			write(t, filepath.Join(dir, name, name+".go"), out)
		}
	}
	if testing.Short() {
		return
	}
	write(t, filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf("module manyway\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)))
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the generated packages: %v\n%s", err, out)
	}

	// One table 20 times in a connected join: a clear error.
	var from, where []string
	for i := 0; i < 20; i++ {
		from = append(from, fmt.Sprintf("tab0 AS cor%d", i))
		if i > 0 {
			where = append(where, fmt.Sprintf("cor%d.col1 = cor%d.col2", i-1, i))
		}
	}
	src := "CREATE STREAM tab0 (col0 INT, col1 INT, col2 INT);\nSELECT COUNT(*) FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(where, " AND ") + ";\n"
	f, err := lang.Parse("chain.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded}); err == nil || !strings.Contains(err.Error(), "2^20 - 1 terms") {
		t.Errorf("a 20-fold connected self-join: got %v, want the delta size error", err)
	}
}
