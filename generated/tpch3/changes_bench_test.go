package tpch3_test

import (
	"fmt"
	"testing"

	"github.com/toastgen/toastgen/generated/tpch3"
	"github.com/toastgen/toastgen/runtime"
)

// BenchmarkChanges measures the cost of a change stream: Q3's engine holds
// G groups (orders of a BUILDING customer, one lineitem each), and each
// iteration inserts a lineitem into one group and deletes it again (two
// events, each changing one row), unsubscribed, with a typed subscriber
// (OnQuery1Change) and with the generic one (OnChanges). A keyed view's
// flush reads the rows of the keys written: the cost must not grow with G.
// "typed-after-batch" subscribes, applies one batch that changes every
// group, then measures as "typed": a flush must not cost the size of an
// earlier batch either.
func BenchmarkChanges(b *testing.B) {
	date := func(s string) runtime.Date {
		d, err := runtime.ParseDate([]byte(s))
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	before, after := date("1995-01-01"), date("1995-06-01")
	lineitem := func(e *tpch3.Engine, insert bool, order int64) {
		f := e.InsertLineitem
		if !insert {
			f = e.DeleteLineitem
		}
		if err := f(order, 1, 1, 2, 1, 100, 0.1, 0, "N", "O", after, after, after, "", "", ""); err != nil {
			b.Fatal(err)
		}
	}
	for _, groups := range []int{1_000, 100_000, 1_000_000} {
		e := tpch3.New()
		if err := e.InsertCustomer(1, "", "", 1, "", 0, "BUILDING", ""); err != nil {
			b.Fatal(err)
		}
		for k := range int64(groups) {
			if err := e.InsertOrders(k, 1, "O", 0, before, "", "", 0, ""); err != nil {
				b.Fatal(err)
			}
			lineitem(e, true, k)
		}
		for _, mode := range []string{"unsubscribed", "typed", "generic", "typed-after-batch"} {
			b.Run(fmt.Sprintf("groups=%d/%s", groups, mode), func(b *testing.B) {
				n := 0
				switch mode {
				case "typed":
					e.OnQuery1Change(func(c tpch3.Query1Change) { n++ })
				case "typed-after-batch":
					e.OnQuery1Change(func(c tpch3.Query1Change) { n++ })
					batch := e.NewBatch()
					for k := range groups {
						f := [][]byte{[]byte(fmt.Sprint(k)), []byte("1"), []byte("1"), []byte("3"), []byte("1"), []byte("50"), []byte("0"), []byte("0"),
							[]byte("N"), []byte("O"), []byte("1995-06-01"), []byte("1995-06-01"), []byte("1995-06-01"), nil, nil, nil}
						if err := batch.Add(tpch3.RelationLineitem, true, f); err != nil {
							b.Fatal(err)
						}
					}
					if err := e.ApplyBatch(batch); err != nil {
						b.Fatal(err)
					}
					n = 0
				case "generic":
					e.OnChanges(func(c runtime.Change) { n++ })
				}
				defer e.OnQuery1Change(nil)
				defer e.OnChanges(nil)
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					k := int64(i % groups)
					lineitem(e, true, k)
					lineitem(e, false, k)
				}
				b.StopTimer()
				if mode != "unsubscribed" && n != 2*b.N {
					b.Fatalf("%d changes for %d events", n, 2*b.N)
				}
			})
		}
	}
}
