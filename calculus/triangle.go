package calculus

import (
	"slices"

	"github.com/toastgen/toastgen/lang"
)

// Cyclic joins of three relations. The count of a triangle,
//
//	AggSum([], R(x, y) · S(y, z) · T(z, x)),
//
// costs every higher-order delta plan O(N) for some updates: a delta of R
// sums S(y, z)·T(z, x) over the z's of y, and y may have N of them. With
// heavy/light partitioning (Kara, Ngo, Nikolic, Olteanu, Zhang, ICDT 2019;
// runtime.TriangleCount) each update takes amortized O(√N). Triangle
// recognizes the shape: a keyless sum over one monomial of three distinct
// relations in which the variables shared by two atoms form a cycle (R and
// S share y, S and T share z, T and R share x: one variable each, or
// several, as a composite key), no variable is in all three, and every
// other factor — conditions, values — reads the variables of one atom. It
// returns the atoms' weights in cyclic order: Weights[i] is AggSum(u_i ∪
// w_i, atom_i · its conditions and values), keyed by u_i, the variables
// atom i shares with the previous atom, then w_i, those it shares with the
// next (Split[i] = len(u_i)). The count is then Σ W0(x, y)·W1(y, z)·W2(z, x).
type Cycle struct {
	Weights [3]*AggSum
	Split   [3]int
}

// Triangle returns def as a cycle of three weighted relations, or false.
func Triangle(def *AggSum) (*Cycle, bool) {
	if len(def.Group) != 0 || TypeOf(def) != lang.TInt {
		return nil, false // the kernel counts in int64
	}
	ms := Expand(def.T)
	if len(ms) != 1 || ms[0].Coef != 1 {
		return nil, false
	}
	var atoms []*Rel
	var vals []*Val
	for _, f := range ms[0].Factors {
		switch x := f.(type) {
		case *Rel:
			atoms = append(atoms, x)
		case *Val:
			for _, c := range conjuncts(x.E) {
				vals = append(vals, &Val{E: c})
			}
		default:
			return nil, false
		}
	}
	if len(atoms) != 3 || atoms[0].Name == atoms[1].Name || atoms[1].Name == atoms[2].Name || atoms[0].Name == atoms[2].Name {
		return nil, false
	}
	has := func(r *Rel, v Var) bool {
		return slices.ContainsFunc(r.Vars, func(w Var) bool { return w.Name == v.Name })
	}
	// shared returns the variables of atom i also in atom j, in i's order.
	shared := func(i, j int) []Var {
		var out []Var
		for _, v := range atoms[i].Vars {
			if has(atoms[j], v) && !slices.ContainsFunc(out, func(w Var) bool { return w.Name == v.Name }) {
				out = append(out, v)
			}
		}
		return out
	}
	c := &Cycle{}
	var parts [3][]Term
	for i := range 3 {
		prev, next := (i+2)%3, (i+1)%3
		u, w := shared(i, prev), shared(i, next)
		if len(u) == 0 || len(w) == 0 {
			return nil, false
		}
		for _, v := range u {
			if has(atoms[next], v) {
				return nil, false // a variable in all three atoms
			}
		}
		c.Split[i] = len(u)
		c.Weights[i] = &AggSum{Group: append(slices.Clone(u), w...)}
		parts[i] = []Term{atoms[i]}
	}
	for _, x := range vals {
		vs := ExprVars(x.E, nil)
		owner := slices.IndexFunc(atoms, func(r *Rel) bool {
			return !slices.ContainsFunc(vs, func(v Var) bool { return !has(r, v) })
		})
		if owner < 0 {
			return nil, false // a condition across atoms
		}
		parts[owner] = append(parts[owner], x)
	}
	for i := range 3 {
		c.Weights[i].T = prod(parts[i])
		if TypeOf(c.Weights[i]) != TypeOf(def) {
			return nil, false
		}
	}
	return c, true
}
