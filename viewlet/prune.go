package viewlet

// pruneUnread drops the maps that neither a view nor a statement updating
// a map that is read reads, with the statements that maintain them. The
// simplification of re-evaluated entries (an outer join's match count
// turned into a lookup) can leave a map that was materialized for a loop
// nobody runs any more.
func pruneUnread(p *Program) {
	live := map[string]bool{}
	for _, v := range p.Views {
		for _, m := range v.Aggs {
			if m != nil {
				live[m.Name] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, m := range p.Maps {
			if live[m.Name] && m.Kernel != nil {
				for _, in := range m.Kernel.Inputs {
					if !live[in.Name] {
						live[in.Name] = true
						changed = true
					}
				}
			}
		}
		for _, t := range p.Triggers {
			for _, s := range t.Stmts {
				if !live[s.Map.Name] {
					continue
				}
				for _, r := range s.Reads() {
					if !live[r] {
						live[r] = true
						changed = true
					}
				}
			}
		}
	}
	maps := p.Maps[:0]
	for _, m := range p.Maps {
		if live[m.Name] {
			maps = append(maps, m)
		}
	}
	p.Maps = maps
	for _, t := range p.Triggers {
		stmts := t.Stmts[:0]
		for _, s := range t.Stmts {
			if live[s.Map.Name] {
				stmts = append(stmts, s)
			}
		}
		t.Stmts = stmts
	}
}
