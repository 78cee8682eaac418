package viewlet

import (
	"slices"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Pinned presence flags. In dialect sql a nullable column is a value and a
// presence flag (calculus.EventVars), and the maps built from a relation
// are keyed by both. A statement that loops over such a map by a flag key
// f — VWAP's QUERY1_AGG1_mBIDS4[b1_price, b1_price_present], AXFinder's
// QUERY1_COUNT_mASKS[broker_id, a_price, a_price_present] — while a
// condition [f != 0] holds (in the monomial, in every monomial of the map's
// definition, or in every monomial of a nested sum that the monomial tests
// non-zero) visits only entries with f = 1: a flag holds 0 or 1.
// pinFlags binds f to 1 before the read, (f ^= 1), so the loop runs over
// the other free key alone, with the flag part of the lookup's bound keys,
// and the shapes that read a range or a threshold of a map's ordered keys
// instead of looping (codegen) apply as they do to NOT NULL columns. It
// pins only where the factors after the read are those of such a shape
// over one free key left (rangeShaped), the other free keys, if any, bound
// by the loop (a := statement's target keys: MissedTrades' bids by broker,
// which codegen sums per broker over a threshold's rays; loopShaped):
// elsewhere the flag would only join the key of the index the loop reads.
// The
// monomial's conditions are split into their conjuncts first, a
// disjunction giving up the conjuncts that all its branches share
// (AXFinder's [ap != 0 AND p != 0 AND a − b > c OR p != 0 AND ap != 0 AND
// b − a > c] is [ap != 0]·[p != 0]·[a − b > c OR b − a > c]: boolean
// algebra, exact for the two-valued conditions of the calculus), and the
// pinned conditions [f != 0] are dropped (they hold). Only monomials where
// a flag is pinned change. A target key that every monomial of its
// statement pins becomes a flag of the event that every monomial requires
// non-zero (pinTargets: both are 1), so that the statement updates the
// event's entry and reads its map at a bound key (AXFinder and
// BrokerSpread in dialect sql: a range read, not a loop over the group).
// The monomials inside factorize's parts, (part1 ^= AggSum([], …)), are
// pinned as a statement's are (pinParts): MissedTrades' asks, summed once
// per event, are a threshold read.

// pinFlags rewrites the trigger statements of p as described above.
func pinFlags(p *Program) {
	fk := newFlagKeys(p)
	for _, t := range p.Triggers {
		// The event's presence flags: its arguments after one per column.
		var flags []calculus.Var
		if r := fk.rels[t.Event.Rel]; r != nil && len(t.Event.Args) > len(r.Columns) {
			flags = t.Event.Args[len(r.Columns):]
		}
		for _, s := range t.Stmts {
			pinned := false
			for i, m := range s.RHS {
				if out, ok := fk.pin(m, t.Event.Args); ok {
					s.RHS[i] = out
					pinned = true
				}
				s.RHS[i] = fk.pinParts(s.RHS[i], t.Event.Args)
			}
			if pinned {
				pinTargets(s, flags)
			}
		}
	}
}

// pinParts pins the monomials inside the parts of mono, the lifted sums
// that factorize computes once ((part1 ^= AggSum([], …)): MissedTrades'
// threshold read of the asks in dialect sql), as pin does a statement's,
// with the event's variables and those bound before the part bound.
func (fk *flagKeys) pinParts(mono calculus.Monomial, args []calculus.Var) calculus.Monomial {
	var out []calculus.Term
	bound := slices.Clone(args)
	changed := false
	for _, f := range mono.Factors {
		l, ok := f.(*calculus.Lift)
		var x *calculus.AggSum
		if ok && isPart(l.V.Name) {
			x, _ = l.T.(*calculus.AggSum)
		}
		if x == nil || len(x.Group) > 0 {
			out = append(out, f)
			bound = append(bound, binds(f)...)
			continue
		}
		var terms []calculus.Term
		pinnedAny := false
		for _, m := range calculus.Expand(x.T) {
			if pm, ok := fk.pin(m, bound); ok {
				m, pinnedAny = pm, true
			}
			terms = append(terms, m.Term(l.V.Type))
		}
		if !pinnedAny {
			out = append(out, f)
			bound = append(bound, l.V)
			continue
		}
		var t calculus.Term = &calculus.Sum{Terms: terms}
		if len(terms) == 1 {
			t = terms[0]
		}
		out = append(out, &calculus.Lift{V: l.V, T: &calculus.AggSum{Group: x.Group, T: t}})
		bound = append(bound, l.V)
		changed = true
	}
	if !changed {
		return mono
	}
	return calculus.Monomial{Coef: mono.Coef, Factors: out}
}

// isPart reports whether a lifted variable is one of factorize's parts,
// named part<N>: it reads no variable but the event's.
func isPart(name string) bool {
	n, ok := strings.CutPrefix(name, "part")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// pinTargets: a target key k of statement s that every monomial of its RHS
// binds to 1 by a pin, (k ^= 1), while it requires a presence flag g of the
// event non-zero ([g != 0]: g is 1), is g. The statement then targets the
// event's entry (BrokerSpread's QUERY1_COUNT[broker_id, broker_id_present],
// as the statements without a pin do) and reads its map at g, a bound key:
// the lift goes, and a read left with one free key is a range read, not a
// loop that adds to the entry of each key it visits.
func pinTargets(s *Stmt, flags []calculus.Var) {
	if s.Replace || len(s.RHS) == 0 {
		return
	}
	for ki, k := range s.Keys {
		// Any such g is exact (all are 1); the flag of k's own column
		// (x_broker_id_present's broker_id_present), where it qualifies,
		// keys the entry as the statements without a pin do.
		var g *calculus.Var
		for fi := range flags {
			f := &flags[fi]
			every := true
			for _, m := range s.RHS {
				every = every && liftsToOne(m.Factors, k.Name) && hasNonZero(m.Factors, f.Name)
			}
			if every && (g == nil || strings.HasSuffix(k.Name, "_"+f.Name)) {
				g = f
			}
		}
		if g == nil {
			continue
		}
		sub := map[string]lang.Expr{k.Name: &calculus.VarRef{V: *g}}
		for mi, m := range s.RHS {
			var fs []calculus.Term
			for _, f := range m.Factors {
				if l, ok := f.(*calculus.Lift); ok && l.V.Name == k.Name {
					continue
				}
				fs = append(fs, calculus.SubstTerm(f, sub))
			}
			s.RHS[mi] = calculus.Monomial{Coef: m.Coef, Factors: fs}
		}
		s.Keys[ki] = *g
	}
}

// liftsToOne reports whether fs binds v to 1 by a lift of its own, (v ^= 1).
func liftsToOne(fs []calculus.Term, v string) bool {
	for _, f := range fs {
		if l, ok := f.(*calculus.Lift); ok && l.V.Name == v {
			x, ok := l.T.(*calculus.Val)
			if !ok {
				return false
			}
			lit, ok := x.E.(*lang.Lit)
			return ok && lit.T == lang.TInt && lit.Int == 1
		}
	}
	return false
}

// flagKey says of one key of a map whether it is a presence flag (0 or 1
// in every entry) and whether the map's definition keeps only entries
// where it is 1.
type flagKey struct{ flag, pinned bool }

type flagKeys struct {
	rels map[string]*lang.Relation
	maps map[string]*Map
	memo map[string][]flagKey
}

// newFlagKeys returns the flag keys of p's maps, computed as asked.
func newFlagKeys(p *Program) *flagKeys {
	fk := &flagKeys{rels: map[string]*lang.Relation{}, maps: map[string]*Map{}, memo: map[string][]flagKey{}}
	for _, r := range p.Relations {
		fk.rels[r.Name] = r
	}
	for _, m := range p.Maps {
		fk.maps[m.Name] = m
	}
	return fk
}

// of returns the flag keys of the named map: a key is a flag when every
// monomial of its definition binds it by a relation atom's flag column,
// and pinned when, besides, every monomial has the condition [key != 0].
func (fk *flagKeys) of(name string) []flagKey {
	if ks, ok := fk.memo[name]; ok {
		return ks
	}
	var out []flagKey
	m := fk.maps[name]
	if m != nil && m.Kernel == nil {
		if def, ok := m.Def.(*calculus.AggSum); ok && len(def.Group) == len(m.Keys) {
			monos := calculus.Expand(def.T)
			out = make([]flagKey, len(m.Keys))
			for j, k := range def.Group {
				flag, pinned := len(monos) > 0, len(monos) > 0
				for _, mono := range monos {
					flag = flag && fk.flagOfRel(mono, k.Name)
					pinned = pinned && hasNonZero(mono.Factors, k.Name)
				}
				out[j] = flagKey{flag: flag, pinned: flag && pinned}
			}
		}
	}
	fk.memo[name] = out
	return out
}

// flagOfRel reports whether a relation atom of mono binds v by one of its
// presence flags.
func (fk *flagKeys) flagOfRel(mono calculus.Monomial, v string) bool {
	for _, f := range mono.Factors {
		r, ok := f.(*calculus.Rel)
		if !ok || fk.rels[r.Name] == nil {
			continue
		}
		for i, x := range r.Vars {
			if x.Name == v && i >= len(fk.rels[r.Name].Columns) {
				return true
			}
		}
	}
	return false
}

// hasNonZero reports whether fs hold the condition [v != 0] as a factor or
// a conjunct of one.
func hasNonZero(fs []calculus.Term, v string) bool {
	for _, f := range fs {
		if x, ok := f.(*calculus.Val); ok {
			for _, c := range splitCondition(x.E) {
				if isNonZero(c, v) {
					return true
				}
			}
		}
	}
	return false
}

// isNonZero reports whether e is v != 0.
func isNonZero(e lang.Expr, v string) bool {
	b, ok := e.(*lang.Binary)
	if !ok || b.Op != "!=" {
		return false
	}
	r, ok := b.L.(*calculus.VarRef)
	if !ok || r.V.Name != v {
		return false
	}
	l, ok := b.R.(*lang.Lit)
	return ok && l.T == lang.TInt && l.Int == 0
}

// pin returns mono with its free flag keys bound to 1 where the map or the
// monomial requires them non-zero; ok is false when nothing changes.
func (fk *flagKeys) pin(mono calculus.Monomial, args []calculus.Var) (calculus.Monomial, bool) {
	// The monomial's conditions, split.
	var conds []lang.Expr
	for _, f := range mono.Factors {
		if x, ok := f.(*calculus.Val); ok && x.E.Type() == lang.TBool {
			conds = append(conds, splitCondition(x.E)...)
		}
	}
	// A lifted sum every monomial of which requires [v != 0], tested
	// non-zero by the monomial, requires it too (VWAP's count that makes
	// its nested SUM NULL over no rows: x ^= AggSum([], {v != 0} * …),
	// {x != 0}).
	var liftRequires [][]calculus.Monomial // per tested lift, its monomials
	for _, f := range mono.Factors {
		l, ok := f.(*calculus.Lift)
		if !ok {
			continue
		}
		a, ok := l.T.(*calculus.AggSum)
		if !ok || len(a.Group) > 0 {
			continue
		}
		tested := false
		for _, c := range conds {
			tested = tested || isNonZero(c, l.V.Name)
		}
		if !tested {
			continue
		}
		liftRequires = append(liftRequires, calculus.Expand(a.T))
	}
	required := func(v string) bool {
		for _, c := range conds {
			if isNonZero(c, v) {
				return true
			}
		}
	lifts:
		for _, monos := range liftRequires {
			for _, m := range monos {
				if !hasNonZero(m.Factors, v) {
					continue lifts
				}
			}
			if len(monos) > 0 {
				return true
			}
		}
		return false
	}
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
	pinned := map[string]bool{}
	var out []calculus.Term
	for _, f := range mono.Factors {
		if r, ok := f.(*calculus.MapRef); ok {
			// Pin where the read then loops over one key: the shape of a
			// range or threshold read. Elsewhere the flag would only join
			// the key of the index the loop reads.
			ks := fk.of(r.Name)
			var pins []calculus.Var
			free := map[string]bool{}
			for j, k := range r.Keys {
				if bound[k.Name] || pinned[k.Name] {
					continue
				}
				if j < len(ks) && ks[j].flag && (ks[j].pinned || required(k.Name)) {
					pins = append(pins, k)
					continue
				}
				free[k.Name] = true
			}
			if loopShaped(mono.Factors, r, free) {
				for _, k := range pins {
					pinned[k.Name] = true
					out = append(out, &calculus.Lift{V: k, T: &calculus.Val{E: calculus.IntLit(1)}})
				}
			}
		}
		out = append(out, f)
		for _, v := range binds(f) {
			bound[v.Name] = true
		}
	}
	if len(pinned) == 0 {
		return mono, false
	}
	// The conditions split into factors, the pinned ones dropped, each
	// moved before the first factor it need not follow (a condition on the
	// event's columns before the loop, as orderFactors places them).
	var items []calculus.Term
	for _, f := range out {
		x, ok := f.(*calculus.Val)
		if !ok || x.E.Type() != lang.TBool {
			items = append(items, f)
			continue
		}
		for _, c := range splitCondition(x.E) {
			if b, ok := c.(*lang.Binary); ok && b.Op == "!=" {
				if r, ok := b.L.(*calculus.VarRef); ok && pinned[r.V.Name] && isNonZero(c, r.V.Name) {
					continue
				}
			}
			items = append(items, &calculus.Val{E: c})
		}
	}
	// Nested aggregates after a pin read the flag as 1 too.
	for i, f := range items {
		if _, ok := f.(*calculus.Val); !ok {
			items[i] = dropPinned(f, pinned)
		}
	}
	return calculus.Monomial{Coef: mono.Coef, Factors: hoistConditions(items, args)}, true
}

// hoistConditions moves each condition of fs before the first factor after
// which all its variables are bound (by args or earlier factors), keeping
// the conditions' order among themselves and the other factors' order.
func hoistConditions(fs []calculus.Term, args []calculus.Var) []calculus.Term {
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
	// at[i]: the conditions placed before factor i; len(fs) is the end.
	at := make([][]calculus.Term, len(fs)+1)
	placed := make([]bool, len(fs))
	for i := 0; i <= len(fs); i++ {
		for j := i; j < len(fs); j++ {
			if placed[j] {
				continue
			}
			if _, ok := fs[j].(*calculus.Val); !ok {
				continue
			}
			ready := true
			for _, v := range calculus.FreeVars(fs[j]) {
				ready = ready && bound[v.Name]
			}
			if ready || j == i {
				at[i] = append(at[i], fs[j])
				placed[j] = true
			}
		}
		if i < len(fs) {
			for _, v := range binds(fs[i]) {
				bound[v.Name] = true
			}
		}
	}
	var out []calculus.Term
	for i := 0; i <= len(fs); i++ {
		out = append(out, at[i]...)
		if i < len(fs) && !placed[i] {
			out = append(out, fs[i])
		}
	}
	return out
}

// splitCondition returns the conjuncts of a condition, a disjunction
// giving up the conjuncts common to all its branches.
func splitCondition(e lang.Expr) []lang.Expr { return calculus.SplitConjuncts(e, calculus.ExprString) }

// dropPinned returns t without its conditions [f != 0] (factors of
// products, or conjuncts of them) on pinned flags f, which hold: t reads
// them as inputs bound to 1. t itself is not changed.
func dropPinned(t calculus.Term, pinned map[string]bool) calculus.Term {
	switch x := t.(type) {
	case *calculus.Prod:
		var fs []calculus.Term
		changed := false
		for _, f := range x.Factors {
			if v, ok := f.(*calculus.Val); ok && v.E.Type() == lang.TBool {
				var keep []calculus.Term
				dropped := false
				for _, c := range splitCondition(v.E) {
					if b, ok := c.(*lang.Binary); ok {
						if r, ok := b.L.(*calculus.VarRef); ok && pinned[r.V.Name] && isNonZero(c, r.V.Name) {
							dropped = true
							continue
						}
					}
					keep = append(keep, &calculus.Val{E: c})
				}
				if dropped {
					changed = true
					fs = append(fs, keep...)
					continue
				}
			}
			n := dropPinned(f, pinned)
			changed = changed || n != f
			fs = append(fs, n)
		}
		if !changed {
			return t
		}
		if len(fs) == 0 {
			return &calculus.Val{E: calculus.IntLit(1)}
		}
		if len(fs) == 1 {
			return fs[0]
		}
		return &calculus.Prod{Factors: fs}
	case *calculus.Sum:
		var ts []calculus.Term
		changed := false
		for _, u := range x.Terms {
			n := dropPinned(u, pinned)
			changed = changed || n != u
			ts = append(ts, n)
		}
		if !changed {
			return t
		}
		return &calculus.Sum{Terms: ts}
	case *calculus.Neg:
		if n := dropPinned(x.T, pinned); n != x.T {
			return &calculus.Neg{T: n}
		}
	case *calculus.AggSum:
		if n := dropPinned(x.T, pinned); n != x.T {
			return &calculus.AggSum{Group: x.Group, T: n}
		}
	case *calculus.Lift:
		if n := dropPinned(x.T, pinned); n != x.T {
			return &calculus.Lift{V: x.V, T: n}
		}
	case *calculus.Exists:
		if n := dropPinned(x.T, pinned); n != x.T {
			return &calculus.Exists{T: n}
		}
	case *calculus.Extreme:
		if n := dropPinned(x.T, pinned); n != x.T {
			return &calculus.Extreme{Max: x.Max, Arg: x.Arg, T: n, Hol: x.Hol}
		}
	}
	return t
}

// rangeShaped reports whether the factors of fs after map read r are those
// of a range or threshold read over its free key (the one of free):
// conditions, one of which or a nested sum reads the key, and lifts —
// of values, or of nested sums that read the key.
// loopShaped reports whether the factors after read r are those of a range
// or threshold read over one of its free keys: with one free key,
// rangeShaped; with several (a := statement's target keys, which the loop
// binds), rangeShaped over one of them (codegen's threshold loop: the
// rays searched once, each group or entry summed or tested against them).
func loopShaped(fs []calculus.Term, r *calculus.MapRef, free map[string]bool) bool {
	if len(free) <= 1 {
		return len(free) == 1 && rangeShaped(fs, r, free)
	}
	for k := range free {
		if rangeShaped(fs, r, map[string]bool{k: true}) {
			return true
		}
	}
	return false
}

func rangeShaped(fs []calculus.Term, r *calculus.MapRef, free map[string]bool) bool {
	reads := func(t calculus.Term) bool {
		for _, v := range calculus.Vars(t) {
			if free[v.Name] {
				return true
			}
		}
		return false
	}
	after, read := false, false
	for _, f := range fs {
		if f == calculus.Term(r) {
			after = true
			continue
		}
		if !after {
			continue
		}
		switch x := f.(type) {
		case *calculus.Val:
			read = read || reads(x)
		case *calculus.Lift:
			switch x.T.(type) {
			case *calculus.Val:
			case *calculus.AggSum:
				if !reads(x) {
					return false
				}
				read = true
			default:
				return false
			}
		default:
			return false
		}
	}
	return read
}
