package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

type msOp struct {
	v float64
	n int64
}

type msPair struct {
	V float64
	N int64
}

func msContents(s *Multiset[float64]) []msPair {
	var out []msPair
	for v, n := range s.All() {
		out = append(out, msPair{v, n})
	}
	return out
}

func TestMultiset(t *testing.T) {
	tests := []struct {
		name     string
		ops      []msOp
		want     []msPair
		min, max float64
	}{
		{name: "empty"},
		{name: "zero add is a no-op", ops: []msOp{{3, 0}}},
		{name: "one", ops: []msOp{{3, 1}}, want: []msPair{{3, 1}}, min: 3, max: 3},
		{name: "duplicates count", ops: []msOp{{3, 1}, {3, 2}}, want: []msPair{{3, 3}}, min: 3, max: 3},
		{name: "sorted", ops: []msOp{{5, 1}, {-1, 1}, {2, 1}, {9, 1}, {0, 1}},
			want: []msPair{{-1, 1}, {0, 1}, {2, 1}, {5, 1}, {9, 1}}, min: -1, max: 9},
		{name: "remove the minimum", ops: []msOp{{1, 1}, {2, 1}, {3, 1}, {1, -1}},
			want: []msPair{{2, 1}, {3, 1}}, min: 2, max: 3},
		{name: "remove the maximum", ops: []msOp{{1, 1}, {2, 1}, {3, 1}, {3, -1}},
			want: []msPair{{1, 1}, {2, 1}}, min: 1, max: 2},
		{name: "a duplicate keeps the extreme", ops: []msOp{{1, 2}, {5, 1}, {1, -1}},
			want: []msPair{{1, 1}, {5, 1}}, min: 1, max: 5},
		{name: "remove all", ops: []msOp{{1, 1}, {2, 1}, {2, -1}, {1, -1}}},
		{name: "negative multiplicity is present", ops: []msOp{{4, -1}, {7, 1}},
			want: []msPair{{4, -1}, {7, 1}}, min: 4, max: 7},
		{name: "negative then back to zero", ops: []msOp{{4, -1}, {7, 1}, {4, 1}},
			want: []msPair{{7, 1}}, min: 7, max: 7},
		{name: "minus zero is zero", ops: []msOp{{0, 1}, {math.Copysign(0, -1), 1}},
			want: []msPair{{0, 2}}, min: 0, max: 0},
		{name: "infinities", ops: []msOp{{math.Inf(1), 1}, {math.Inf(-1), 1}, {0, 1}},
			want: []msPair{{math.Inf(-1), 1}, {0, 1}, {math.Inf(1), 1}}, min: math.Inf(-1), max: math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Multiset[float64]
			for _, op := range tt.ops {
				s.Add(op.v, op.n)
			}
			if got := msContents(&s); !slices.Equal(got, tt.want) {
				t.Errorf("contents = %v, want %v", got, tt.want)
			}
			if s.Len() != len(tt.want) {
				t.Errorf("Len = %d, want %d", s.Len(), len(tt.want))
			}
			for _, p := range tt.want {
				if c := s.Count(p.V); c != p.N {
					t.Errorf("Count(%v) = %d, want %d", p.V, c, p.N)
				}
			}
			mn, okMin := s.Min()
			mx, okMax := s.Max()
			if okMin != (len(tt.want) > 0) || okMax != okMin {
				t.Fatalf("Min/Max ok = %v/%v with %d values", okMin, okMax, len(tt.want))
			}
			if okMin && (mn != tt.min || mx != tt.max) {
				t.Errorf("Min, Max = %v, %v, want %v, %v", mn, mx, tt.min, tt.max)
			}
		})
	}
}

func TestMultisetNil(t *testing.T) {
	var s *Multiset[int64]
	if _, ok := s.Min(); ok {
		t.Error("nil Min ok")
	}
	if _, ok := s.Max(); ok {
		t.Error("nil Max ok")
	}
	if s.Len() != 0 || s.Count(1) != 0 {
		t.Error("nil multiset not empty")
	}
	for range s.All() {
		t.Error("nil multiset yields")
	}
}

func TestMultisetStrings(t *testing.T) {
	var s Multiset[string]
	for _, w := range []string{"pear", "apple", "fig", "apple"} {
		s.Add(w, 1)
	}
	s.Add("fig", -1)
	if v, _ := s.Min(); v != "apple" {
		t.Errorf("Min = %q", v)
	}
	if v, _ := s.Max(); v != "pear" {
		t.Errorf("Max = %q", v)
	}
	if s.Count("apple") != 2 || s.Len() != 2 {
		t.Errorf("Count(apple) = %d, Len = %d", s.Count("apple"), s.Len())
	}
}

// msModel is the reference: a sorted slice of (value, multiplicity).
type msModel []msPair

func (m *msModel) add(v float64, n int64) {
	i, found := slices.BinarySearchFunc(*m, v, func(p msPair, v float64) int {
		switch {
		case p.V < v:
			return -1
		case p.V > v:
			return 1
		}
		return 0
	})
	switch {
	case n == 0:
	case !found:
		*m = slices.Insert(*m, i, msPair{v, n})
	case (*m)[i].N+n == 0:
		*m = slices.Delete(*m, i, i+1)
	default:
		(*m)[i].N += n
	}
}

// checkTreap checks the search-tree and heap orders of the trees at roots
// (with sizes) and that they and the free list partition the nodes.
func checkTreap(t *testing.T, a *treap[float64], roots []treeRoot) {
	t.Helper()
	seen := map[int32]bool{}
	var visit func(x int32, lo, hi float64) int
	visit = func(x int32, lo, hi float64) int {
		if x == 0 {
			return 0
		}
		if seen[x] {
			t.Fatalf("node %d reached twice", x)
		}
		seen[x] = true
		nd := a.nodes[x]
		if nd.val <= lo || nd.val >= hi || nd.cnt == 0 {
			t.Fatalf("node %d = %v (count %d) outside (%v, %v)", x, nd.val, nd.cnt, lo, hi)
		}
		for _, c := range []int32{nd.left, nd.right} {
			if c != 0 && a.nodes[c].pri > nd.pri {
				t.Fatalf("heap order broken at node %d", x)
			}
		}
		return 1 + visit(nd.left, lo, nd.val) + visit(nd.right, nd.val, hi)
	}
	live := 0
	for _, r := range roots {
		if n := visit(r.root, math.Inf(-1), math.Inf(1)); n != int(r.n) {
			t.Fatalf("%d reachable nodes, size %d", n, r.n)
		}
		live += int(r.n)
	}
	free := 0
	for x := a.free; x != 0; x = a.nodes[x].left {
		if seen[x] {
			t.Fatalf("free node %d is live", x)
		}
		seen[x] = true
		free++
	}
	if len(a.nodes) > 0 && free+live != len(a.nodes)-1 {
		t.Fatalf("%d free + %d live nodes of %d", free, live, len(a.nodes)-1)
	}
}

func TestMultisetRandom(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		var s Multiset[float64]
		var m msModel
		span := 1 + r.IntN(200) // few or many distinct values
		for step := range 3000 {
			v := float64(r.IntN(span) - span/2)
			var n int64
			switch {
			case len(m) > 0 && r.IntN(3) == 0:
				// Remove a present value entirely, often the extreme.
				p := m[r.IntN(len(m))]
				if r.IntN(2) == 0 {
					p = m[0]
				} else if r.IntN(2) == 0 {
					p = m[len(m)-1]
				}
				v, n = p.V, -p.N
			default:
				n = int64(r.IntN(5) - 2)
			}
			s.Add(v, n)
			m.add(v, n)
			if s.Len() != len(m) {
				t.Fatalf("seed %d step %d: Len = %d, want %d", seed, step, s.Len(), len(m))
			}
			mn, ok := s.Min()
			if ok != (len(m) > 0) || ok && mn != m[0].V {
				t.Fatalf("seed %d step %d: Min = %v, %v; model %v", seed, step, mn, ok, m)
			}
			mx, _ := s.Max()
			if ok && mx != m[len(m)-1].V {
				t.Fatalf("seed %d step %d: Max = %v; model %v", seed, step, mx, m)
			}
			if c := s.Count(v); len(m) > 0 && c != m.count(v) {
				t.Fatalf("seed %d step %d: Count(%v) = %d, want %d", seed, step, v, c, m.count(v))
			}
			if step%100 == 0 {
				checkTreap(t, &s.a, []treeRoot{{root: s.root, n: s.n}})
				if got := msContents(&s); !slices.Equal(got, []msPair(m)) {
					t.Fatalf("seed %d step %d: contents %v, want %v", seed, step, got, m)
				}
			}
			if step == 1500 {
				s.Reset()
				m = m[:0]
			}
		}
		checkTreap(t, &s.a, []treeRoot{{root: s.root, n: s.n}})
	}
}

func (m msModel) count(v float64) int64 {
	for _, p := range m {
		if p.V == v {
			return p.N
		}
	}
	return 0
}

func TestOrderedIndex(t *testing.T) {
	var x OrderedIndex[int64, int64]
	if _, ok := x.Min(1); ok {
		t.Fatal("empty index has a minimum")
	}
	x.Add(1, 10, 1)
	x.Add(1, 5, 1)
	x.Add(2, 7, 1)
	x.Add(1, 5, 0)
	if v, ok := x.Min(1); !ok || v != 5 {
		t.Errorf("Min(1) = %v, %v", v, ok)
	}
	if v, ok := x.Max(1); !ok || v != 10 {
		t.Errorf("Max(1) = %v, %v", v, ok)
	}
	x.Add(1, 5, -1)
	if v, _ := x.Min(1); v != 10 {
		t.Errorf("Min(1) after removing 5 = %v", v)
	}
	x.Add(2, 7, -1)
	if x.Len() != 1 || x.GroupLen(2) != 0 {
		t.Errorf("emptied group kept: Len %d", x.Len())
	}
	x.Add(3, 1, 1) // reuses group 2's node
	if len(x.a.nodes) != 4 {
		t.Errorf("%d nodes, want 3 and the sentinel", len(x.a.nodes))
	}
	x.Reset()
	if x.Len() != 0 {
		t.Errorf("after Reset: Len %d", x.Len())
	}
	if _, ok := x.Max(3); ok {
		t.Error("Max after Reset")
	}
}

// TestOrderedIndexRandom checks an index of a few groups against one model
// per group, and the shared node storage.
func TestOrderedIndexRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var x OrderedIndex[int, float64]
	models := make([]msModel, 5)
	for step := range 5000 {
		g := r.IntN(len(models))
		m := &models[g]
		v, n := float64(r.IntN(60)), int64(1)
		if len(*m) > 0 && r.IntN(2) == 0 {
			p := (*m)[r.IntN(len(*m))]
			if r.IntN(2) == 0 {
				p = (*m)[0]
			}
			v, n = p.V, -1
		}
		x.Add(g, v, n)
		m.add(v, n)
		mn, ok := x.Min(g)
		if ok != (len(*m) > 0) || ok && (mn != (*m)[0].V || x.Count(g, mn) != (*m)[0].N) {
			t.Fatalf("step %d: Min(%d) = %v, %v; model %v", step, g, mn, ok, *m)
		}
		if mx, _ := x.Max(g); ok && mx != (*m)[len(*m)-1].V {
			t.Fatalf("step %d: Max(%d) = %v; model %v", step, g, mx, *m)
		}
		if x.GroupLen(g) != len(*m) {
			t.Fatalf("step %d: GroupLen(%d) = %d, want %d", step, g, x.GroupLen(g), len(*m))
		}
		if step%250 == 0 {
			var roots []treeRoot
			for g, m := range models {
				var got []msPair
				for v, n := range x.Group(g) {
					got = append(got, msPair{v, n})
				}
				if !slices.Equal(got, []msPair(m)) {
					t.Fatalf("step %d: group %d = %v, want %v", step, g, got, m)
				}
				if i, ok := x.groups.find(g); ok {
					roots = append(roots, x.groups.roots[i])
				}
			}
			checkTreap(t, &x.a, roots)
		}
	}
}

// TestMultisetNoAlloc checks that a warm multiset's Add does not allocate.
func TestMultisetNoAlloc(t *testing.T) {
	var s Multiset[int64]
	for i := range int64(1000) {
		s.Add(i, 1)
	}
	for i := range int64(1000) {
		s.Add(i, -1)
	}
	var x OrderedIndex[int64, int64]
	x.Add(1, 1, 1)
	x.Add(1, 1, -1)
	i := int64(0)
	allocs := testing.AllocsPerRun(1000, func() {
		s.Add(i%1000, 1)
		s.Add((i+500)%1000, 1)
		s.Add(i%1000, -1)
		s.Add((i+500)%1000, -1)
		x.Add(i%7, i, 1)
		x.Add(i%7, i, -1)
		i++
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run", allocs)
	}
}

// BenchmarkMultiset measures Add (one insert and one delete of the
// current minimum) and Min on a multiset of n values.
func BenchmarkMultiset(b *testing.B) {
	for _, n := range []int{16, 1024, 65536} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			var s Multiset[int64]
			r := rand.New(rand.NewPCG(1, 2))
			vals := make([]int64, n)
			for i := range vals {
				vals[i] = r.Int64N(1 << 40)
				s.Add(vals[i], 1)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				mn, _ := s.Min()
				s.Add(mn, -1)
				s.Add(vals[i%n]+1, 1)
				if mx, ok := s.Max(); !ok || mx < mn {
					b.Fatal("bad extremes")
				}
			}
		})
	}
}
