package viewlet

import (
	"slices"

	"github.com/toastgen/toastgen/calculus"
)

// Flag keys that are always 1. A map key that is a presence flag pinned by
// the map's definition (flagKey.pinned: every monomial binds it by a
// relation atom's flag column and requires it non-zero) is 1 in every
// entry: VWAP's QUERY1_AGG1_mBIDS4[b1_price, b1_price_present] holds only
// bids whose price is not NULL. Where every statement writing the map
// keeps its RHS zero unless the key's variable is non-zero (a condition
// [f != 0] or a lift (f ^= 1) in each monomial) and every read binds the
// key's variable to 1 by a lift in its monomial (pinFlags), the key tells
// nothing: dropKeys removes it from the map, its definition's group, the
// statements' keys and the reads. The map is then keyed like the maps of a
// NOT NULL column — VWAP's price × volume by price alone, fused with the
// volume and count by price in one table, one hash lookup per event
// instead of two, and an index without groups. Maps that views read, that
// kernels read or keep, that hold entries before any event or that a :=
// statement writes are left as they are.

// dropPinnedKeys removes such keys from the maps of p.
func dropPinnedKeys(p *Program) {
	keep := map[*Map]bool{}
	for _, v := range p.Views {
		for _, m := range v.Aggs {
			keep[m] = true
		}
	}
	for _, m := range p.Maps {
		if m.Kernel != nil {
			keep[m] = true
			for _, in := range m.Kernel.Inputs {
				keep[in] = true
			}
		}
	}
	fk := newFlagKeys(p)
	for _, m := range p.Maps {
		if keep[m] || len(m.InitEntries) > 0 {
			continue
		}
		ks := fk.of(m.Name)
		for j := len(ks) - 1; j >= 0; j-- {
			if ks[j].pinned && keyDroppable(p, m, j) {
				dropKey(p, m, j)
			}
		}
	}
}

// keyDroppable reports whether key j of m can go: every statement writing
// m adds (no :=) an RHS that is zero unless its key j is non-zero, and
// every read of m is a factor of a trigger monomial that lifts the read's
// key j to 1.
func keyDroppable(p *Program, m *Map, j int) bool {
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			if s.Map == m {
				if s.Replace {
					// := clears the entries that match its bound keys:
					// without the flag, an event whose flag is 0 would
					// clear those where it is 1.
					return false
				}
				k := s.Keys[j].Name
				for _, mono := range s.RHS {
					if !hasNonZero(mono.Factors, k) && !liftsToOne(mono.Factors, k) {
						return false
					}
				}
			}
			for _, mono := range s.RHS {
				for _, f := range mono.Factors {
					if r, ok := f.(*calculus.MapRef); ok {
						if r.Name == m.Name && !liftsToOne(mono.Factors, r.Keys[j].Name) {
							return false
						}
						continue
					}
					nested := false
					calculus.Walk(f, func(t calculus.Term) {
						if r, ok := t.(*calculus.MapRef); ok && r.Name == m.Name {
							nested = true
						}
					})
					if nested {
						return false
					}
				}
			}
		}
		for _, u := range t.Syncs {
			if u.Map == m {
				return false
			}
		}
	}
	return true
}

// dropKey removes key j from m, its definition, the statements writing it
// and its reads.
func dropKey(p *Program, m *Map, j int) {
	m.Keys = slices.Delete(slices.Clone(m.Keys), j, j+1)
	def := m.Def.(*calculus.AggSum)
	m.Def = &calculus.AggSum{Group: slices.Delete(slices.Clone(def.Group), j, j+1), T: def.T}
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			if s.Map == m {
				s.Keys = slices.Delete(slices.Clone(s.Keys), j, j+1)
			}
			for mi, mono := range s.RHS {
				var fs []calculus.Term
				for _, f := range mono.Factors {
					if r, ok := f.(*calculus.MapRef); ok && r.Name == m.Name {
						f = &calculus.MapRef{Name: r.Name, Keys: slices.Delete(slices.Clone(r.Keys), j, j+1), Type: r.Type}
					}
					fs = append(fs, f)
				}
				s.RHS[mi] = calculus.Monomial{Coef: mono.Coef, Factors: fs}
			}
		}
	}
}
