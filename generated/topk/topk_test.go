package topk_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/topk"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, topk.New(), 1)
}

// TestWindows drives the engine with random inserts and deletes (deleting
// rows of the current top K often) and checks both views and every Get
// against a model that sorts all groups and rows after each event.
func TestWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	e := topk.New()
	type row struct{ a, b int64 }
	var rows []row // R as a list, for deletes
	for step := range 3000 {
		if len(rows) > 0 && r.IntN(5) < 2 {
			i := r.IntN(len(rows))
			if r.IntN(2) == 0 {
				// A row of the current top group, if any.
				if top := e.Query1(); len(top) > 0 {
					for j, x := range rows {
						if x.a == top[0].A {
							i = j
							break
						}
					}
				}
			}
			x := rows[i]
			rows = slices.Delete(rows, i, i+1)
			if err := e.DeleteR(x.a, x.b); err != nil {
				t.Fatal(err)
			}
		} else {
			x := row{int64(r.IntN(30)), int64(r.IntN(10) - 3)}
			rows = append(rows, x)
			if err := e.InsertR(x.a, x.b); err != nil {
				t.Fatal(err)
			}
		}
		// QUERY1: groups by total descending, then A.
		type group struct{ a, total, n int64 }
		byA := map[int64]*group{}
		for _, x := range rows {
			g := byA[x.a]
			if g == nil {
				g = &group{a: x.a}
				byA[x.a] = g
			}
			g.total += x.b
			g.n++
		}
		var groups []group
		for _, g := range byA {
			groups = append(groups, *g)
		}
		slices.SortFunc(groups, func(x, y group) int {
			if c := cmp.Compare(y.total, x.total); c != 0 {
				return c
			}
			return cmp.Compare(x.a, y.a)
		})
		want1 := groups[:min(5, len(groups))]
		got1 := e.Query1()
		if len(got1) != len(want1) {
			t.Fatalf("step %d: QUERY1 has %d rows, want %d", step, len(got1), len(want1))
		}
		for i, g := range want1 {
			if got1[i] != (topk.Query1Row{A: g.a, Total: g.total, N: g.n}) {
				t.Fatalf("step %d: QUERY1 row %d = %+v, want %+v", step, i, got1[i], g)
			}
		}
		for i, g := range groups {
			got, ok := e.Query1Get(g.a)
			if ok != (i < 5) || ok && got != got1[i] {
				t.Fatalf("step %d: Query1Get(%d) = %+v, %v; the group is at position %d", step, g.a, got, ok, i)
			}
		}
		// QUERY2: the bag of rows by B descending, then A; positions 2–5.
		sorted := slices.Clone(rows)
		slices.SortFunc(sorted, func(x, y row) int {
			if c := cmp.Compare(y.b, x.b); c != 0 {
				return c
			}
			return cmp.Compare(x.a, y.a)
		})
		var want2 []topk.Query2Row
		for _, x := range sorted[min(2, len(sorted)):min(6, len(sorted))] {
			if n := len(want2); n > 0 && want2[n-1].A == x.a && want2[n-1].B == x.b {
				want2[n-1].Count++
			} else {
				want2 = append(want2, topk.Query2Row{A: x.a, B: x.b, Count: 1})
			}
		}
		if got := e.Query2(); !slices.Equal(got, want2) {
			t.Fatalf("step %d: QUERY2 = %+v, want %+v", step, got, want2)
		}
		for _, w := range want2 {
			if got, ok := e.Query2Get(w.A, w.B); !ok || got != w {
				t.Fatalf("step %d: Query2Get(%d, %d) = %+v, %v, want %+v", step, w.A, w.B, got, ok, w)
			}
		}
		if len(sorted) > 0 {
			x := sorted[0] // position 0: never shown (OFFSET 2) unless it repeats into the window
			got, ok := e.Query2Get(x.a, x.b)
			shown := slices.IndexFunc(want2, func(w topk.Query2Row) bool { return w.A == x.a && w.B == x.b }) >= 0
			if ok != shown {
				t.Fatalf("step %d: Query2Get(%d, %d) = %+v, %v, shown %v", step, x.a, x.b, got, ok, shown)
			}
		}
	}
}

// sizes are the numbers of groups in the benchmarks: an event's cost may
// grow with their logarithm only.
var sizes = []int{100, 10_000, 1_000_000}

// filled returns an engine with n groups of distinct totals.
func filled(b *testing.B, n int) *topk.Engine {
	e := topk.New()
	for i := range int64(n) {
		if err := e.InsertR(i, i*7919%int64(n)); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// BenchmarkMove inserts a row into a group and deletes it: the group's
// total rises, moves up the order, and moves back (two repositions in the
// sorted set, O(log n); the bag view's too).
func BenchmarkMove(b *testing.B) {
	for _, n := range sizes {
		b.Run("groups="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				a := i % int64(n)
				i += 7919
				e.InsertR(a, int64(n))
				e.DeleteR(a, int64(n))
			}
		})
	}
}

// BenchmarkTop reads the top 5 groups: O(log n + k).
func BenchmarkTop(b *testing.B) {
	for _, n := range sizes {
		b.Run("groups="+strconv.Itoa(n), func(b *testing.B) {
			e := filled(b, n)
			b.ReportAllocs()
			var sum int64
			for b.Loop() {
				for r := range e.Query1Rows() {
					sum += r.Total
				}
			}
			if sum == 0 {
				b.Fatal("no rows")
			}
		})
	}
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return topk.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return topk.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return topk.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return topk.New() })
}
