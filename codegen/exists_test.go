package codegen_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// TestExistsGroupsScratch covers the general form of Exists over a sum with
// unbound group variables, whose groups no single map lists (codegen
// collects them in a scratch map): the compiler does not produce it from SQL
// today, so the test rewrites the statements of COUNT(DISTINCT) programs,
// Exists(AggSum(g, t)), into sums of several terms and checks the generated
// code against SQLite. The grouped query's t becomes t - t + t (the same
// value); the ungrouped one's t - t * {distinct > 2}, whose groups above 2
// cancel to zero and must not count: COUNT(DISTINCT s.B) over s.B <= 2.
func TestExistsGroupsScratch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package; skipped with -short")
	}
	const rels = `CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s GROUP BY s.C;
`
	f, err := lang.Parse("q.sql", []byte(rels+"SELECT COUNT(DISTINCT s.B) AS v FROM S s, T t;\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := lang.Parse("want.sql", []byte(rels+"SELECT COUNT(DISTINCT s.B) AS v FROM S s, T t WHERE s.B <= 2;\n"))
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
	rewritten := map[bool]int{}
	for _, tr := range p.Triggers {
		for _, s := range tr.Stmts {
			for _, m := range s.RHS {
				for i, fac := range m.Factors {
					ex, ok := fac.(*calculus.Exists)
					if !ok {
						continue
					}
					a, ok := ex.T.(*calculus.AggSum)
					if r, isRef := ex.T.(*calculus.MapRef); isRef && len(r.Keys) > 0 {
						// Exists(M[g]) is Exists(AggSum(g, M[g])).
						a, ok = &calculus.AggSum{Group: r.Keys, T: r}, true
					}
					if !ok || len(a.Group) == 0 {
						continue
					}
					var terms []calculus.Term
					cancel := strings.HasPrefix(s.Map.Name, "QUERY2")
					if cancel {
						d := a.Group[len(a.Group)-1]
						above := &calculus.Val{E: &lang.Binary{Op: ">", L: &calculus.VarRef{V: d}, R: calculus.IntLit(2), T: lang.TBool}}
						terms = []calculus.Term{a.T, &calculus.Neg{T: &calculus.Prod{Factors: []calculus.Term{a.T, above}}}}
					} else {
						terms = []calculus.Term{a.T, &calculus.Neg{T: a.T}, a.T}
					}
					m.Factors[i] = &calculus.Exists{T: &calculus.AggSum{Group: a.Group, T: &calculus.Sum{Terms: terms}}}
					rewritten[cancel]++
				}
			}
		}
	}
	if rewritten[false] == 0 || rewritten[true] == 0 {
		t.Fatalf("rewrote %v Exists(AggSum) statements: the compiler's output changed; pick other queries", rewritten)
	}
	checkGenerated(t, p, f, want, "groups0")
}

// TestGroupDriverCoefficient covers a nested grouped sum read through the
// map that lists its groups, with a coefficient: at depth 0, SUM over a
// correlated derived table is AggSum([], AggSum([c2], S[r_a, c2]) * c2);
// the test negates the inner sum's term (coefficient -1) and checks the
// generated code against SQLite computing the negated subquery.
func TestGroupDriverCoefficient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package; skipped with -short")
	}
	const rels = `CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
`
	f, err := lang.Parse("q.sql", []byte(rels+"SELECT SUM(r.A) AS x FROM R r WHERE r.B > (SELECT SUM(d.X) FROM (SELECT s.C AS X FROM S s WHERE s.B = r.A) d);\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := lang.Parse("want.sql", []byte(rels+"SELECT SUM(r.A) AS x FROM R r WHERE r.B > (SELECT SUM(0 - d.X) FROM (SELECT s.C AS X FROM S s WHERE s.B = r.A) d);\n"))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: 0})
	if err != nil {
		t.Fatal(err)
	}
	rewritten := 0
	var negate func(t calculus.Term) calculus.Term
	negate = func(t calculus.Term) calculus.Term {
		switch x := t.(type) {
		case *calculus.Lift:
			return &calculus.Lift{V: x.V, T: negate(x.T)}
		case *calculus.AggSum:
			if len(x.Group) > 0 {
				rewritten++
				return &calculus.AggSum{Group: x.Group, T: &calculus.Neg{T: x.T}}
			}
			return &calculus.AggSum{Group: x.Group, T: negate(x.T)}
		case *calculus.Prod:
			fs := make([]calculus.Term, len(x.Factors))
			for i, f := range x.Factors {
				fs[i] = negate(f)
			}
			return &calculus.Prod{Factors: fs}
		}
		return t
	}
	for _, tr := range p.Triggers {
		for _, s := range tr.Stmts {
			for _, m := range s.RHS {
				for i, fac := range m.Factors {
					m.Factors[i] = negate(fac)
				}
			}
		}
	}
	if rewritten == 0 {
		t.Fatal("no grouped nested sum to negate: the compiler's output changed; pick another query")
	}
	checkGenerated(t, p, f, want, "")
}

// checkGenerated generates p, checks that the code contains mark, builds
// it, checks that warm events allocate nothing, and compares its views every
// 100 events of a random stream over f's relations with SQLite computing
// want's queries.
func checkGenerated(t *testing.T, p *viewlet.Program, f, want *lang.File, mark string) {
	t.Helper()
	out, err := codegen.Generate(p, codegen.Options{Package: "q", Source: "q.sql"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(mark)) {
		t.Fatalf("the generated code does not contain %q", mark)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stream := oracle.Generate(f, 7, 600, 0.3, oracle.Domain{})
	write(t, filepath.Join(dir, "q", "q.go"), out)
	write(t, filepath.Join(dir, "q.events"), encodeStream(f, stream))
	write(t, filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf("module difftest\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)))
	write(t, filepath.Join(dir, "main.go"), []byte(fmt.Sprintf(driverSrc, "\t\"difftest/q\"\n", "\t\"q\": func() runtime.Engine { return q.New() },\n")))
	build := exec.Command("go", "build", "-trimpath", "-o", "driver", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the generated package: %v\n%s", err, b)
	}
	// Once warm, an event allocates nothing, scratch maps included.
	write(t, filepath.Join(dir, "allocs", "main.go"), []byte(allocsSrc))
	allocs := exec.Command("go", "run", "./allocs", filepath.Join(dir, "q.events"))
	allocs.Dir = dir
	allocs.Env = build.Env
	if b, err := allocs.CombinedOutput(); err != nil || strings.TrimSpace(string(b)) != "0" {
		t.Errorf("allocations per warm event pair: %s (%v), want 0", b, err)
	}
	b, err := exec.Command(filepath.Join(dir, "driver"), "q", filepath.Join(dir, "q.events")).Output()
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	checkpoints := strings.Split(strings.TrimSpace(string(b)), "\n")
	db, err := oracle.Open(want)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cp := 0
	for i, ev := range stream.Events {
		if ev.Insert {
			err = db.Insert(ev.Rel, ev.Tuple)
		} else {
			err = db.Delete(ev.Rel, ev.Tuple)
		}
		if err != nil {
			t.Fatal(err)
		}
		if (i+1)%100 != 0 && i+1 != len(stream.Events) {
			continue
		}
		got, err := oracle.DecodeJSON([]byte(checkpoints[cp]))
		if err != nil {
			t.Fatal(err)
		}
		cp++
		for qi, q := range want.Queries {
			want, err := db.View(q)
			if err != nil {
				t.Fatal(err)
			}
			gv, err := oracle.Typed(got[qi], want)
			if err != nil {
				t.Fatal(err)
			}
			if err := oracle.Compare(want, gv, 1e-9); err != nil {
				t.Fatalf("after event %d (%s), view %s:\n%v", i+1, ev, q.Name, err)
			}
		}
	}
}

// allocsSrc replays an events file into package q, then counts the
// allocations of re-applying each event followed by its inverse.
const allocsSrc = `package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"difftest/q"
)

func main() {
	e := q.New()
	index := map[string]int{}
	for i, r := range e.Relations() {
		index[r.Name] = i
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	type event struct {
		rel    int
		insert bool
		fields [][]byte
	}
	var evs []event
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		parts := strings.Split(line, "|")
		var fields [][]byte
		for _, p := range parts[2:] {
			fields = append(fields, []byte(p))
		}
		evs = append(evs, event{index[parts[0]], parts[1] == "1", fields})
	}
	apply := func() {
		for _, ev := range evs {
			if err := e.Apply(ev.rel, ev.insert, ev.fields); err != nil {
				panic(err)
			}
			if err := e.Apply(ev.rel, !ev.insert, ev.fields); err != nil {
				panic(err)
			}
		}
	}
	for _, ev := range evs {
		if err := e.Apply(ev.rel, ev.insert, ev.fields); err != nil {
			panic(err)
		}
	}
	apply() // warm up
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	apply()
	runtime.ReadMemStats(&after)
	fmt.Println(after.Mallocs - before.Mallocs)
}
`
