package calculus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Query is a SELECT translated to the calculus: a view keyed by Keys whose
// value columns are expressions over the aggregate terms Aggs.
type Query struct {
	Name string
	// Named reports a view named in the query file (lang.Query.Named):
	// codegen derives its Go identifiers from the name as written.
	Named  bool
	Keys   []Column // the view's key columns (GROUP BY, or every column of a query without aggregates)
	Values []Value  // the view's value columns, in SELECT order
	// Columns is the SELECT list: which key or value each output column
	// shows (lang.Query.Columns).
	Columns []runtime.OutputColumn
	// Aggs are the aggregate terms, each AggSum(key vars, …). Aggs[0] is the
	// row count of each group: a group is in the view while it is non-zero.
	Aggs []Term
	// Having filters groups at read time (nil: none); it reads key variables
	// and aggregates (AggRef). A windowed view's Qualify is its Having.
	Having lang.Expr
	// Distinct reports a SELECT DISTINCT without aggregates (or a UNION):
	// every present row has value 1. It is never set for an aggregated
	// query (see lang's distinctGroups).
	Distinct bool
	// Scalar reports a query with aggregates and no GROUP BY: exactly one
	// row, even over empty input, where SUM and COUNT are 0.
	Scalar bool
	// AggKeys gives, for an aggregate keyed by some of the view's keys only
	// (a subquery in SELECT or HAVING correlated with group keys), the
	// positions of its keys among the view's (for a MIN/MAX read by an
	// ExtremeRef, of its keys but the last). Other aggregates are keyed by
	// all the view's keys, or by none.
	AggKeys map[int][]int
	// Tree, when set, factorizes the view (viewtree.go): its rows are the
	// key combinations along Tree whose count factors are all non-zero,
	// and Aggs are the factors, each keyed by a root path of Tree.
	Tree *ViewTree
	// Order is the total order of the rows of a view with an ORDER BY or
	// a LIMIT, over the positions of its rows (Keys, then Values; see
	// lang.Query.Order); nil for an unordered view. Limit (nil: none)
	// keeps the rows at positions Offset to Offset+Count−1 of that order,
	// a row of a view without aggregates counting as many rows as its
	// multiplicity. Neither changes the maps: they are read-time.
	Order []runtime.SortKey
	Limit *lang.Limit
	// Bag reports a view without aggregates that is not DISTINCT: its one
	// value, COUNT, is each row's multiplicity.
	Bag bool
	// Numbered are the indexes among Values of the ROW_NUMBERs of a bag
	// with windows (lang.Query.NumberedCopies): a row of multiplicity n
	// shows the number of its first copy, and the view shown has a row per
	// copy, the numbers among its keys (runtime.NumberCopies).
	Numbered []int
}

// Column is a named view column bound to a variable.
type Column struct {
	Name string
	Var  Var
	// Present, for a key that may be NULL (dialect sql), is its presence
	// flag: 1 where the key has a value (Var), 0 where it is NULL (Var then
	// holds its type's zero). The view's maps are keyed by the Vars of its
	// Keys, then by the Present flags of the keys that have one, in key
	// order, so that NULL is a group of its own. Zero Var: never NULL.
	Present Var
}

// Value is a view value column computed from aggregates and key variables.
type Value struct {
	Name string
	Type lang.Type
	E    lang.Expr // over *VarRef (keys) and *AggRef
	// Present (dialect sql) is the condition under which the value is not
	// NULL, over the same leaves as E; nil: never NULL. Where it fails, E
	// reads its type's zero.
	Present lang.Expr
}

// String prints the query's definition: keys, values and aggregate terms.
func (q *Query) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "VIEW %s [", q.Name)
	for i, k := range q.Keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %s", k.Name, k.Var.Name)
	}
	b.WriteString("]")
	if q.Scalar {
		b.WriteString(" scalar")
	}
	if q.Distinct {
		b.WriteString(" distinct")
	}
	if len(q.Numbered) > 0 {
		fmt.Fprintf(&b, " numbered%v", q.Numbered)
	}
	b.WriteString("\n")
	for _, v := range q.Values {
		fmt.Fprintf(&b, "  %s : %s = %s", v.Name, v.Type, ExprString(v.E))
		if v.Present != nil {
			fmt.Fprintf(&b, ", NULL unless %s", ExprString(v.Present))
		}
		b.WriteString("\n")
	}
	if q.Having != nil {
		fmt.Fprintf(&b, "  HAVING %s\n", ExprString(q.Having))
	}
	if q.Order != nil {
		var names []string
		for _, k := range q.Keys {
			names = append(names, k.Name)
		}
		for _, v := range q.Values {
			names = append(names, v.Name)
		}
		fmt.Fprintf(&b, "  %s\n", OrderString(names, q.Order, q.Limit))
	}
	for i, a := range q.Aggs {
		fmt.Fprintf(&b, "  #%d := %s\n", i, String(a))
	}
	return b.String()
}

// translate translates a top-level query into its view: keys, values and
// aggregate terms.
func translate(q *lang.Query, sql bool) (*Query, error) {
	t := &translator{parent: map[string]string{}, byName: map[string]Var{}, order: map[string]int{}, used: map[string]bool{}, count: map[string]int{}, sql: sql}
	countColumns(q, t.count)
	b, err := t.newBlock(q, nil)
	if err != nil {
		return nil, err
	}
	if len(q.Union) > 0 {
		// A union view: keyed by all its columns, valued by multiplicity.
		items, rows, err := b.rowsOf()
		if err != nil {
			return nil, err
		}
		cq := &Query{Name: q.Name, Named: q.Named, Distinct: !q.UnionAll, Columns: q.Columns(), Order: q.Order(), Limit: q.Limit, Bag: q.UnionAll}
		var keys, flags []Var
		for i, it := range q.Items {
			v := items[i].(*VarRef).V
			keys = append(keys, v)
			col := Column{Name: it.Name, Var: v}
			// A column that may be NULL keeps its presence flag (unionRows).
			if p, ok := t.present[v.Name].(*lang.Binary); ok {
				if f, ok := p.L.(*VarRef); ok {
					col.Present = f.V
					flags = append(flags, f.V)
				}
			}
			cq.Keys = append(cq.Keys, col)
		}
		keys = append(keys, flags...)
		// Presence is the bag multiplicity, for UNION as for UNION ALL.
		u := rows[0]
		if e, ok := u.(*Exists); ok {
			u = e.T
		}
		cq.Aggs = []Term{&AggSum{Group: keys, T: u.(*AggSum).T}}
		cq.Values = []Value{{Name: "COUNT", Type: lang.TInt, E: &AggRef{Index: 0, T: lang.TInt}}}
		return cq, nil
	}
	keys, values := q.View()
	grouped := q.Aggregated()
	windowed := q.Windowed() // a bag whose values are windows (window.go)
	// DISTINCT over a grouped query that lang left as such changes nothing:
	// its GROUP BY keys are all selected, so its rows are distinct already.
	cq := &Query{Name: q.Name, Named: q.Named, Distinct: q.Distinct && !grouped, Columns: q.Columns(), Order: q.Order(), Limit: q.Limit}
	cq.Scalar = grouped && len(q.GroupBy) == 0
	cq.Bag = !grouped && !cq.Distinct
	cq.Numbered = q.NumberedCopies()
	body := b.body()
	var keyVars, flags []Var
	keyOf := map[string]Var{} // printed key expression → its variable
	for i, k := range keys {
		e, lifts, err := b.scalar(k.Expr)
		if err != nil {
			return nil, err
		}
		body = append(body, lifts...)
		if t.sql && t.presence(e) != nil {
			// A key that may be NULL: its value or zero, and its presence
			// flag, a key of the view's maps (see Column.Present).
			var v, p Var
			v, p, body = b.nullColumn(fmt.Sprintf("key%d", i+1), e, body, append(append([]Var{}, keyVars...), flags...))
			keyVars, flags = append(keyVars, v), append(flags, p)
			keyOf[ExprString(e)] = v
			keyOf[sqlKey(k.Expr)] = v
			cq.Keys = append(cq.Keys, Column{Name: k.Name, Var: v, Present: p})
			continue
		}
		if t.nullable(e) {
			// A NULL key reads as its type's zero: one row with the zero
			// key (the oracle's COALESCE).
			e = t.orZero(e)
		}
		var v Var
		if r, ok := e.(*VarRef); ok && !hasVar(keyVars, r.V.Name) {
			v = r.V
		} else {
			v = t.newVar(fmt.Sprintf("key%d", i+1), k.Expr.Type())
			body = append(body, &Lift{V: v, T: &Val{E: e}})
		}
		keyVars = append(keyVars, v)
		keyOf[ExprString(e)] = v
		keyOf[sqlKey(k.Expr)] = v
		cq.Keys = append(cq.Keys, Column{Name: k.Name, Var: v})
	}
	keyVars = append(keyVars, flags...)
	// gvars group the aggregates: the view's keys, or a window's partition
	// while it is read out.
	gvars := keyVars
	group := func(factors ...Term) Term {
		return &AggSum{Group: gvars, T: prod(append(append([]Term{}, body...), factors...))}
	}
	cq.Aggs = append(cq.Aggs, group())
	aggIndex := map[string]int{String(cq.Aggs[0]): 0}
	addAgg := func(term Term) int {
		k := String(term)
		if i, ok := aggIndex[k]; ok {
			return i
		}
		aggIndex[k] = len(cq.Aggs)
		cq.Aggs = append(cq.Aggs, term)
		return len(cq.Aggs) - 1
	}
	// An aggregate skips the rows where its argument is NULL; in a grouped
	// view it is NULL where no row is left (nullable.go).
	nonNull := func(lifts []Term, p lang.Expr) []Term {
		if p == nil {
			return lifts
		}
		return append(append([]Term{}, lifts...), &Val{E: p})
	}
	nullIfNone := func(v lang.Expr, lifts []Term, p lang.Expr) lang.Expr {
		if t.sql && cq.Scalar {
			// Over no (non-NULL) input: NULL.
			n := &AggRef{Index: addAgg(group(lifts...)), T: lang.TInt}
			return &maybe{V: v, P: &lang.Binary{Op: "!=", L: n, R: IntLit(0), T: lang.TBool}}
		}
		if p == nil || cq.Scalar {
			return v
		}
		n := &AggRef{Index: addAgg(group(lifts...)), T: lang.TInt}
		return &maybe{V: v, P: &lang.Binary{Op: "!=", L: n, R: IntLit(0), T: lang.TBool}}
	}
	// rowNumber reads ROW_NUMBER x: 1 + the rows (of a grouped query: the
	// groups) before the row in the window's order, its ties included,
	// over levels (orderLevels).
	rowNumber := func(levels []tieLevel) lang.Expr {
		var r lang.Expr = IntLit(1)
		for _, l := range levels {
			gvars = l.vars
			var n *AggRef
			if grouped {
				rows := &AggSum{Group: keyVars, T: prod(body)}
				n = &AggRef{Index: addAgg(&AggSum{Group: gvars, T: &Exists{T: rows}}), T: lang.TInt}
			} else {
				n = &AggRef{Index: addAgg(group()), T: lang.TInt}
			}
			setAggKeys(cq, n.Index, l.pos)
			r = &lang.Binary{Op: "+", L: r, R: &RangeRef{Index: n.Index, Keys: l.pos, Order: l.order, Flag: l.flag, Desc: l.desc, Strict: true, T: lang.TInt}, T: lang.TInt}
		}
		return r
	}
	// rowNumberShown is what a ROW_NUMBER that a Qualify bounds shows: the
	// number of the first copy of the row that the filter keeps.
	rowNumberShown := map[string]lang.Expr{}
	// readout rewrites a select or HAVING expression: aggregates become
	// AggRefs, group-key expressions their key variables, and uncorrelated
	// scalar subqueries AggRefs of keyless aggregates.
	var readout func(e lang.Expr) (lang.Expr, error)
	var readoutAgg, rankByValue func(x *lang.Agg) (lang.Expr, error)
	aggMemo := map[string]lang.Expr{}
	readout = func(e lang.Expr) (lang.Expr, error) {
		if v, ok := keyOf[sqlKey(e)]; ok && !containsAgg(e) {
			return Ref(v), nil // a key as written (see rowsOf)
		}
		if n, ok := e.(*lang.IsNull); ok {
			if v, ok := keyOf[sqlKey(n.X)]; ok && !containsAgg(n.X) {
				// A group key IS [NOT] NULL: its presence flag.
				op := "="
				if n.Not {
					op = "!="
				}
				for _, k := range cq.Keys {
					if k.Var.Name == v.Name && k.Present.Name != "" {
						return &lang.Binary{Op: op, L: Ref(k.Present), R: IntLit(0), T: lang.TBool}, nil
					}
				}
				return &lang.Binary{Op: op, L: IntLit(1), R: IntLit(0), T: lang.TBool}, nil // never NULL
			}
		}
		if !containsAgg(e) && !containsSubquery(e) {
			se, _, err := b.scalar(e)
			if err != nil {
				return nil, err
			}
			if v, ok := keyOf[ExprString(se)]; ok {
				return Ref(v), nil
			}
			for _, v := range ExprVars(se, nil) {
				if !hasVar(keyVars, v.Name) {
					return nil, errorAt(e.Pos(), "expression is not a group key")
				}
			}
			return se, nil // an expression of the group keys
		}
		switch x := e.(type) {
		case *lang.Agg:
			if r, ok := rowNumberShown[lang.ExprKey(x)]; ok && x.Fn == "ROW_NUMBER" {
				return r, nil
			}
			// The same aggregate read twice (a SELECT item and a filter
			// on it) reads the same maps.
			memoKey := lang.ExprKey(x) + " by " + varNames(gvars)
			if r, ok := aggMemo[memoKey]; ok {
				return r, nil
			}
			r, err := readoutAgg(x)
			if err == nil {
				aggMemo[memoKey] = r
			}
			return r, err
		case *lang.Subquery, *lang.Exists, *lang.InQuery, *lang.Quantified:
			return b.readoutSubquery(e, body, keyVars, addAgg, cq)
		case *lang.ColRef:
			return nil, errorAt(x.P, "column %s.%s is not a group key", x.Alias, x.Name)
		}
		var err error
		out := mapChildren(e, func(c lang.Expr) lang.Expr {
			if err != nil {
				return c
			}
			var r lang.Expr
			r, err = readout(c)
			return r
		})
		return out, err
	}
	// rankByValue reads RANK, DENSE_RANK or ROW_NUMBER over the groups
	// ordered by an expression of their aggregates (window.go).
	rankByValue = func(x *lang.Agg) (lang.Expr, error) {
		val, err := readout(x.Over.Order)
		if err != nil {
			return nil, err
		}
		present := t.presence(val)
		val = t.orZero(val)
		// Each aggregate the value reads, lifted per group.
		var lifts []Term
		lifted := map[int]Var{}
		var bad lang.Expr
		lift := func(e lang.Expr) lang.Expr {
			return mapExpr(e, func(y lang.Expr) lang.Expr {
				switch r := y.(type) {
				case *AggRef:
					v, ok := lifted[r.Index]
					if !ok {
						v = t.newVar("agg", r.T)
						lifted[r.Index] = v
						lifts = append(lifts, &Lift{V: v, T: b.freshCopy(cq.Aggs[r.Index], keyVars)})
					}
					return Ref(v)
				case *ExtremeRef, *RangeRef:
					bad = y
				}
				return y
			})
		}
		var flag lang.Expr
		if present != nil {
			flag = &lang.Case{Whens: []*lang.When{{Cond: present, Then: IntLit(1)}}, Else: IntLit(0), T: lang.TInt}
		}
		valLifted, flagLifted := lift(val), lift(flag)
		if bad != nil {
			return nil, errorAt(x.Over.Order.Pos(), "a window ordered by MIN, MAX or a window is not supported yet")
		}
		plain := *x.Over
		plain.Order = nil
		px := *x
		px.Over = &plain
		pvars, pos, _, _, err := t.partition(&px, cq, keyVars, keyOf)
		if err != nil {
			return nil, err
		}
		ov := t.newVar("value", val.Type())
		factors := append([]Term{&Exists{T: &AggSum{Group: keyVars, T: prod(body)}}}, lifts...)
		factors = append(factors, &Lift{V: ov, T: &Val{E: valLifted}})
		group := append(slices.Clone(pvars), ov)
		keys := append(slices.Clone(pos), -1)
		exprs := make([]lang.Expr, len(keys))
		exprs[len(pos)] = val
		fi := -1
		if flag != nil {
			of := t.newVar("value_present", lang.TInt)
			factors = append(factors, &Lift{V: of, T: &Val{E: flagLifted}})
			group, keys = append(group, of), append(keys, -1)
			exprs = append(exprs, flag)
			fi = len(keys) - 1
		}
		var term Term = &AggSum{Group: group, T: prod(factors)}
		if x.Fn == "DENSE_RANK" {
			term = &AggSum{Group: group, T: &Exists{T: term}}
		}
		i := addAgg(term)
		if cq.AggKeys == nil {
			cq.AggKeys = map[int][]int{}
		}
		cq.AggKeys[i] = keys
		var r lang.Expr = &lang.Binary{Op: "+", L: IntLit(1), R: &RangeRef{Index: i, Keys: keys, Exprs: exprs, Order: len(pos), Flag: fi, Desc: x.Over.Desc, Strict: true, T: lang.TInt}, T: lang.TInt}
		if x.Fn != "ROW_NUMBER" {
			return r, nil
		}
		// ROW_NUMBER: then the peers before the group in its ties' order,
		// one level per tie key, grouped by the value and the ties before.
		ties, err := thenKeys(x, cq, keyOf, pvars)
		if err != nil {
			return nil, err
		}
		for _, k := range ties {
			group, keys, exprs = append(slices.Clone(group), k.v), append(slices.Clone(keys), varIndex(keyVars, k.v)), append(slices.Clone(exprs), nil)
			ord, fl := len(keys)-1, -1
			if k.flag.Name != "" {
				group, keys, exprs = append(group, k.flag), append(keys, varIndex(keyVars, k.flag)), append(exprs, nil)
				fl = len(keys) - 1
			}
			i := addAgg(&AggSum{Group: group, T: prod(factors)})
			cq.AggKeys[i] = keys
			r = &lang.Binary{Op: "+", L: r, R: &RangeRef{Index: i, Keys: keys, Exprs: exprs, Order: ord, Flag: fl, Strict: true, T: lang.TInt}, T: lang.TInt}
		}
		return r, nil
	}
	// readoutAgg reads out aggregate x (readout's case).
	readoutAgg = func(x *lang.Agg) (lang.Expr, error) {
		{
			if o := x.Over; o != nil && grouped && o.Order != nil && containsAgg(o.Order) {
				return rankByValue(x)
			}
			if x.Over != nil {
				// A window: the aggregate grouped by its partition, read
				// by the view's keys at the partition's positions.
				pvars, pos, order, flag, err := t.partition(x, cq, keyVars, keyOf)
				if err != nil {
					return nil, err
				}
				// The levels of its order: the first key's, then the
				// others' (and ROW_NUMBER's ties), each a range read.
				then, err := thenKeys(x, cq, keyOf, pvars)
				if err != nil {
					return nil, err
				}
				var levels []tieLevel
				if order >= 0 {
					levels = append(levels, tieLevel{vars: pvars, pos: pos, order: order, flag: flag, desc: x.Over.Desc})
				}
				levels = append(levels, orderLevels(pvars, then, keyVars)...)
				finest, finestPos := pvars, pos
				if len(levels) > 0 {
					finest, finestPos = levels[len(levels)-1].vars, levels[len(levels)-1].pos
				}
				saved, first := gvars, len(cq.Aggs)
				gvars = finest
				// groups counts the partition's groups (of a grouped query)
				// where the factors hold.
				groups := func(factors ...Term) lang.Expr {
					rows := &AggSum{Group: keyVars, T: prod(append(append([]Term{}, body...), factors...))}
					return &AggRef{Index: addAgg(&AggSum{Group: gvars, T: &Exists{T: rows}}), T: lang.TInt}
				}
				if x.Fn == "ROW_NUMBER" {
					r := rowNumber(levels)
					gvars = saved
					return r, nil
				}
				var r lang.Expr
				switch {
				case len(levels) == 0 && (x.Fn == "RANK" || x.Fn == "DENSE_RANK"):
					// Ordered by a PARTITION BY expression: all peers.
					r = IntLit(1)
				case x.Fn == "RANK" && grouped:
					// 1 + the groups before the row's value.
					r = groups()
				case x.Fn == "RANK":
					// 1 + the rows before the row's value.
					r = &AggRef{Index: addAgg(group()), T: lang.TInt}
				case x.Fn == "DENSE_RANK":
					// 1 + the distinct values before the row's.
					r = &AggRef{Index: addAgg(&AggSum{Group: gvars, T: &Exists{T: group()}}), T: lang.TInt}
				case grouped && x.Fn == "COUNT" && x.Arg == nil && cq.Scalar:
					r = IntLit(1) // one group, over empty input too
				case grouped && x.Fn == "COUNT" && x.Arg == nil:
					// Over groups: the number of the partition's groups.
					r = groups()
				case grouped:
					// SUM or AVG over the groups' SUM or COUNT (lang's
					// checkGroupWindows): the inner aggregate over the
					// partition's rows, for AVG divided by its groups.
					inner := x.Arg.(*lang.Agg)
					r, err = readout(inner)
					if err == nil && x.Fn == "AVG" {
						// AVG skips the groups whose value is NULL: a SUM
						// of no non-NULL argument.
						var present []Term
						if inner.Fn == "SUM" {
							a, lifts, err2 := b.scalar(inner.Arg)
							if err2 != nil {
								return nil, err2
							}
							present = nonNull(lifts, t.presence(a))
						}
						var n lang.Expr = IntLit(1) // a scalar query's one group, whose COUNT is never NULL
						if !cq.Scalar || inner.Fn != "COUNT" {
							n = groups(present...)
						}
						r = &lang.Binary{Op: "/", L: r, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), n}, T: lang.TInt}, T: lang.TFloat}
					}
				default:
					plain := *x
					plain.Over = nil
					r, err = readout(&plain)
				}
				gvars = saved
				for i := first; i < len(cq.Aggs); i++ {
					setAggKeys(cq, i, finestPos)
				}
				if err != nil || len(levels) == 0 {
					return r, err
				}
				// A running aggregate: each of the window's aggregates is
				// summed over the entries up to the row in the window's
				// order, level by level: the entries before it on a level's
				// key, and on the last level's its peers too (but for RANK
				// and DENSE_RANK). An aggregate grouped by the finest level
				// is regrouped by each coarser one.
				strict := x.Fn == "RANK" || x.Fn == "DENSE_RANK"
				r = mapExpr(r, func(e lang.Expr) lang.Expr {
					a, ok := e.(*AggRef)
					if !ok {
						return e
					}
					var sum lang.Expr
					for li, l := range levels {
						index := a.Index
						if li < len(levels)-1 {
							index = addAgg(&AggSum{Group: l.vars, T: cq.Aggs[a.Index].(*AggSum).T})
							setAggKeys(cq, index, l.pos)
						}
						rr := &RangeRef{Index: index, Keys: l.pos, Order: l.order, Flag: l.flag, Desc: l.desc, Strict: strict || li < len(levels)-1, T: a.T}
						if sum == nil {
							sum = rr
						} else {
							sum = &lang.Binary{Op: "+", L: sum, R: rr, T: a.T}
						}
					}
					return sum
				})
				if strict {
					r = &lang.Binary{Op: "+", L: IntLit(1), R: r, T: lang.TInt}
				}
				return r, nil
			}
			if x.Distinct {
				return b.distinctReadout(x, body, keyVars, addAgg) // distinctagg.go
			}
			switch x.Fn {
			case "COUNT":
				if x.Arg != nil && b.mayBeNull(x.Arg) {
					// COUNT(e) counts the rows where e is not NULL.
					a, lifts, err := b.scalar(x.Arg)
					if err != nil {
						return nil, err
					}
					if p := t.presence(a); p != nil {
						return &AggRef{Index: addAgg(group(nonNull(lifts, p)...)), T: lang.TInt}, nil
					}
				}
				return &AggRef{Index: addAgg(group()), T: lang.TInt}, nil // #0 but in a window
			case "SUM", "AVG":
				r, lifts, p, err := b.ring(x.Arg)
				if err != nil {
					return nil, err
				}
				lifts = nonNull(lifts, p)
				sum := &AggRef{Index: addAgg(group(append(lifts, r)...)), T: TypeOf(r)}
				if x.Fn == "SUM" {
					sum.T = x.T
					return nullIfNone(sum, lifts, p), nil
				}
				var cnt lang.Expr = &AggRef{Index: addAgg(group()), T: lang.TInt} // #0 but in a window
				if p != nil {
					cnt = &AggRef{Index: addAgg(group(lifts...)), T: lang.TInt}
				}
				// AVG over no rows is 0 in the dialect (it only arises for scalar views).
				avg := &lang.Binary{Op: "/", L: sum, R: &lang.Call{Name: "LISTMAX", Args: []lang.Expr{IntLit(1), cnt}, T: lang.TInt}, T: lang.TFloat}
				return nullIfNone(avg, lifts, p), nil
			case "STDDEV", "STDDEV_SAMP", "STDDEV_POP", "VARIANCE", "VAR_SAMP", "VAR_POP":
				return b.statReadout(x, group, addAgg, t.sql)
			case "MIN", "MAX", "PERCENTILE_CONT", "PERCENTILE_DISC", "MODE":
				// The multiplicity of each (group, value): the view reads the
				// least or greatest value with a non-zero count, or the
				// ordered-set aggregate of the counted values.
				a, lifts, err := b.scalar(x.Arg)
				if err != nil {
					return nil, err
				}
				p := t.presence(a)
				lifts = nonNull(lifts, p)
				arg := t.newVar("arg", x.Arg.Type())
				inner := append(append(append([]Term{}, body...), lifts...), &Lift{V: arg, T: &Val{E: t.valueOf(a, true)}})
				term := &AggSum{Group: append(append([]Var{}, gvars...), arg), T: prod(inner)}
				return nullIfNone(&ExtremeRef{Index: addAgg(term), Max: x.Fn == "MAX", Hol: holisticOf(x), T: x.T}, lifts, p), nil
			}
			return nil, errorAt(x.P, "%s is not supported yet", x.Fn)
		}
	}
	if grouped || windowed {
		qualify := q.Qualify
		var kept lang.Expr // the copies of a row that a Qualify on ROW_NUMBER keeps
		if windowed && qualify != nil {
			var err error
			if qualify, kept, err = keptCopies(qualify, readout, rowNumberShown); err != nil {
				return nil, err
			}
		}
		for _, v := range values {
			e, err := readout(v.Expr)
			if err != nil {
				return nil, err
			}
			val := Value{Name: v.Name, Type: v.Expr.Type(), E: t.orZero(e)}
			if t.sql {
				val.Present = t.presence(e)
			}
			cq.Values = append(cq.Values, val)
		}
		if q.Having != nil {
			h, err := readout(q.Having)
			if err != nil {
				return nil, err
			}
			cq.Having = t.truth(h)
		}
		if kept != nil {
			cq.Values[0].E = kept
			var h lang.Expr = &lang.Binary{Op: ">", L: kept, R: IntLit(0), T: lang.TBool}
			if qualify != nil {
				r, err := readout(qualify)
				if err != nil {
					return nil, err
				}
				h = &lang.Binary{Op: "AND", L: t.truth(r), R: h, T: lang.TBool}
			}
			cq.Having = h
		} else if qualify != nil {
			r, err := readout(qualify)
			if err != nil {
				return nil, err
			}
			cq.Having = t.truth(r)
		}
	} else {
		for _, v := range values {
			cq.Values = append(cq.Values, Value{Name: v.Name, Type: lang.TInt, E: &AggRef{Index: 0, T: lang.TInt}})
		}
	}
	pruneAggs(cq)
	factorIndependent(cq) // factor.go
	return cq, nil
}

// OrderString prints a view's order and limit, given the names of its row
// cells (keys, then values): "ORDER BY TOTAL DESC, A LIMIT 3 OFFSET 1".
func OrderString(names []string, order []runtime.SortKey, limit *lang.Limit) string {
	var b strings.Builder
	b.WriteString("ORDER BY ")
	for i, k := range order {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(names[k.Pos])
		if k.Desc {
			b.WriteString(" DESC")
		}
	}
	if limit != nil {
		fmt.Fprintf(&b, " LIMIT %d", limit.Count)
		if limit.Offset != 0 {
			fmt.Fprintf(&b, " OFFSET %d", limit.Offset)
		}
	}
	return b.String()
}
