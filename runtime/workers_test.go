package runtime

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeParts is a Partitioned fake: fakeEngine's multisets, partitioned by
// cols; MergeViews adds the parts' multisets (a broadcast relation's from
// the first part). An event whose first field is "boom" fails, as an
// overflow would.
type fakeParts struct {
	*fakeEngine
	cols []int
}

func newFakeParts(cols []int, rels ...Relation) *fakeParts {
	return &fakeParts{newFake(rels...), cols}
}

func (p *fakeParts) PartitionColumns() []int { return p.cols }

func (p *fakeParts) NewPartition() Partitioned { return newFakeParts(p.cols, p.rels...) }

func (p *fakeParts) ApplyBatch(b Batch) error {
	for _, ev := range b.(*fakeBatch).ev {
		if string(ev.fields[0]) == "boom" {
			return errors.New("boom")
		}
	}
	return p.fakeEngine.ApplyBatch(b)
}

func (p *fakeParts) Apply(rel int, insert bool, fields [][]byte) error {
	if string(fields[0]) == "boom" {
		return errors.New("boom")
	}
	return p.fakeEngine.Apply(rel, insert, fields)
}

func (p *fakeParts) NewBatch() Batch { return &fakeBatch{e: p.fakeEngine} }

func (p *fakeParts) MergeViews(parts []Partitioned) ([]View, error) {
	sum := newFake(p.rels...)
	for i, part := range parts {
		fp := part.(*fakeParts)
		for r := range p.rels {
			if p.cols[r] == Broadcast && i > 0 {
				continue
			}
			for t, n := range fp.state[r] {
				sum.state[r][t] += n
				if sum.state[r][t] == 0 {
					delete(sum.state[r], t)
				}
			}
		}
	}
	return sum.Views(), nil
}

// TestWorkers routes a random stream over three partitions, by Apply and
// by batches, reading the merged views as it goes: they must equal one
// engine's; every tuple of a key must be in one partition, the
// broadcast relation's in all, and the keys spread over the partitions.
func TestWorkers(t *testing.T) {
	rels := []Relation{
		{Name: "R", Columns: cols("K:i V:f")},
		{Name: "S", Columns: cols("A:s B:i")},
		{Name: "T", Columns: cols("X:f D:d")},
	}
	pcols := []int{0, Broadcast, 0}
	for _, batches := range []bool{false, true} {
		t.Run(fmt.Sprintf("batches=%v", batches), func(t *testing.T) {
			one := newFake(rels...)
			w, err := NewWorkers(newFakeParts(pcols, rels...), 3)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			var b Batch
			if batches {
				b = w.NewBatch()
			}
			for i := range 20000 {
				rel := rng.IntN(3)
				var f []string
				switch rel {
				case 0:
					f = []string{fmt.Sprint(rng.IntN(500) - 250), fmt.Sprint(rng.IntN(10))}
				case 1:
					f = []string{fmt.Sprintf("s%d", rng.IntN(20)), fmt.Sprint(rng.IntN(10))}
				default:
					f = []string{fmt.Sprintf("%d.5", rng.IntN(300)), "2024-01-02"}
				}
				fields := make([][]byte, len(f))
				for j := range f {
					fields[j] = []byte(f[j])
				}
				ins := rng.IntN(4) > 0
				if err := one.Apply(rel, ins, fields); err != nil {
					t.Fatal(err)
				}
				if batches {
					if err := b.Add(rel, ins, fields); err != nil {
						t.Fatal(err)
					}
					if b.Len() == 777 {
						if err := w.ApplyBatch(b); err != nil {
							t.Fatal(err)
						}
						b = w.NewBatch()
					}
				} else if err := w.Apply(rel, ins, fields); err != nil {
					t.Fatal(err)
				}
				if i%5000 == 4999 && !batches {
					if d := cmp.Diff(one.Views(), w.Views()); d != "" {
						t.Fatalf("after event %d, merged views differ (-one +workers):\n%s", i+1, d)
					}
				}
			}
			if batches {
				if err := w.ApplyBatch(b); err != nil {
					t.Fatal(err)
				}
			}
			if d := cmp.Diff(one.Views(), w.Views()); d != "" {
				t.Fatalf("merged views differ (-one +workers):\n%s", d)
			}
			seen := map[string]int{} // a partitioned tuple's key → its partition
			for i, p := range w.parts {
				fp := p.(*fakeParts)
				if len(fp.state[1]) != len(one.state[1]) {
					t.Errorf("partition %d holds %d of the %d tuples of broadcast S", i, len(fp.state[1]), len(one.state[1]))
				}
				for _, r := range []int{0, 2} {
					if n := len(fp.state[r]); n < len(one.state[r])/5 {
						t.Errorf("partition %d holds %d of the %d tuples of %s: not spread", i, n, len(one.state[r]), rels[r].Name)
					}
					for tup := range fp.state[r] {
						k, _, _ := strings.Cut(tup, "|")
						if j, ok := seen[k]; ok && j != i {
							t.Errorf("key %s of %s in partitions %d and %d", k, rels[r].Name, j, i)
						}
						seen[k] = i
					}
				}
			}
		})
	}
}

// TestPartitionOf: values a join equates meet in one partition however
// they are written; NULL and fields that do not parse go to the first;
// a few values are dealt out evenly, many spread by their hash, and a
// value keeps its partition.
func TestPartitionOf(t *testing.T) {
	i, f, s, d := Column{Type: Int}, Column{Type: Float}, Column{Type: String}, Column{Type: DateType}
	same := []struct {
		c      []Column
		fields []string
	}{
		{[]Column{i, i, i, f, f, f}, []string{"7", "+7", "007", "7.0", "7", "0.7e1"}},
		{[]Column{i, f, f, f}, []string{"0", "-0", "0.0", "-0.0"}},
		{[]Column{f, f}, []string{"2.5", "25e-1"}},
		{[]Column{i, i}, []string{"-9223372036854775808", "-9223372036854775808"}},
		{[]Column{s, s}, []string{"abc", "abc"}},
		{[]Column{d, d}, []string{"1995-03-15", "1995-03-15"}},
	}
	for _, c := range same {
		want, ok := keyHash(c.c[0], []byte(c.fields[0]))
		for j := range c.fields {
			if got, ok2 := keyHash(c.c[j], []byte(c.fields[j])); got != want || ok2 != ok || !ok {
				t.Errorf("%q (%v) hashes to %x (%v), %q to %x (%v)", c.fields[j], c.c[j].Type, got, ok2, c.fields[0], want, ok)
			}
		}
	}
	null := Column{Type: Int, Nullable: true}
	for _, fld := range []string{`\N`, "", "x"} {
		if _, ok := keyHash(null, []byte(fld)); ok {
			t.Errorf("%q hashed", fld)
		}
	}
	rels := []Relation{{Name: "R", Columns: []Column{null}}}
	w, err := NewWorkers(newFakeParts([]int{0}, rels...), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if p := w.partitionOf(0, []byte(`\N`)); p != 0 {
		t.Errorf("NULL in partition %d", p)
	}
	count := make([]int, 2)
	first := map[int]int{}
	for k := range 3 * workersDealt {
		v := k % (2 * workersDealt) // the first values come back
		p := w.partitionOf(0, []byte(fmt.Sprint(v)))
		if q, ok := first[v]; ok && q != p {
			t.Fatalf("value %d in partitions %d and %d", v, q, p)
		}
		first[v] = p
		if k < 10 {
			count[p]++
		}
	}
	if count[0] != 5 {
		t.Errorf("ten values split %v", count)
	}
	count = make([]int, 2)
	for v, p := range first {
		if v >= workersDealt {
			count[p]++
		}
	}
	if count[0] < workersDealt/3 || count[1] < workersDealt/3 {
		t.Errorf("%d hashed values split %v", workersDealt, count)
	}
}

// TestWorkersError: a partition's trigger error is returned by the next
// call, and Views then returns nil with the error in Err.
func TestWorkersError(t *testing.T) {
	rels := []Relation{{Name: "R", Columns: cols("K:s")}}
	w, err := NewWorkers(newFakeParts([]int{0}, rels...), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Apply(0, true, [][]byte{[]byte("boom")}); err != nil {
		t.Fatalf("the error came before the events were applied: %v", err)
	}
	if vs := w.Views(); vs != nil || w.Err() == nil || w.Err().Error() != "boom" {
		t.Fatalf("Views after a failed event: %v, Err %v", vs, w.Err())
	}
	if err := w.Apply(0, true, [][]byte{[]byte("a")}); err == nil {
		t.Fatal("Apply after a failed event returned no error")
	}
	if _, err := NewWorkers(newFakeParts([]int{3}, rels...), 2); err == nil {
		t.Fatal("a partition column out of range was accepted")
	}
	if _, err := NewWorkers(newFakeParts([]int{0}, rels...), 0); err == nil {
		t.Fatal("zero partitions were accepted")
	}
}

// TestWorkersPositionedError: a field that does not parse, met by a
// partition after Replay has moved on, is reported at its own file and
// line by Run.
func TestWorkersPositionedError(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.csv": "1,2\n3,4\n5,x\n7,8\n",
		"s.csv": "a,1\nb,2\n",
	})
	rels := []Relation{
		csvRel("R", true, "K:i V:i", filepath.Join(dir, "r.csv"), map[string]string{"delimiter": ","}),
		csvRel("S", false, "A:s B:i", filepath.Join(dir, "s.csv"), map[string]string{"delimiter": ","}),
	}
	w, err := NewWorkers(newFakeParts([]int{0, Broadcast}, rels...), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var out strings.Builder
	err = Run(w, RunOptions{}, &out)
	want := filepath.Join(dir, "r.csv") + ":3: column V: expected INT"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Run: %v, want an error starting %q", err, want)
	}
}

// noopParts is a Partitioned engine whose triggers do nothing: what
// BenchmarkWorkersApply measures is the routing.
type noopParts struct{ rels []Relation }

func (p noopParts) Relations() []Relation                    { return p.rels }
func (p noopParts) Apply(int, bool, [][]byte) error          { return nil }
func (p noopParts) NewBatch() Batch                          { return &fakeBatch{e: newFake(p.rels...)} }
func (p noopParts) ApplyBatch(Batch) error                   { return nil }
func (p noopParts) Views() []View                            { return nil }
func (p noopParts) PartitionColumns() []int                  { return []int{0} }
func (p noopParts) NewPartition() Partitioned                { return p }
func (p noopParts) MergeViews([]Partitioned) ([]View, error) { return nil, nil }

// BenchmarkWorkersApply measures Workers.Apply's cost per event (hashing
// the partition column, copying the fields, handing chunks over) with
// engines that do nothing, for a lineitem-like event of 16 fields.
func BenchmarkWorkersApply(b *testing.B) {
	var cs []Column
	fields := make([][]byte, 16)
	for i := range fields {
		cs = append(cs, Column{Name: fmt.Sprint("C", i), Type: Int})
		fields[i] = []byte(fmt.Sprint(1000000 + i*7919))
	}
	rels := []Relation{{Name: "L", Columns: cs}}
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("partitions=%d", n), func(b *testing.B) {
			w, err := NewWorkers(noopParts{rels}, n)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				fields[0] = strconv.AppendInt(fields[0][:0], int64(i), 10)
				if err := w.Apply(0, true, fields); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.wait(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
