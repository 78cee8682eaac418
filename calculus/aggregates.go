package calculus

import (
	"github.com/toastgen/toastgen/lang"
)

// aggregates lifts every aggregate of e to a variable: agg(factors) builds
// the aggregate term of a value. An aggregate skips the rows where its
// argument is NULL (they are not in its term); in a grouped block it is
// itself NULL where no row is left (nullable.go), in an ungrouped one it is
// 0 as over no rows.
func (b *block) aggregates(e lang.Expr, agg func(...Term) Term) (lang.Expr, []Term, error) {
	var lifts []Term
	var err error
	grouped := len(b.q.GroupBy) > 0
	var rewrite func(e lang.Expr) lang.Expr
	rewrite = func(e lang.Expr) lang.Expr {
		if err != nil {
			return e
		}
		a, ok := e.(*lang.Agg)
		if !ok {
			if !containsAgg(e) {
				se, ls, err2 := b.scalar(e)
				if err2 != nil {
					err = err2
				}
				lifts = append(lifts, ls...)
				return se
			}
			return mapChildren(e, rewrite)
		}
		lift := func(term Term, typ lang.Type) *VarRef {
			z := b.t.newVar("agg", typ)
			lifts = append(lifts, &Lift{V: z, T: term})
			return &VarRef{V: z}
		}
		// nonNull restricts an aggregate to the rows where its argument
		// (bound by the lifts ls) is present, p; nullIfNone marks z NULL
		// where no such row is left, in a grouped block.
		nonNull := func(ls []Term, p lang.Expr) []Term {
			if p == nil {
				return ls
			}
			return append(append([]Term{}, ls...), &Val{E: p})
		}
		// In dialect sql an ungrouped aggregate over no (non-NULL) input
		// is NULL too.
		nullable := func(p lang.Expr) bool { return (grouped && p != nil) || (b.t.sql && !grouped) }
		nullIfNone := func(z *VarRef, ls []Term, p lang.Expr) {
			if nullable(p) {
				n := lift(agg(nonNull(ls, p)...), lang.TInt)
				b.t.setPresent(z.V, countTest(n.V, true))
			}
		}
		if a.Distinct {
			r, err2 := b.distinctAggregate(a, agg, func(t Term, typ lang.Type) lang.Expr { return lift(t, typ) }) // distinctagg.go
			if err2 != nil {
				err = err2
				return e
			}
			return r
		}
		switch a.Fn {
		case "COUNT":
			if a.Arg == nil || !b.mayBeNull(a.Arg) {
				return lift(agg(), lang.TInt)
			}
			v, ls, err2 := b.scalar(a.Arg)
			if err2 != nil {
				err = err2
				return e
			}
			if p := b.t.presence(v); p != nil {
				return lift(agg(nonNull(ls, p)...), lang.TInt)
			}
			return lift(agg(), lang.TInt)
		case "SUM", "AVG":
			r, ls, p, err2 := b.ring(a.Arg)
			if err2 != nil {
				err = err2
				return e
			}
			sum := lift(agg(append(nonNull(ls, p), r)...), TypeOf(r))
			if a.Fn == "SUM" {
				nullIfNone(sum, ls, p)
				return sum
			}
			cnt := lift(agg(nonNull(ls, p)...), lang.TInt)
			if nullable(p) {
				b.t.setPresent(sum.V, countTest(cnt.V, true))
			}
			return &lang.Binary{Op: "/", L: sum, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), cnt}, T: lang.TInt}, T: lang.TFloat}
		case "STDDEV", "STDDEV_SAMP", "STDDEV_POP", "VARIANCE", "VAR_SAMP", "VAR_POP":
			st, err2 := b.statLift(a, agg, lift)
			if err2 != nil {
				err = err2
				return e
			}
			return st
		case "MIN", "MAX", "PERCENTILE_CONT", "PERCENTILE_DISC", "MODE":
			v, ls, err2 := b.scalar(a.Arg)
			if err2 != nil {
				err = err2
				return e
			}
			p := b.t.presence(v)
			x := b.t.newVar("arg", a.Arg.Type())
			// agg copies its body afresh but must keep x, which the Extreme
			// binds once the copy is made; later copies of the whole term (an
			// enclosing aggregate over a derived table, twice) rename it with
			// the rest, so that no two Extremes share their argument.
			b.t.order[x.Name] = -1
			rows := agg(append(nonNull(ls, p), &Lift{V: x, T: &Val{E: b.t.valueOf(v, true)}})...).(*AggSum)
			b.t.order[x.Name] = len(b.t.order)
			rows.Group = append(append([]Var{}, rows.Group...), x)
			z := lift(&Extreme{Max: a.Fn == "MAX", Arg: x, T: rows, Hol: holisticOf(a)}, a.T)
			nullIfNone(z, ls, p)
			return z
		}
		err = errorAt(a.P, "%s in a subquery is not supported yet", a.Fn)
		return e
	}
	out := rewrite(e)
	return out, lifts, err
}

// ring decomposes a numeric expression into ring operations so that the
// viewlet transform can split its factors between maps. Subqueries in it
// become lifted variables (returned as extra factors). It also returns the
// condition under which the expression is not NULL (nil: always), over the
// variables the extra factors bind.
func (b *block) ring(e lang.Expr) (Term, []Term, lang.Expr, error) {
	t := b.t
	var lifts []Term
	var rec func(e lang.Expr) (Term, lang.Expr, error)
	leaf := func(e lang.Expr) (Term, lang.Expr, error) {
		se, ls, err := b.scalar(e)
		lifts = append(lifts, ls...)
		return &Val{E: t.valueOf(se, true)}, t.presence(se), err
	}
	rec = func(e lang.Expr) (Term, lang.Expr, error) {
		// An expression over one relation's columns stays one value: splitting
		// it would only multiply the statements that maintain it.
		if b.fromItems(e) <= 1 {
			return leaf(e)
		}
		switch x := e.(type) {
		case *lang.Binary:
			switch x.Op {
			case "*", "+", "-":
				l, lp, err := rec(x.L)
				if err != nil {
					return nil, nil, err
				}
				r, rp, err := rec(x.R)
				if err != nil {
					return nil, nil, err
				}
				p := andExpr(lp, rp)
				switch x.Op {
				case "*":
					return &Prod{Factors: []Term{l, r}}, p, nil
				case "+":
					return &Sum{Terms: []Term{l, r}}, p, nil
				}
				return &Sum{Terms: []Term{l, &Neg{T: r}}}, p, nil
			}
		case *lang.Unary:
			if x.Op == "-" {
				u, p, err := rec(x.X)
				return &Neg{T: u}, p, err
			}
		case *lang.Case:
			// An arm is taken where its condition is TRUE and no earlier
			// one's is; the value is NULL where the arm taken is.
			var arms []Term
			var earlier []Term // NOT of every earlier condition
			var null lang.Expr
			nullArm := func(guards []Term, p lang.Expr) {
				if p == nil {
					return
				}
				var g []lang.Expr
				for _, f := range guards {
					g = append(g, f.(*Val).E)
				}
				n := andExpr(append(g, notExpr(p))...)
				if null == nil {
					null = n
				} else {
					null = orExpr(null, n)
				}
			}
			for _, w := range x.Whens {
				c, ls, err := b.scalar(w.Cond)
				if err != nil {
					return nil, nil, err
				}
				c = t.truth(c)
				lifts = append(lifts, ls...)
				then, p, err := rec(w.Then)
				if err != nil {
					return nil, nil, err
				}
				guards := append(append([]Term{}, earlier...), &Val{E: c})
				nullArm(guards, p)
				arms = append(arms, &Prod{Factors: append(guards, then)})
				earlier = append(earlier, &Val{E: notExpr(c)})
			}
			if x.Else != nil {
				el, p, err := rec(x.Else)
				if err != nil {
					return nil, nil, err
				}
				nullArm(earlier, p)
				arms = append(arms, &Prod{Factors: append(earlier, el)})
			}
			if null != nil {
				null = notExpr(null)
			}
			return &Sum{Terms: arms}, null, nil
		}
		return leaf(e)
	}
	r, p, err := rec(e)
	return r, lifts, p, err
}

// fromItems counts the distinct FROM items (of any enclosing block) whose
// columns e reads; a subquery counts as two, so that it is kept apart.
func (b *block) fromItems(e lang.Expr) int {
	seen := map[[2]int]bool{}
	n := 0
	walkExpr(e, func(x lang.Expr) {
		switch c := x.(type) {
		case *lang.ColRef:
			seen[[2]int{c.Outer, c.From}] = true
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			n = 2
		}
	})
	return max(n, len(seen))
}
