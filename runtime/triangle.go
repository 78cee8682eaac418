package runtime

import "math"

// TriangleCount keeps Σ E1(x, y)·E2(y, z)·E3(z, x), the count of a cyclic
// join of three binary relations (the triangle query of Kara, Ngo,
// Nikolic, Olteanu and Zhang, ICDT 2019), under updates of the weights of
// its three relations in amortized O(√N) time each, N the number of
// non-zero weights; every higher-order delta plan takes O(N) for some
// updates (a delta of E2 loops over the z's or x's of a value).
//
// Each relation is partitioned on its first variable: a value is heavy
// when it has at least θ ≈ √N partners, light below θ/2, either in
// between (the slack amortizes moving a value). There are at most 2N/θ
// heavy values. Beside the relations, three views are kept, each a join
// through light values only, for the heavy values of one relation:
//
//	V1[y, x] = Σ_{z light in E3} E2(y, z)·E3(z, x)   for y heavy in E2
//	V2[z, y] = Σ_{x light in E1} E3(z, x)·E1(x, y)   for z heavy in E3
//	V3[x, z] = Σ_{y light in E2} E1(x, y)·E2(y, z)   for x heavy in E1
//
// An update δ of E1(x, y) changes the count by δ·Σ_z E2(y, z)·E3(z, x):
// over y's O(θ) partners when y is light in E2, else V1[y, x] plus a loop
// over the O(N/θ) heavy z. It changes V3 (x heavy, y light: O(θ) partners
// of y) and V2 (x light: the O(N/θ) heavy z with E3(z, x) ≠ 0). Updates of
// E2 and E3 are the same with the relations rotated. Moving a value
// between light and heavy costs O(N) and happens once per Θ(θ) updates of
// it; when N doubles or halves, θ is recomputed and everything rebuilt.
// Weights are int64 (multiplicities, counts of rows).
type TriangleCount[X, Y, Z comparable] struct {
	e1 triRel[X, Y]
	e2 triRel[Y, Z]
	e3 triRel[Z, X]
	v1 triView[Y, X]
	v2 triView[Z, Y]
	v3 triView[X, Z]
	// sum is the count; n the number of non-zero weights, n0 its value at
	// the last rebuild, theta the heavy degree.
	sum          int64
	n, n0, theta int
}

// triRel is a weighted binary relation R(u, w) with its adjacency by u,
// partitioned on u into heavy and light, and the heavy u's of each w.
type triRel[U, W comparable] struct {
	out     map[U]map[W]int64 // u → w → non-zero weight
	heavy   map[U]bool        // the heavy u's
	inHeavy map[W]map[U]bool  // w → heavy u's with R(u, w) ≠ 0
}

// triView is a view V[u, w] by rows u.
type triView[U, W comparable] map[U]map[W]int64

func (r *triRel[U, W]) init() {
	r.out, r.heavy, r.inHeavy = map[U]map[W]int64{}, map[U]bool{}, map[W]map[U]bool{}
}

func (r *triRel[U, W]) get(u U, w W) int64 { return r.out[u][w] }

func (v triView[U, W]) add(u U, w W, d int64) {
	if d == 0 {
		return
	}
	row := v[u]
	if row == nil {
		row = map[W]int64{}
		v[u] = row
	}
	if x := row[w] + d; x != 0 {
		row[w] = x
	} else {
		delete(row, w)
		if len(row) == 0 {
			delete(v, u)
		}
	}
}

func (t *TriangleCount[X, Y, Z]) lazyInit() {
	if t.e1.out != nil {
		return
	}
	t.e1.init()
	t.e2.init()
	t.e3.init()
	t.v1, t.v2, t.v3 = triView[Y, X]{}, triView[Z, Y]{}, triView[X, Z]{}
	t.theta = 1
}

// Count returns Σ E1(x, y)·E2(y, z)·E3(z, x).
func (t *TriangleCount[X, Y, Z]) Count() int64 { return t.sum }

// Set1 makes w the weight of E1(x, y).
func (t *TriangleCount[X, Y, Z]) Set1(x X, y Y, w int64) {
	t.lazyInit()
	if d := w - t.e1.get(x, y); d != 0 {
		t.sum += triUpdate(t.theta, &t.n, d, x, y, &t.e1, &t.e2, &t.e3, t.v1, t.v2, t.v3)
		t.rebalance()
	}
}

// Set2 makes w the weight of E2(y, z).
func (t *TriangleCount[X, Y, Z]) Set2(y Y, z Z, w int64) {
	t.lazyInit()
	if d := w - t.e2.get(y, z); d != 0 {
		t.sum += triUpdate(t.theta, &t.n, d, y, z, &t.e2, &t.e3, &t.e1, t.v2, t.v3, t.v1)
		t.rebalance()
	}
}

// Set3 makes w the weight of E3(z, x).
func (t *TriangleCount[X, Y, Z]) Set3(z Z, x X, w int64) {
	t.lazyInit()
	if d := w - t.e3.get(z, x); d != 0 {
		t.sum += triUpdate(t.theta, &t.n, d, z, x, &t.e3, &t.e1, &t.e2, t.v3, t.v1, t.v2)
		t.rebalance()
	}
}

// triUpdate adds d to R1(a, b) in the rotation (R1, R2, R3) = (E1, E2,
// E3), (E2, E3, E1) or (E3, E1, E2), with W1 the view for R2's heavy
// values (through R3's light ones), W2 for R3's heavy values and W3 for
// R1's, with theta the heavy degree; it adds to *n the change of the
// number of non-zero weights and returns the change of the count.
func triUpdate[A, B, C comparable](theta int, n *int, d int64, a A, b B, r1 *triRel[A, B], r2 *triRel[B, C], r3 *triRel[C, A], w1 triView[B, A], w2 triView[C, B], w3 triView[A, C]) int64 {
	// The change of the count: d · Σ_c R2(b, c)·R3(c, a).
	var sum int64
	if r2.heavy[b] {
		sum = w1[b][a]
		for c := range r3.heavy {
			if x := r2.out[b][c]; x != 0 {
				sum += x * r3.out[c][a]
			}
		}
	} else {
		for c, x := range r2.out[b] {
			sum += x * r3.out[c][a]
		}
	}
	// W3[a, c] = Σ_{b light in R2} R1(a, b)·R2(b, c), for a heavy in R1.
	if r1.heavy[a] && !r2.heavy[b] {
		for c, x := range r2.out[b] {
			w3.add(a, c, d*x)
		}
	}
	// W2[c, b] = Σ_{a light in R1} R3(c, a)·R1(a, b), for c heavy in R3.
	if !r1.heavy[a] {
		for c := range r3.inHeavy[a] {
			w2.add(c, b, r3.out[c][a]*d)
		}
	}
	// R1 itself.
	row := r1.out[a]
	if row == nil {
		row = map[B]int64{}
		r1.out[a] = row
	}
	old := row[b]
	if nw := old + d; nw != 0 {
		row[b] = nw
		if old == 0 {
			*n++
			if r1.heavy[a] {
				triLink(r1.inHeavy, b, a)
			}
		}
	} else {
		delete(row, b)
		*n--
		if r1.heavy[a] {
			triUnlink(r1.inHeavy, b, a)
		}
		if len(row) == 0 {
			delete(r1.out, a)
		}
	}
	// Move a between light and heavy when its degree left the band.
	deg := len(r1.out[a])
	switch {
	case !r1.heavy[a] && deg >= theta:
		triPromote(a, r1, r2, r3, w2, w3)
	case r1.heavy[a] && 2*deg < theta:
		triDemote(a, r1, r2, r3, w2, w3)
	}
	return d * sum
}

// triPromote makes a heavy in R1: its W3 row is built, and its
// contributions to W2 (as a light value) are taken out.
func triPromote[A, B, C comparable](a A, r1 *triRel[A, B], r2 *triRel[B, C], r3 *triRel[C, A], w2 triView[C, B], w3 triView[A, C]) {
	for b, x := range r1.out[a] {
		for c := range r3.inHeavy[a] {
			w2.add(c, b, -r3.out[c][a]*x)
		}
		if !r2.heavy[b] {
			for c, y := range r2.out[b] {
				w3.add(a, c, x*y)
			}
		}
		triLink(r1.inHeavy, b, a)
	}
	r1.heavy[a] = true
}

// triDemote makes a light in R1, the inverse of triPromote.
func triDemote[A, B, C comparable](a A, r1 *triRel[A, B], _ *triRel[B, C], r3 *triRel[C, A], w2 triView[C, B], w3 triView[A, C]) {
	delete(w3, a)
	for b, x := range r1.out[a] {
		for c := range r3.inHeavy[a] {
			w2.add(c, b, r3.out[c][a]*x)
		}
		triUnlink(r1.inHeavy, b, a)
	}
	delete(r1.heavy, a)
}

func triLink[U, W comparable](in map[W]map[U]bool, w W, u U) {
	s := in[w]
	if s == nil {
		s = map[U]bool{}
		in[w] = s
	}
	s[u] = true
}

func triUnlink[U, W comparable](in map[W]map[U]bool, w W, u U) {
	s := in[w]
	delete(s, u)
	if len(s) == 0 {
		delete(in, w)
	}
}

// rebalance recomputes θ and every partition and view when the number of
// weights has doubled or halved since the last rebuild.
func (t *TriangleCount[X, Y, Z]) rebalance() {
	if t.n < 2*t.n0+16 && 2*t.n+16 > t.n0 {
		return
	}
	t.n0 = t.n
	t.theta = max(1, int(math.Sqrt(float64(t.n))))
	triReset(&t.e1)
	triReset(&t.e2)
	triReset(&t.e3)
	t.v1, t.v2, t.v3 = triView[Y, X]{}, triView[Z, Y]{}, triView[X, Z]{}
	// Heavy values first, then the views over the light ones.
	triClassify(&t.e1, t.theta)
	triClassify(&t.e2, t.theta)
	triClassify(&t.e3, t.theta)
	triBuild(&t.e1, &t.e2, t.v3)
	triBuild(&t.e2, &t.e3, t.v1)
	triBuild(&t.e3, &t.e1, t.v2)
}

func triReset[U, W comparable](r *triRel[U, W]) {
	r.heavy, r.inHeavy = map[U]bool{}, map[W]map[U]bool{}
}

func triClassify[U, W comparable](r *triRel[U, W], theta int) {
	for u, row := range r.out {
		if len(row) >= theta {
			r.heavy[u] = true
			for w := range row {
				triLink(r.inHeavy, w, u)
			}
		}
	}
}

// triBuild fills V[a, c] = Σ_{b light in R2} R1(a, b)·R2(b, c) for a
// heavy in R1.
func triBuild[A, B, C comparable](r1 *triRel[A, B], r2 *triRel[B, C], v triView[A, C]) {
	for a := range r1.heavy {
		for b, x := range r1.out[a] {
			if r2.heavy[b] {
				continue
			}
			for c, y := range r2.out[b] {
				v.add(a, c, x*y)
			}
		}
	}
}
