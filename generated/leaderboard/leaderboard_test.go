package leaderboard_test

import (
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/leaderboard"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, leaderboard.New(), 1)
}

// TestRanks checks the places and the top 2 against their definitions
// while groups overtake each other.
func TestRanks(t *testing.T) {
	e := leaderboard.New()
	live := map[[2]int64]int{} // deletes remove present rows only
	for a := range int64(50) {
		for b := range a % 7 {
			e.InsertR(a, b)
			live[[2]int64{a, b}]++
		}
	}
	for step := range int64(2000) {
		a, b := step*7919%50, step%9
		if k := [2]int64{a, b}; step%3 == 0 && live[k] > 0 {
			e.DeleteR(a, b)
			live[k]--
		} else {
			e.InsertR(a, b)
			live[k]++
		}
		if step%100 != 0 {
			continue
		}
		leaders := e.Leaders()
		for _, r := range leaders {
			place := int64(1)
			for _, o := range leaders {
				if o.Total > r.Total {
					place++
				}
			}
			if r.Place != place {
				t.Fatalf("step %d: %+v, want place %d", step, r, place)
			}
		}
		byA := map[int64]int64{}
		for _, r := range e.Top2() {
			byA[r.A] += r.Count
			if r.N < 1 || r.N+r.Count-1 > 2 {
				t.Fatalf("step %d: %+v outside the top 2", step, r)
			}
		}
		for a, n := range byA {
			if n > 2 {
				t.Fatalf("step %d: %d rows of A = %d in the top 2", step, n, a)
			}
		}
	}
}

// sizes are the numbers of groups (Leaders) or of rows of one partition
// (Top2) in the benchmarks: an event's cost must grow as log n at most.
var sizes = []int{100, 10_000, 1_000_000}

// BenchmarkLeadersMove adds to a group's total and takes it back: each
// event moves the group in the count of groups by total.
func BenchmarkLeadersMove(b *testing.B) {
	for _, n := range sizes {
		b.Run("groups="+strconv.Itoa(n), func(b *testing.B) {
			e := leaderboard.New()
			for i := range int64(n) {
				e.InsertR(i, i)
			}
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				a := i % int64(n)
				i += 7919
				e.InsertR(a, 3)
				e.DeleteR(a, 3)
			}
			if r, ok := e.LeadersGet(0); !ok || r.Place != int64(n) {
				b.Fatalf("Leaders[0] = %+v, %v", r, ok)
			}
		})
	}
}

// BenchmarkLeadersGet reads a group's place.
func BenchmarkLeadersGet(b *testing.B) {
	for _, n := range sizes {
		b.Run("groups="+strconv.Itoa(n), func(b *testing.B) {
			e := leaderboard.New()
			for i := range int64(n) {
				e.InsertR(i, i)
			}
			b.ReportAllocs()
			var sum int64
			i := int64(0)
			for b.Loop() {
				r, _ := e.LeadersGet(i % int64(n))
				sum += r.Place
				i++
			}
			if sum == 0 {
				b.Fatal("no place")
			}
		})
	}
}

// BenchmarkTop2DeleteInsert deletes a row of the one partition and inserts
// it back, the top rows among them.
func BenchmarkTop2DeleteInsert(b *testing.B) {
	for _, n := range sizes {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			e := leaderboard.New()
			for i := range int64(n) {
				e.InsertR(1, i)
			}
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				k := i % int64(n)
				i += 7919
				e.DeleteR(1, k)
				e.InsertR(1, k)
			}
			if r, ok := e.Top2Get(1, int64(n-1)); !ok || r.N != 1 {
				b.Fatalf("Top2[1, %d] = %+v, %v", n-1, r, ok)
			}
		})
	}
}

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return leaderboard.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return leaderboard.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return leaderboard.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return leaderboard.New() })
}
