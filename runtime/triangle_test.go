package runtime

import (
	"math/rand"
	"testing"
)

// TestTriangleCountRandom checks TriangleCount against a brute-force count
// and its views against their definitions after every step of random
// weight changes: skewed values that turn heavy and light again, weights
// set back to zero, negative weights, and sizes that grow and shrink
// through several rebuilds.
func TestTriangleCountRandom(t *testing.T) {
	for _, universe := range []int{3, 8, 30} {
		r := rand.New(rand.NewSource(int64(universe)))
		var tc TriangleCount[int, int, int]
		e := [3]map[[2]int]int64{{}, {}, {}}
		pick := func() int {
			if r.Intn(3) == 0 {
				return 0 // a heavy value
			}
			return r.Intn(universe)
		}
		for step := range 4000 {
			rel, u, w := r.Intn(3), pick(), pick()
			wt := int64(r.Intn(3))
			if r.Intn(10) == 0 {
				wt = -1
			}
			if step%1000 > 700 {
				wt = 0 // shrink
			}
			switch rel {
			case 0:
				tc.Set1(u, w, wt)
			case 1:
				tc.Set2(u, w, wt)
			case 2:
				tc.Set3(u, w, wt)
			}
			if wt == 0 {
				delete(e[rel], [2]int{u, w})
			} else {
				e[rel][[2]int{u, w}] = wt
			}
			var want int64
			for k1, a := range e[0] {
				for k2, b := range e[1] {
					if k1[1] != k2[0] {
						continue
					}
					want += a * b * e[2][[2]int{k2[1], k1[0]}]
				}
			}
			if got := tc.Count(); got != want {
				t.Fatalf("universe %d step %d: Count = %d, want %d", universe, step, got, want)
			}
			if step%50 == 0 {
				checkTriViews(t, &tc)
			}
		}
	}
}

// checkTriViews recomputes the three views from the relations and the
// partitions.
func checkTriViews(t *testing.T, tc *TriangleCount[int, int, int]) {
	t.Helper()
	check := func(name string, got, want triView[int, int]) {
		for u, row := range want {
			for w, x := range row {
				if got[u][w] != x {
					t.Fatalf("%s[%d, %d] = %d, want %d", name, u, w, got[u][w], x)
				}
			}
		}
		for u, row := range got {
			for w, x := range row {
				if want[u][w] != x {
					t.Fatalf("%s[%d, %d] = %d, want %d", name, u, w, x, want[u][w])
				}
			}
		}
	}
	v1, v2, v3 := triView[int, int]{}, triView[int, int]{}, triView[int, int]{}
	triBuild(&tc.e2, &tc.e3, v1)
	triBuild(&tc.e3, &tc.e1, v2)
	triBuild(&tc.e1, &tc.e2, v3)
	check("V1", tc.v1, v1)
	check("V2", tc.v2, v2)
	check("V3", tc.v3, v3)
	checkHeavy(t, &tc.e1, tc.theta)
	checkHeavy(t, &tc.e2, tc.theta)
	checkHeavy(t, &tc.e3, tc.theta)
}

func checkHeavy(t *testing.T, r *triRel[int, int], theta int) {
	t.Helper()
	for u, row := range r.out {
		if !r.heavy[u] && len(row) >= theta {
			t.Fatalf("%d is light with %d partners, θ = %d", u, len(row), theta)
		}
		if r.heavy[u] && 2*len(row) < theta {
			t.Fatalf("%d is heavy with %d partners, θ = %d", u, len(row), theta)
		}
		for w := range row {
			if r.heavy[u] != r.inHeavy[w][u] {
				t.Fatalf("inHeavy[%d][%d] = %v, heavy %v", w, u, r.inHeavy[w][u], r.heavy[u])
			}
		}
	}
}
