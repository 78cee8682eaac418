package viewlet

// MergeInterps returns an interpreter of p whose maps sum and one are
// those of parts merged: each map in sum the sum of the parts' maps, each
// in one parts[0]'s. Interpreters that each saw a slice of a stream, split
// by a calculus.Partition plan, merge so into one whose views — read from
// the maps of the views' aggregates — are those of the whole stream. Other
// maps of the result are empty: it is for reading views, not for events.
func MergeInterps(p *Program, parts []*Interp, sum, one []string) *Interp {
	out := NewInterp(p)
	for _, name := range sum {
		m := out.maps[name]
		if m == nil {
			continue
		}
		merged := newIMap(m.isInt)
		for _, part := range parts {
			addIMap(merged, part.maps[name])
		}
		out.maps[name] = merged
	}
	for _, name := range one {
		if m := out.maps[name]; m != nil && len(parts) > 0 {
			merged := newIMap(m.isInt)
			addIMap(merged, parts[0].maps[name])
			out.maps[name] = merged
		}
	}
	return out
}

// addIMap adds the entries of from to m.
func addIMap(m, from *imap) {
	if from == nil {
		return
	}
	for _, e := range from.entries {
		if m.isInt {
			m.addInt(e.keys, e.i)
		} else {
			m.addFloat(e.keys, e.f.Value())
		}
	}
}
