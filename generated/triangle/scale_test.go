package triangle_test

import (
	"fmt"
	"testing"

	"github.com/toastgen/toastgen/generated/triangle"
	"github.com/toastgen/toastgen/generated/triangleflat"
)

// The growth benchmark of the triangle count: N tuples forming hubs in
// every relation (R(i, 0) and R(0, i) for i ≤ N/6, the same in S and T),
// then updates that insert and delete (0, 0) in R, S and T in turn — each
// closes N/6 triangles, and a delta plan (triangleflat, -flat-views)
// loops over the N/6 partners of the hub; the heavy/light kernel
// (triangle) takes amortized O(√N).
//
//	go test -run '^$' -bench . ./generated/triangle

type engine interface {
	InsertR(a, b int64) error
	DeleteR(a, b int64) error
	InsertS(b, c int64) error
	DeleteS(b, c int64) error
	InsertT(c, a int64) error
	DeleteT(c, a int64) error
}

func hubs(b *testing.B, e engine, n int) {
	for i := int64(1); i <= int64(n/6); i++ {
		if e.InsertR(i, 0) != nil || e.InsertR(0, i) != nil || e.InsertS(i, 0) != nil || e.InsertS(0, i) != nil || e.InsertT(i, 0) != nil || e.InsertT(0, i) != nil {
			b.Fatal("insert failed")
		}
	}
}

func BenchmarkUpdate(b *testing.B) {
	run := func(b *testing.B, e engine, n int, count func() int64) {
		hubs(b, e, n)
		for b.Loop() {
			if e.InsertR(0, 0) != nil || e.DeleteR(0, 0) != nil || e.InsertS(0, 0) != nil || e.DeleteS(0, 0) != nil || e.InsertT(0, 0) != nil || e.DeleteT(0, 0) != nil {
				b.Fatal("update failed")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(6*b.N), "ns/event")
		if got := count(); got != 0 {
			b.Fatalf("%d triangles, want 0", got) // the hubs alone close none
		}
	}
	for _, n := range []int{1e3, 1e4, 1e5, 1e6} {
		b.Run(fmt.Sprintf("plan=kernel/N=%d", n), func(b *testing.B) {
			e := triangle.New()
			run(b, e, n, func() int64 { r, _ := e.TrianglesGet(); return r.N })
		})
	}
	for _, n := range []int{1e3, 1e4} {
		b.Run(fmt.Sprintf("plan=delta/N=%d", n), func(b *testing.B) {
			e := triangleflat.New()
			run(b, e, n, func() int64 { r, _ := e.TrianglesGet(); return r.N })
		})
	}
}

// BenchmarkUpdateMixed adds to the hubs of BenchmarkUpdate about √N values
// of degree about √N in every relation, so that the kernel has Θ(√N) heavy
// values to loop over: the stream for its O(√N) bound, where the delta
// plan still loops over the hub's N/6 partners.
func BenchmarkUpdateMixed(b *testing.B) {
	run := func(b *testing.B, e engine, n int) {
		hubs(b, e, n)
		k := int64(1)
		for k*k < int64(n/6) {
			k++
		}
		// Values k+1 … 2k, each with k partners among them, in R, S and T.
		for i := int64(0); i < k; i++ {
			for j := int64(0); j < k; j++ {
				u, v := n64(n)+i, n64(n)+j
				if e.InsertR(u, v) != nil || e.InsertS(u, v) != nil || e.InsertT(u, v) != nil {
					b.Fatal("insert failed")
				}
			}
		}
		for b.Loop() {
			if e.InsertR(0, 0) != nil || e.DeleteR(0, 0) != nil || e.InsertS(0, 0) != nil || e.DeleteS(0, 0) != nil || e.InsertT(0, 0) != nil || e.DeleteT(0, 0) != nil {
				b.Fatal("update failed")
			}
			if e.InsertR(n64(n), n64(n)) != nil || e.DeleteR(n64(n), n64(n)) != nil {
				b.Fatal("update failed")
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(8*b.N), "ns/event")
	}
	for _, n := range []int{1e3, 1e4, 1e5, 1e6} {
		b.Run(fmt.Sprintf("plan=kernel/N=%d", n), func(b *testing.B) { run(b, triangle.New(), n) })
	}
	for _, n := range []int{1e3, 1e4} {
		b.Run(fmt.Sprintf("plan=delta/N=%d", n), func(b *testing.B) { run(b, triangleflat.New(), n) })
	}
}

// n64 is the first value above the hubs' for N tuples.
func n64(n int) int64 { return int64(n/6) + 1 }
