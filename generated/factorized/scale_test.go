package factorized_test

import (
	"fmt"
	rt "runtime"
	"testing"

	"github.com/toastgen/toastgen/generated/factorized"
	"github.com/toastgen/toastgen/generated/factorizedflat"
)

// The growth benchmarks: N base tuples with skewed keys — half of each
// relation's tuples on join value 0, the rest spread over N/20 values —
// in the factorized engine (package factorized) and the flat one
// (factorizedflat, -flat-views), the latter only up to N = 10⁴: its view
// Pairs holds (N/6)² rows for value 0 alone.
//
//	go test -run '^$' -bench . ./generated/factorized
//
// An update is an insert or a delete on value 0, the worst case for the
// flat view (N/6 partners); reads are Get of one row, Len (factorized
// only: the flat view has no row count) and listing the first 100 rows.

var (
	treeSizes = []int{1e3, 1e4, 1e5, 1e6}
	flatSizes = []int{1e3, 1e4}
)

// engine is what the benchmarks use of either package.
type engine interface {
	InsertR(a, b int64) error
	DeleteR(a, b int64) error
	InsertS(a, c int64) error
	DeleteS(a, c int64) error
	InsertT(a, d int64) error
}

// fill inserts n tuples into R and S (and T when star is set), a third
// each, and returns the heap the engine grew by per tuple.
func fill(b *testing.B, e engine, n int, star bool) float64 {
	var before, after rt.MemStats
	rt.GC()
	rt.ReadMemStats(&before)
	spread := int64(max(1, n/20))
	key := func(i int) int64 {
		if i%2 == 0 {
			return 0
		}
		return 1 + int64(i)%spread
	}
	rels := 2
	if star {
		rels = 3
	}
	for i := range n / 3 {
		if err := e.InsertR(key(i), int64(i)); err != nil {
			b.Fatal(err)
		}
		if err := e.InsertS(key(i), int64(i)); err != nil {
			b.Fatal(err)
		}
		if star {
			if err := e.InsertT(key(i), int64(i)); err != nil {
				b.Fatal(err)
			}
		}
	}
	rt.GC()
	rt.ReadMemStats(&after)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(rels*(n/3))
}

// toggle inserts and deletes again a tuple on value 0 in R and in S: four
// events.
func toggle(b *testing.B, e engine, i int64) {
	if e.InsertR(0, -1-i) != nil || e.DeleteR(0, -1-i) != nil || e.InsertS(0, -1-i) != nil || e.DeleteS(0, -1-i) != nil {
		b.Fatal("update failed")
	}
}

func BenchmarkUpdate(b *testing.B) {
	run := func(b *testing.B, e engine, n int) {
		perTuple := fill(b, e, n, false)
		var i int64
		for b.Loop() {
			toggle(b, e, i%1000)
			i++
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(4*b.N), "ns/event")
		b.ReportMetric(perTuple, "bytes/tuple")
	}
	for _, n := range treeSizes {
		b.Run(fmt.Sprintf("plan=tree/N=%d", n), func(b *testing.B) { run(b, factorized.New(), n) })
	}
	for _, n := range flatSizes {
		b.Run(fmt.Sprintf("plan=flat/N=%d", n), func(b *testing.B) { run(b, factorizedflat.New(), n) })
	}
}

// BenchmarkUpdateStar updates the three-way star too (T filled): the flat
// plan cannot hold its view at these sizes.
func BenchmarkUpdateStar(b *testing.B) {
	for _, n := range treeSizes {
		b.Run(fmt.Sprintf("plan=tree/N=%d", n), func(b *testing.B) {
			e := factorized.New()
			perTuple := fill(b, e, n, true)
			var i int64
			for b.Loop() {
				toggle(b, e, i%1000)
				if e.InsertT(0, -1-i%1000) != nil || e.DeleteT(0, -1-i%1000) != nil {
					b.Fatal("update failed")
				}
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(6*b.N), "ns/event")
			b.ReportMetric(perTuple, "bytes/tuple")
			if e.StarLen() == 0 {
				b.Fatal("empty star")
			}
		})
	}
}

func BenchmarkRead(b *testing.B) {
	for _, n := range treeSizes {
		e := factorized.New()
		fill(b, e, n, false)
		b.Run(fmt.Sprintf("op=get/plan=tree/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := e.PairsGet(0, 0, 2); !ok {
					b.Fatal("no row")
				}
			}
		})
		b.Run(fmt.Sprintf("op=len/plan=tree/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if e.PairsLen() == 0 {
					b.Fatal("no rows")
				}
			}
		})
		b.Run(fmt.Sprintf("op=first100/plan=tree/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				first100(b, e.PairsRows())
			}
		})
	}
	for _, n := range flatSizes {
		e := factorizedflat.New()
		fill(b, e, n, false)
		b.Run(fmt.Sprintf("op=get/plan=flat/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := e.PairsGet(0, 0, 2); !ok {
					b.Fatal("no row")
				}
			}
		})
		b.Run(fmt.Sprintf("op=first100/plan=flat/N=%d", n), func(b *testing.B) {
			for b.Loop() {
				first100(b, e.PairsRows())
			}
		})
	}
}

func first100[R any](b *testing.B, rows func(func(R) bool)) {
	k := 0
	for range rows {
		if k++; k == 100 {
			return
		}
	}
	b.Fatal("fewer than 100 rows")
}
