package calculus

import (
	"math/bits"
	"slices"

	"github.com/toastgen/toastgen/lang"
)

// View trees (factorized views). A view over a join materialized as a flat
// map of its rows costs, per event, one update for every row the event's
// tuple joins with: listing R ⋈ S on A, an insert into R writes an entry
// per S partner of its A. When the join is q-hierarchical (Berkholz,
// Keppeler, Schweikardt, PODS 2017) — for any two variables x and y the
// atoms holding them, atoms(x) and atoms(y), are disjoint or one holds the
// other, and a variable whose atoms strictly contain a group variable's is
// a group variable too — the view is a product of factors, each keyed by
// a root path of a forest over its group variables:
//
//	AggSum(g, R(a, b) · S(a, c)) = F_R[a, b] · F_S[a, c]
//	  with F_R = AggSum([a, b], R(a, b)), F_S = AggSum([a, c], S(a, c))
//
// The forest (a variable order) has a node per class of group variables
// with the same atoms; a node's parent is the class whose atoms are the
// least strict superset of its own. Each atom belongs to the lowest node
// whose atoms hold it (all its group variables lie on that node's root
// path), and a node's factor is the aggregate, keyed by its root path, of
// its atoms and the conditions and values over their variables; summed-out
// variables never span two factors (the second condition), so the sum
// distributes over the product. Each aggregate of the view is such a
// product — COUNT(*) of the count factors, SUM(s.c) the same with s.c in
// S's factor — and a view value #i reads the product of its factors at the
// row's key (Query.AggKeys gives each factor's path).
//
// Every event of a relation binds the whole key of the one factor its atom
// is in (an atom holds its node's root path), so the factors are ordinary
// maps the viewlet transform keeps in O(1) per event, where the flat view
// loops over partners. A row is in the view when every count factor along
// it is non-zero; the engines list rows by walking the forest (codegen
// keeps, per node, the values with rows below them, so that the walk has
// constant delay and the number of rows is kept).
//
// Factorize applies to a query whose aggregates are ring sums over one
// join of distinct relations (no self-join), each aggregate's body a
// single monomial of atoms and conditions or values over the variables of
// one atom, read by plain value columns (no HAVING, ORDER BY, LIMIT,
// MIN/MAX, running sums or subqueries keyed by part of the view); others
// keep the flat map.

// ViewTree is the variable order of a factorized view.
type ViewTree struct {
	Nodes []TreeNode // parents before children
}

// TreeNode is a class of the view's key variables that occur in the same
// atoms.
type TreeNode struct {
	// Keys are the positions of the node's variables among the view's map
	// keys (key variables, then presence flags: View.MapKeys), ascending.
	Keys   []int
	Parent int // index of the parent node; -1 for a root
	// Count is the index among the query's aggregates of the node's count
	// factor, or -1 for a node no atom belongs to (its values are those
	// its children have rows under).
	Count int
}

// Path returns the map-key positions of node n's root path, root first:
// the keys of its factors and of its row counts.
func (t *ViewTree) Path(n int) []int {
	if n < 0 {
		return nil
	}
	nd := t.Nodes[n]
	return append(t.Path(nd.Parent), nd.Keys...)
}

// Children returns the nodes whose parent is n (-1: the roots).
func (t *ViewTree) Children(n int) []int {
	var out []int
	for i, nd := range t.Nodes {
		if nd.Parent == n {
			out = append(out, i)
		}
	}
	return out
}

// Factorize returns q as a factorized view (Tree set), or false when q is
// not of the form above, or when its tree has fewer than two factors (the
// flat map is then the one factor).
func Factorize(q *Query) (*Query, bool) {
	if q.Scalar || q.Having != nil || q.Order != nil || q.Limit != nil || len(q.AggKeys) > 0 || q.Tree != nil || len(q.Aggs) == 0 {
		return nil, false
	}
	plain := true
	visit := func(e lang.Expr) {
		WalkExpr(e, func(x lang.Expr) {
			switch x.(type) {
			case *ExtremeRef, *RangeRef:
				plain = false
			}
		})
	}
	for _, v := range q.Values {
		visit(v.E)
		if v.Present != nil {
			visit(v.Present)
		}
	}
	if !plain {
		return nil, false
	}
	var keyVars []Var
	for _, k := range q.Keys {
		keyVars = append(keyVars, k.Var)
	}
	for _, k := range q.Keys {
		if k.Present.Name != "" {
			keyVars = append(keyVars, k.Present)
		}
	}
	keyPos := map[string]int{}
	for i, v := range keyVars {
		keyPos[v.Name] = i
	}
	// Each aggregate: the same atoms, then its conditions and values.
	type body struct {
		vals []*Val
	}
	var atoms []*Rel
	bodies := make([]body, len(q.Aggs))
	for i, t := range q.Aggs {
		a, ok := t.(*AggSum)
		if !ok || len(a.Group) != len(keyVars) {
			return nil, false
		}
		for j, g := range a.Group {
			if g.Name != keyVars[j].Name {
				return nil, false
			}
		}
		ms := Expand(a.T)
		if len(ms) != 1 || ms[0].Coef != 1 {
			return nil, false
		}
		var rels []*Rel
		for _, f := range ms[0].Factors {
			switch x := f.(type) {
			case *Rel:
				rels = append(rels, x)
			case *Val:
				// [p AND q] = [p]·[q]: each conjunct may go with its own atom.
				for _, c := range conjuncts(x.E) {
					bodies[i].vals = append(bodies[i].vals, &Val{E: c})
				}
			default:
				return nil, false
			}
		}
		if i == 0 {
			atoms = rels
			continue
		}
		if len(rels) != len(atoms) {
			return nil, false
		}
		for j, r := range rels {
			if String(r) != String(atoms[j]) {
				return nil, false
			}
		}
	}
	if len(atoms) < 2 || len(atoms) > 64 {
		return nil, false
	}
	// atoms(x) as a bit set per variable.
	mask := map[string]uint64{}
	var vars []Var
	for i, r := range atoms {
		for _, o := range atoms[:i] {
			if o.Name == r.Name {
				return nil, false // a self-join
			}
		}
		for _, v := range r.Vars {
			if _, ok := mask[v.Name]; !ok {
				vars = append(vars, v)
			}
			mask[v.Name] |= 1 << i
		}
	}
	for _, v := range keyVars {
		if mask[v.Name] == 0 {
			return nil, false // a key no atom binds
		}
	}
	free := func(v Var) bool { _, ok := keyPos[v.Name]; return ok }
	for _, x := range vars {
		for _, y := range vars {
			mx, my := mask[x.Name], mask[y.Name]
			if mx&my == 0 || mx&my == mx || mx&my == my {
				if mx != my && mx&my == mx && free(x) && !free(y) {
					return nil, false // not free-connex: y sums out above x
				}
				continue
			}
			return nil, false // not hierarchical
		}
	}
	// The nodes: classes of key variables by atoms, supersets first.
	var masks []uint64
	for _, v := range keyVars {
		if m := mask[v.Name]; !slices.Contains(masks, m) {
			masks = append(masks, m)
		}
	}
	slices.SortStableFunc(masks, func(a, b uint64) int { return bits.OnesCount64(b) - bits.OnesCount64(a) })
	tree := &ViewTree{}
	for _, m := range masks {
		nd := TreeNode{Parent: -1, Count: -1}
		for i, v := range keyVars {
			if mask[v.Name] == m {
				nd.Keys = append(nd.Keys, i)
			}
		}
		for j := len(tree.Nodes) - 1; j >= 0; j-- {
			if pm := masks[j]; pm != m && pm&m == m && (nd.Parent < 0 || bits.OnesCount64(pm) < bits.OnesCount64(masks[nd.Parent])) {
				nd.Parent = j
			}
		}
		tree.Nodes = append(tree.Nodes, nd)
	}
	// Each atom belongs to the lowest node holding it.
	owner := make([]int, len(atoms))
	for i := range atoms {
		owner[i] = -1
		for j, m := range masks {
			if m&(1<<i) != 0 && (owner[i] < 0 || bits.OnesCount64(m) < bits.OnesCount64(masks[owner[i]])) {
				owner[i] = j
			}
		}
		if owner[i] < 0 {
			return nil, false // an atom without key variables (a count that scales every row)
		}
	}
	factors := 0
	for j := range tree.Nodes {
		if slices.Contains(owner, j) {
			factors++
		}
	}
	if factors < 2 {
		return nil, false
	}
	// Conditions and values go with an atom holding all their variables.
	valAtom := func(x *Val) int {
		vs := ExprVars(x.E, nil)
		for i, r := range atoms {
			if !slices.ContainsFunc(vs, func(v Var) bool {
				return !slices.ContainsFunc(r.Vars, func(w Var) bool { return w.Name == v.Name })
			}) {
				return i
			}
		}
		return -1
	}
	out := *q
	out.Aggs = nil
	out.AggKeys = map[int][]int{}
	out.Tree = tree
	index := map[string]int{}
	addAgg := func(t *AggSum, path []int) int {
		k := String(t)
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(out.Aggs)
		out.AggKeys[len(out.Aggs)] = path
		out.Aggs = append(out.Aggs, t)
		return len(out.Aggs) - 1
	}
	repl := make([]lang.Expr, len(q.Aggs))
	for i := range q.Aggs {
		byNode := make([][]Term, len(tree.Nodes))
		for a, r := range atoms {
			byNode[owner[a]] = append(byNode[owner[a]], r)
		}
		for _, x := range bodies[i].vals {
			a := valAtom(x)
			if a < 0 {
				return nil, false // a condition across atoms
			}
			byNode[owner[a]] = append(byNode[owner[a]], x)
		}
		var product lang.Expr
		for j, fs := range byNode {
			if len(fs) == 0 {
				continue
			}
			path := tree.Path(j)
			group := make([]Var, len(path))
			for k, p := range path {
				group[k] = keyVars[p]
			}
			t := &AggSum{Group: group, T: prod(fs)}
			idx := addAgg(t, path)
			if i == 0 {
				tree.Nodes[j].Count = idx
			}
			var r lang.Expr = &AggRef{Index: idx, T: TypeOf(t)}
			if product == nil {
				product = r
			} else {
				product = times(product, r)
			}
		}
		repl[i] = product
	}
	var rewrite func(e lang.Expr) lang.Expr
	rewrite = func(e lang.Expr) lang.Expr {
		if e == nil {
			return nil
		}
		if r, ok := e.(*AggRef); ok {
			return repl[r.Index]
		}
		return mapChildren(e, rewrite)
	}
	out.Values = slices.Clone(q.Values)
	for j := range out.Values {
		out.Values[j].E = rewrite(out.Values[j].E)
		out.Values[j].Present = rewrite(out.Values[j].Present)
	}
	return &out, true
}
