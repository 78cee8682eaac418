package calculus

import "github.com/toastgen/toastgen/lang"

// Independent components. A join whose atoms split into groups that share
// no variable (a cross product with filters, as in SQL test corpora:
// `tab0 AS cor0, tab1 AS cor1, …, tab0 AS cor63 WHERE cor3.col0 = 5 AND …`)
// is the product of its groups' aggregates:
//
//	AggSum(g, C0 · C1 · … · Cn) = AggSum(g, C0) · AggSum([], C1) · … · AggSum([], Cn)
//
// when the group variables g and everything the aggregate reads outside
// the join lie in C0 (C1 … Cn only count rows). Without this, the delta of
// a join in which one relation occurs k times in independent groups has a
// monomial for every subset of those k atoms (the ΔA·ΔB terms of
// self-joins), 2^k − 1 of them; with it, each group is its own aggregate,
// maintained with the deltas of its own atoms, and the view multiplies the
// counts when it is read: a view value #i becomes #i · #c1 · … · #cn, and
// a grouped view keeps only the groups whose counts are all non-zero
// (HAVING #c1 · … · #cn != 0), since its groups are listed from C0's map.
//
// It pays for every cross product, not only for self-joins: an event of
// one group updates that group's aggregate in O(1), where the unfactored
// delta multiplies the maps of all the other groups (or, for a view keyed
// by one group, loops over its keys). The rewrite leaves alone the
// aggregates read by MIN/MAX (an ExtremeRef reads the map's keys, not its
// value) and those that are not a plain sum over a join (COUNT(DISTINCT),
// an Exists): those keep the whole join, and with it the exponential
// delta of a relation repeated in many groups.
func factorIndependent(cq *Query) {
	extremes := map[int]bool{}
	visit := func(e lang.Expr) {
		WalkExpr(e, func(x lang.Expr) {
			if r, ok := x.(*ExtremeRef); ok {
				extremes[r.Index] = true
			}
			if r, ok := x.(*RangeRef); ok {
				extremes[r.Index] = true // a running sum reads several entries
			}
		})
	}
	for _, v := range cq.Values {
		visit(v.E)
		visit(v.Present)
	}
	visit(cq.Having)
	index := map[string]int{}
	for i, a := range cq.Aggs {
		index[String(a)] = i
	}
	addAgg := func(t Term) int {
		k := String(t)
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(cq.Aggs)
		cq.Aggs = append(cq.Aggs, t)
		return len(cq.Aggs) - 1
	}
	repl := map[int]lang.Expr{}
	var guard lang.Expr // the product of the row count's other groups
	for i := range len(cq.Aggs) {
		a, ok := cq.Aggs[i].(*AggSum)
		if !ok || extremes[i] {
			continue
		}
		main, others := splitIndependent(a)
		if len(others) == 0 {
			continue
		}
		cq.Aggs[i] = &AggSum{Group: a.Group, T: prod(main)}
		var product lang.Expr
		for _, o := range others {
			t := &AggSum{T: prod(o)}
			r := &AggRef{Index: addAgg(t), T: TypeOf(t)}
			if product == nil {
				product = r
			} else {
				product = times(product, r)
			}
		}
		if i == 0 {
			guard = product
		}
		// #i now holds the main group alone, whose type may differ (an
		// INT count of a constant condition beside a FLOAT sum): its
		// references take the new type, the product the type of both.
		repl[i] = times(&AggRef{Index: i, T: TypeOf(cq.Aggs[i])}, product)
	}
	if len(repl) == 0 {
		return
	}
	for j := range cq.Values {
		cq.Values[j].E = scaleAggRefs(cq.Values[j].E, repl)
		if cq.Values[j].Present != nil {
			cq.Values[j].Present = scaleAggRefs(cq.Values[j].Present, repl)
		}
	}
	if cq.Having != nil {
		cq.Having = scaleAggRefs(cq.Having, repl)
	}
	if guard != nil && !cq.Scalar {
		g := &lang.Binary{Op: "!=", L: guard, R: IntLit(0), T: lang.TBool}
		if cq.Having == nil {
			cq.Having = g
		} else {
			cq.Having = &lang.Binary{Op: "AND", L: cq.Having, R: g, T: lang.TBool}
		}
	}
}

// scaleAggRefs replaces each AggRef #i of e that repl maps by repl[i],
// #i · the product of its other groups.
func scaleAggRefs(e lang.Expr, repl map[int]lang.Expr) lang.Expr {
	if e == nil {
		return nil
	}
	if r, ok := e.(*AggRef); ok {
		if p, ok := repl[r.Index]; ok {
			return p
		}
		return r
	}
	return mapChildren(e, func(c lang.Expr) lang.Expr { return scaleAggRefs(c, repl) })
}

// splitIndependent splits the factors of a's join into the groups that
// share no variable: main, the groups holding a's group variables (or the
// first group; factors without variables join it), and the others.
func splitIndependent(a *AggSum) (main []Term, others [][]Term) {
	var fs []Term
	var flatten func(t Term)
	flatten = func(t Term) {
		if p, ok := t.(*Prod); ok {
			for _, f := range p.Factors {
				flatten(f)
			}
			return
		}
		fs = append(fs, t)
	}
	flatten(a.T)
	if len(fs) < 2 {
		return nil, nil
	}
	// Union–find over the factors, joined by shared variables.
	parent := make([]int, len(fs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	noVars := -1 // factors without variables join the first such factor's group, then main
	for i, f := range fs {
		// Every variable a factor mentions, not only its free ones: a
		// nested aggregate correlated through a variable that its own atoms
		// also hold (o_orderkey in TPC-H Q4's EXISTS) reads it sideways.
		vs := Vars(f)
		if len(vs) == 0 {
			if noVars < 0 {
				noVars = i
			} else {
				parent[find(i)] = find(noVars)
			}
		}
		for _, v := range vs {
			if j, ok := owner[v.Name]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[v.Name] = i
			}
		}
	}
	groups := map[int][]Term{}
	var roots []int
	for i, f := range fs {
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], f)
	}
	if len(roots) < 2 {
		return nil, nil
	}
	isMain := map[int]bool{}
	for _, g := range a.Group {
		if i, ok := owner[g.Name]; ok {
			isMain[find(i)] = true
		}
	}
	if noVars >= 0 {
		isMain[find(noVars)] = true
	}
	if len(isMain) == 0 {
		isMain[roots[0]] = true
	}
	for _, r := range roots {
		if isMain[r] {
			main = append(main, groups[r]...)
		} else {
			others = append(others, groups[r])
		}
	}
	if len(others) == 0 {
		return nil, nil
	}
	return main, others
}

// times is l * r, FLOAT if either is.
func times(l, r lang.Expr) lang.Expr {
	t := lang.TInt
	if l.Type() == lang.TFloat || r.Type() == lang.TFloat {
		t = lang.TFloat
	}
	return &lang.Binary{Op: "*", L: l, R: r, T: t}
}
