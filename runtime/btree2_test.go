package runtime

import "testing"

// checkBTree2 checks the shape of every group's tree of a
// RangeSumPairIndex: keys ascending, every leaf at the tree's height, each
// inner entry holding its child's least key and both lanes' sums, every
// node but the root at least a quarter full, a key with a value not 0 in
// some lane, the key counts and the counts of negative values as kept.
func checkBTree2[K comparable](t *testing.T, x *RangeSumPairIndex[K, float64, int64, float64]) {
	t.Helper()
	b := &x.a
	var neg1, neg2 int32
	for g, i := range x.groups.pos {
		r := x.groups.roots[i]
		if r.root == 0 {
			t.Fatalf("group %v: empty tree kept", g)
		}
		var keys int32
		var prev float64
		first := true
		var visit func(id, h int32, root bool) (least float64, s1 int64, s2 float64)
		visit = func(id, h int32, root bool) (least float64, s1 int64, s2 float64) {
			nd := &b.nodes[id]
			if nd.n == 0 || !root && nd.n < btreeWidth/4 || root && h > 0 && nd.n < 2 {
				t.Fatalf("group %v: node %d at height %d holds %d entries", g, id, h, nd.n)
			}
			for i := range int(nd.n) {
				if h == 0 {
					k := nd.keys[i]
					if !first && !(prev < k) {
						t.Fatalf("group %v: keys out of order: %v then %v", g, prev, k)
					}
					prev, first = k, false
					if nd.v1[i] == 0 && nd.v2[i] == 0 {
						t.Fatalf("group %v: key %v stored with values 0", g, k)
					}
					if nd.v1[i] < 0 {
						neg1++
					}
					if nd.v2[i] < 0 {
						neg2++
					}
					keys++
				} else {
					l, c1, c2 := visit(nd.child[i], h-1, false)
					if l != nd.keys[i] || c1 != nd.v1[i] || c2 != nd.v2[i] {
						t.Fatalf("group %v: node %d entry %d: key %v sums %v, %v; child has %v and %v, %v", g, id, i, nd.keys[i], nd.v1[i], nd.v2[i], l, c1, c2)
					}
				}
				s1 += nd.v1[i]
				s2 += nd.v2[i]
			}
			return nd.keys[0], s1, s2
		}
		visit(r.root, r.height, true)
		if keys != r.n {
			t.Fatalf("group %v: n=%d, counted %d", g, r.n, keys)
		}
	}
	if neg1 != b.unsigned1 || neg2 != b.unsigned2 {
		t.Fatalf("unsigned %d, %d; counted %d, %d", b.unsigned1, b.unsigned2, neg1, neg2)
	}
}
