package rst_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/rst"
	"github.com/toastgen/toastgen/runtime"
)

// TestReplay checks the package against the interpreter and SQLite on the
// example data, then on its inverse.
func TestReplay(t *testing.T) {
	gentest.CheckReplay(t, rst.New(), 1)
}

// BenchmarkTriggers measures the triggers on the example data and its inverse.
func BenchmarkTriggers(b *testing.B) {
	gentest.BenchTriggers(b, func() runtime.Engine { return rst.New() })
}

// TestBadInput checks that a relation index out of range and another
// engine's batch are errors, and that the relation constants index
// Relations.
func TestBadInput(t *testing.T) {
	e := rst.New()
	if r := e.Relations()[rst.RelationS]; r.Name != "S" {
		t.Errorf("Relations()[RelationS] is %s", r.Name)
	}
	fields := [][]byte{[]byte("1"), []byte("2")}
	if err := e.Apply(7, true, fields); err == nil || err.Error() != "relation index 7 out of range: the engine has 3 relations" {
		t.Errorf("Apply(7): %v", err)
	}
	b := e.NewBatch()
	if err := b.Add(-1, true, fields); err == nil {
		t.Error("Batch.Add(-1): no error")
	}
	if err := b.Add(rst.RelationR, true, fields); err != nil {
		t.Fatal(err)
	}
	if err := e.ApplyBatch(b); err != nil {
		t.Fatal(err)
	}
	if err := e.ApplyBatch(foreignBatch{}); err == nil {
		t.Error("ApplyBatch of another engine's batch: no error")
	}
}

// foreignBatch is a batch no generated package made.
type foreignBatch struct{}

func (foreignBatch) Add(int, bool, [][]byte) error { return nil }
func (foreignBatch) Len() int                      { return 0 }

// TestConcurrent reads the views from several goroutines while one applies
// batches, through a runtime.Guard (run it with -race).
func TestConcurrent(t *testing.T) {
	gentest.CheckConcurrent(t, func() runtime.Engine { return rst.New() }, 100)
}

// TestSnapshot cuts the example stream at random points, restores a new
// engine from a snapshot and continues; damaged snapshots are errors.
func TestSnapshot(t *testing.T) {
	gentest.CheckSnapshot(t, func() runtime.Engine { return rst.New() }, 50)
}

// TestBatches applies the example stream in random batches, with tuples
// inserted and deleted within a batch, against one-by-one application.
func TestBatches(t *testing.T) {
	gentest.CheckBatches(t, func() runtime.Engine { return rst.New() })
}

// TestAbsentDeletes deletes tuples before inserting them (negative
// multiplicities) beside the interpreter, then inserts them back.
func TestAbsentDeletes(t *testing.T) {
	gentest.CheckAbsentDeletes(t, func() runtime.Engine { return rst.New() })
}

// BenchmarkPolicies is where pre-aggregating a batch pays: S joins each of
// 32 B values to each of 32 C values, so that an event of R (or T) loops
// over 32 partners; 20,000 events of R and T over those values are applied
// to it, then their inverse, in batches of 1 to 100,000 events under each
// policy. Set-at-a-time runs the loops once per distinct B (C) of a batch.
func BenchmarkPolicies(b *testing.B) {
	const keys = 32
	field := func(v int) []byte { return []byte(strconv.Itoa(v)) }
	var base, work []gentest.Event
	for x := range keys {
		for y := range keys {
			base = append(base, gentest.Event{Rel: 1, Insert: true, Fields: [][]byte{field(x), field(y)}})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		rel := 0 // R(A, B), then T(C, D) every fourth event
		if i%4 == 3 {
			rel = 2
		}
		work = append(work, gentest.Event{Rel: rel, Insert: true, Fields: [][]byte{field(rng.IntN(1000)), field(rng.IntN(keys))}})
		if rel == 2 {
			work[len(work)-1].Fields[0], work[len(work)-1].Fields[1] = field(rng.IntN(keys)), field(rng.IntN(1000))
		}
	}
	gentest.BenchPolicies(b, func() runtime.Engine { return rst.New() }, base, work, []int{1, 10, 100, 1000, 10000, 100000})
}
