package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Replace groups. In dialect sql a SUM comes with the count that makes it
// NULL over no rows, and where the view is re-evaluated (VWAP's SUM over
// the rows that pass a nested aggregate's test) each is a replacing
// statement that loops over its own map, testing the same conditions and
// reading the same nested sums per entry:
//
//	COUNT := (agg ^= M[]) * CNT[p] * (agg3 ^= …p…) * {0.25 * agg > agg3}
//	SUM   := (agg ^= M[]) * VAL[p] * (agg3 ^= …p…) * {0.25 * agg > agg3}
//
// When CNT and VAL are members of one table (tables.go), such statements
// — consecutive, each replacing one entry (replacesOne) by one monomial,
// equal but for the member they loop over, none reading another's target
// — are one loop over the table's entries: the shared factors are
// evaluated once per entry and each statement adds its member's value to
// its own sum. The other factors must be conditions and lifts, so that
// the product is the member's value times the coefficient.

// replaceGroup returns the length of the group of statements at the head
// of us (0 when fewer than two) and the position of the looped map read
// in their factors.
func (g *gen) replaceGroup(us []*unit, sc scope) (n, pos int) {
	if g.recording {
		return 0, 0 // no tables yet
	}
	head := us[0]
	fs0, pos, ok := g.groupShape(head, sc)
	if !ok {
		return 0, 0
	}
	r0 := fs0[pos].(*calculus.MapRef)
	tab := g.maps[r0.Name].tab
	members := map[string]bool{r0.Name: true}
	n = 1
	for ; n < len(us); n++ {
		fs, p, ok := g.groupShape(us[n], sc)
		if !ok || p != pos || len(fs) != len(fs0) {
			break
		}
		r := fs[p].(*calculus.MapRef)
		if g.maps[r.Name].tab != tab || members[r.Name] || !sameVarNames(r.Keys, r0.Keys) || !sameFactorsBut(fs, fs0, p) {
			break
		}
		reads := false
		for _, u := range us[:n] {
			reads = reads || hasString(u.reads, us[n].s.Map.Name) || hasString(us[n].reads, u.s.Map.Name)
		}
		if reads {
			break
		}
		members[r.Name] = true
	}
	if n < 2 {
		return 0, 0
	}
	return n, pos
}

// groupShape returns the factors of a unit that may join a replace
// group, and the position of its loop over a table member.
func (g *gen) groupShape(u *unit, sc scope) ([]calculus.Term, int, bool) {
	if !u.one || len(u.s.RHS) != 1 {
		return nil, 0, false
	}
	fs := u.s.RHS[0].Factors
	pos := -1
	for i, f := range fs {
		switch x := f.(type) {
		case *calculus.Val:
			if x.E.Type() != lang.TBool {
				return nil, 0, false
			}
		case *calculus.Lift:
		case *calculus.MapRef:
			mi := g.maps[x.Name]
			if pos >= 0 || mi.tab == nil {
				return nil, 0, false
			}
			for _, k := range x.Keys {
				if _, bound := sc[k.Name]; bound {
					return nil, 0, false
				}
			}
			pos = i
		default:
			return nil, 0, false
		}
	}
	return fs, pos, pos >= 0
}

func sameVarNames(a, b []calculus.Var) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// sameFactorsBut reports whether two factor lists are equal except at
// position p.
func sameFactorsBut(a, b []calculus.Term, p int) bool {
	for i := range a {
		if i != p && calculus.String(a[i]) != calculus.String(b[i]) {
			return false
		}
	}
	return true
}

// emitReplaceGroup emits a replace group (see replaceGroup): a sum per
// statement, the shared factors before the loop, the loop over the
// table's entries with the factors after it, and the stores.
func (g *gen) emitReplaceGroup(group []*unit, pos int, sc scope) ([]jen.Code, error) {
	fs := group[0].s.RHS[0].Factors
	r0 := fs[pos].(*calculus.MapRef)
	tab := g.maps[r0.Name].tab
	var code []jen.Code
	sums := make([]string, len(group))
	slots := make([]*mapInfo, len(group))
	for i, u := range group {
		sums[i] = g.fresh("sum")
		slots[i] = g.maps[u.s.RHS[0].Factors[pos].(*calculus.MapRef).Name]
		code = append(code, jen.Var().Id(sums[i]).Add(storedType(u.s.Map.Type)))
	}
	if thresholdShaped(fs, sc, g) {
		// A threshold read (threshold.go): the rays of keys once, then
		// each member's range sum over them, instead of the loop.
		var members []thresholdMember
		for i, u := range group {
			st, sum := u.s.Map.Type, sums[i]
			m := thresholdMember{loop: u.s.RHS[0].Factors[pos].(*calculus.MapRef), sk: &sink{typ: st, emit: func(_ scope, acc *jen.Statement) ([]jen.Code, error) {
				if st == lang.TFloat {
					return []jen.Code{jen.Id(sum).Dot("Add").Call(acc)}, nil
				}
				return []jen.Code{g.addTo(sum, acc, st)}, nil
			}}}
			if c := u.s.RHS[0].Coef; c != 1 {
				m.coef = jen.Add(valueLit(st, c))
			}
			members = append(members, m)
		}
		body, ok, err := g.thresholdSums(calculus.Monomial{Coef: 1, Factors: fs}, sc, nil, members, false)
		if err != nil {
			return nil, &unitError{s: group[0].s, err: err}
		}
		if ok {
			code = append(code, body...)
			for i, u := range group {
				code = append(code, g.storeReplaced(u.s, sums[i], sc)...)
			}
			return []jen.Code{jen.Block(code...)}, nil
		}
	}
	ent, idx := g.fresh("ent"), g.fresh("idx")
	entry := func() *jen.Statement { return jen.Id("e").Dot(tab.field).Dot("entries").Index(jen.Id(idx)) }
	// Each statement adds its member's value (the product: its other
	// factors are conditions and lifts) times its coefficient.
	add := &sink{typ: lang.TInt, emit: func(_ scope, _ *jen.Statement) ([]jen.Code, error) {
		var out []jen.Code
		for i, u := range group {
			st := u.s.Map.Type
			x := convert(valueOf(slots[i], entry().Dot(slots[i].slot)), slots[i].m.Type, st)
			if c := u.s.RHS[0].Coef; c != 1 {
				x = g.mul(jen.Add(valueLit(st, c)), x, st)
			}
			if st == lang.TFloat {
				out = append(out, jen.Id(sums[i]).Dot("Add").Call(x))
			} else {
				out = append(out, g.addTo(sums[i], x, st))
			}
		}
		return out, nil
	}}
	// An entry none of the group's members holds is skipped.
	var zero *jen.Statement
	for _, mi := range slots {
		var c *jen.Statement
		if mi.m.Type == lang.TFloat {
			c = entry().Dot(mi.slot).Dot("IsZero").Call()
		} else {
			c = entry().Dot(mi.slot).Op("==").Lit(0)
		}
		if zero == nil {
			zero = c
		} else {
			zero = zero.Op("&&").Add(c)
		}
	}
	rest := fs[pos+1:]
	var uses []calculus.Var
	for _, f := range rest {
		uses = append(uses, calculus.Vars(f)...)
	}
	loopSink := &sink{typ: lang.TInt, uses: uses, emit: func(outer scope, _ *jen.Statement) ([]jen.Code, error) {
		// Bind the keys from each entry's key; a key repeated in the
		// read is a test.
		inner := outer
		var conds []jen.Code
		for i, k := range r0.Keys {
			field := keyField(jen.Id(ent), len(r0.Keys), i)
			if c, ok := inner[k.Name]; ok {
				conds = append(conds, jen.If(c.Clone().Op("!=").Add(field)).Block(jen.Continue()))
				continue
			}
			inner = inner.with(k.Name, field)
		}
		body, err := g.factors(add, rest, inner, nil)
		if err != nil {
			return nil, err
		}
		kv := keyVar(ent, rest, r0.Keys, add)
		if len(conds) > 0 {
			kv = ent
		}
		for _, mi := range tab.members {
			mi.usesScan = true
		}
		loop := jen.For(jen.List(jen.Id(kv), jen.Id(idx)).Op(":=").Range().Add(rangeIndex(tab.index(), jen.Id("e").Dot(tab.field))))
		pre := append([]jen.Code{jen.If(zero).Block(jen.Continue())}, conds...)
		return []jen.Code{loop.Block(append(pre, body...)...)}, nil
	}}
	body, err := g.factors(loopSink, fs[:pos], sc, nil)
	if err != nil {
		return nil, &unitError{s: group[0].s, err: err}
	}
	code = append(code, body...)
	for i, u := range group {
		code = append(code, g.storeReplaced(u.s, sums[i], sc)...)
	}
	return []jen.Code{jen.Block(code...)}, nil
}
