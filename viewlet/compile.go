package viewlet

import (
	"fmt"
	"maps"
	"sort"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Unbounded is the depth that materializes every delta (full higher-order IVM).
const Unbounded = -1

// Options control compilation.
type Options struct {
	// Depth bounds the viewlet recursion: 0 re-evaluates each view from the
	// base relations on every event, 1 is classic first-order IVM (deltas
	// read the base relations), Unbounded (or any negative value)
	// materializes every delta.
	Depth int
}

// compileProgram turns the translated queries of a file into a Program (see Compile).
func compileProgram(f *lang.File, queries []*calculus.Query, opts Options) (*Program, error) {
	c := &compiler{
		prog:    &Program{Source: f.Path, Dialect: f.Dialect, Relations: f.Relations},
		byDef:   map[string]*Map{},
		rels:    map[string]*lang.Relation{},
		trig:    map[string]*Trigger{},
		names:   map[string]bool{},
		file:    f,
		guarded: map[*Map]bool{},
	}
	for _, r := range f.Relations {
		c.rels[r.Name] = r
	}
	depth := opts.Depth
	if depth < 0 {
		depth = Unbounded
	}
	for qi, q := range queries {
		c.query = qi
		v := &View{Name: q.Name, Named: q.Named, Keys: q.Keys, Values: q.Values, Columns: q.Columns, Having: q.Having, Distinct: q.Distinct, Scalar: q.Scalar, AggKeys: q.AggKeys, Order: q.Order, Limit: q.Limit, Bag: q.Bag}
		for i, agg := range q.Aggs {
			if i == 0 && q.Scalar && !readsAgg(q, 0) {
				// A scalar view always has its one row: no row count needed.
				v.Aggs = append(v.Aggs, nil)
				continue
			}
			name := q.Name + "_" + aggName(q, i)
			a := agg.(*calculus.AggSum)
			guarded := false
			if i > 0 {
				count, _ := q.Aggs[0].(*calculus.AggSum)
				if g := guardGroups(count, a, q.AggKeys[i]); g != a {
					a = g
					guarded = true
				}
			}
			m := c.mapFor(name, a.Group, a, depth)
			if guarded {
				c.guarded[m] = true
			}
			v.Aggs = append(v.Aggs, m)
		}
		c.prog.Views = append(c.prog.Views, v)
	}
	for len(c.todo) > 0 {
		w := c.todo[0]
		c.todo = c.todo[1:]
		c.query = w.query
		if err := c.compileMap(w.m, w.depth); err != nil {
			return nil, err
		}
		if c.err != nil {
			return nil, c.err
		}
	}
	c.query = -1
	if err := c.setInitialValues(); err != nil {
		return nil, err
	}
	for _, r := range f.Relations {
		for _, ins := range []bool{true, false} {
			if t := c.trig[triggerKey(r.Name, ins)]; t != nil {
				if err := orderStatements(t); err != nil {
					return nil, err
				}
				c.prog.Triggers = append(c.prog.Triggers, t)
			}
		}
	}
	pruneUnread(c.prog)
	return c.prog, nil
}

// aggName names a view's aggregate map after the value column that reads it
// directly, COUNT for the row count, else AGG<i>.
func aggName(q *calculus.Query, i int) string {
	if i == 0 {
		return "COUNT"
	}
	for _, v := range q.Values {
		if r, ok := v.E.(*calculus.AggRef); ok && r.Index == i {
			return v.Name
		}
	}
	return fmt.Sprintf("AGG%d", i)
}

// readsAgg reports whether a view's values or HAVING read aggregate i.
func readsAgg(q *calculus.Query, i int) bool {
	found := false
	visit := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			if r, ok := x.(*calculus.AggRef); ok && r.Index == i {
				found = true
			}
		})
	}
	for _, v := range q.Values {
		visit(v.E)
	}
	if q.Having != nil {
		visit(q.Having)
	}
	return found
}

type work struct {
	m     *Map
	depth int
	query int // the query whose compilation made the map
}

type compiler struct {
	prog  *Program
	byDef map[string]*Map // canonical definition → map
	rels  map[string]*lang.Relation
	trig  map[string]*Trigger
	todo  []work
	names map[string]bool
	parts int // lifted independent parts, for fresh names
	file  *lang.File
	query int   // index of the query being compiled, for positioned errors
	err   error // the first map found keyed by a parameter (checkSafe)
	// guarded: view aggregates restricted to the view's groups (guardGroups)
	guarded map[*Map]bool
}

func triggerKey(rel string, insert bool) string {
	if insert {
		return "+" + rel
	}
	return "-" + rel
}

// mapFor returns the map defined by def, creating it (to be compiled at the
// given depth) unless an equal definition up to variable renaming exists.
func (c *compiler) mapFor(name string, keys []calculus.Var, def *calculus.AggSum, depth int) *Map {
	def = &calculus.AggSum{Group: def.Group, T: widenGroups(calculus.Flatten(def.T), def.Group)}
	canon := canonical(def)
	if m, ok := c.byDef[canon]; ok {
		return m
	}
	if c.names[name] {
		n := 2
		for c.names[fmt.Sprintf("%s%d", name, n)] {
			n++
		}
		name = fmt.Sprintf("%s%d", name, n)
	}
	c.names[name] = true
	m := &Map{Name: name, Keys: keys, Type: calculus.TypeOf(def.T), Def: def}
	c.byDef[canon] = m
	c.prog.Maps = append(c.prog.Maps, m)
	c.todo = append(c.todo, work{m, depth, c.query})
	c.checkSafe(m)
	return m
}

// baseMap returns the map holding relation r's tuples with their multiplicities.
func (c *compiler) baseMap(r *lang.Relation) *Map {
	vars := calculus.EventVars(r)
	return c.mapFor(r.Name, vars, &calculus.AggSum{Group: vars, T: &calculus.Rel{Name: r.Name, Vars: vars}}, Unbounded)
}

// isBaseMap reports whether def defines a base relation's map (baseMap).
func (c *compiler) isBaseMap(def *calculus.AggSum) bool {
	x, ok := def.T.(*calculus.Rel)
	if !ok || c.rels[x.Name] == nil {
		return false
	}
	vars := calculus.EventVars(c.rels[x.Name])
	return canonical(def) == canonical(&calculus.AggSum{Group: vars, T: &calculus.Rel{Name: x.Name, Vars: vars}})
}

func (c *compiler) trigger(rel string, insert bool) *Trigger {
	k := triggerKey(rel, insert)
	t := c.trig[k]
	if t == nil {
		r := c.rels[rel]
		args := calculus.EventVars(r)
		t = &Trigger{Event: calculus.Event{Rel: rel, Args: args, Insert: insert}}
		c.trig[k] = t
	}
	return t
}

// compileMap emits the statements that maintain m on every event of every
// relation its definition reads.
func (c *compiler) compileMap(m *Map, depth int) error {
	def := m.Def.(*calculus.AggSum)
	if depth == 0 && c.isBaseMap(def) {
		// The map is a base relation's own map (a view grouped by every
		// column of one relation), which the depth-0 statements read: it
		// is maintained by its relation's events, not re-evaluated from
		// itself.
		depth = Unbounded
	}
	if depth != 0 && hasNested(def.T) {
		return c.compileNested(m, depth)
	}
	if depth == 0 && !isBaseDef(def) {
		// Re-evaluate from the base relations' maps after each event. A map
		// defined as a relation's tuples is that relation's base map (a
		// view grouped by all of a relation's columns shares it): it is
		// kept incrementally, or it would be re-evaluated from itself.
		full := def
		if c.guarded[m] {
			full = c.enumerableAtDepth0(def, m.Name)
		}
		for _, rel := range calculus.Relations(def) {
			for _, ins := range []bool{true, false} {
				t := c.trigger(rel, ins)
				d := avoidNames(full, t.Event.Args)
				body := c.toBaseRefs(d.T)
				var ms []calculus.Monomial
				for _, mono := range calculus.Expand(body) {
					ms = append(ms, calculus.Monomial{Coef: mono.Coef, Factors: orderFactors(mono.Factors, nil)})
				}
				t.Stmts = append(t.Stmts, &Stmt{Map: m, Keys: d.Group, Replace: true, RHS: ms})
			}
		}
		return nil
	}
	for _, rel := range calculus.Relations(def) {
		if c.emptyWhileLoading(def, rel) {
			continue
		}
		for _, ins := range []bool{true, false} {
			if err := c.incremental(m, def, c.trigger(rel, ins), depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// isBaseDef reports whether def is a base map's definition, up to the
// order of its keys: AggSum over all the distinct variables of one relation
// atom. (Kept incrementally, such a map's statement is one += 1.)
func isBaseDef(def *calculus.AggSum) bool {
	r, ok := def.T.(*calculus.Rel)
	if !ok || len(r.Vars) != len(def.Group) {
		return false
	}
	for i, v := range r.Vars {
		if !hasVar(def.Group, v.Name) || hasVar(r.Vars[:i], v.Name) {
			return false
		}
	}
	return true
}

// emptyWhileLoading reports whether rel is a static table and every
// monomial of def joins a stream at its top level. Tables are loaded before
// any stream event, so such a map is empty while rel changes: its statements
// on rel's events would add nothing, and are left out. The maps the streams'
// statements read over tables alone keep rel's statements.
func (c *compiler) emptyWhileLoading(def *calculus.AggSum, rel string) bool {
	if r := c.rels[rel]; r == nil || r.Stream {
		return false
	}
	for _, mono := range calculus.Expand(def.T) {
		joinsStream := false
		for _, f := range mono.Factors {
			if x, ok := f.(*calculus.Rel); ok && c.rels[x.Name] != nil && c.rels[x.Name].Stream {
				joinsStream = true
			}
		}
		if !joinsStream {
			return false
		}
	}
	return true
}

// incremental emits m[keys] += Δdef for trigger t.
func (c *compiler) incremental(m *Map, def *calculus.AggSum, t *Trigger, depth int) error {
	args := t.Event.Args
	// Rename the definition's variables that clash with the trigger's arguments.
	d := avoidNames(def, args)
	delta := calculus.Delta(d.T, t.Event)
	stmts := map[string]*Stmt{}
	var order []string
	for _, mono := range calculus.Expand(delta) {
		sm, keySub, ok := calculus.SimplifyMonomial(mono, args, d.Group)
		if !ok {
			continue
		}
		keys := make([]calculus.Var, len(d.Group))
		for i, k := range d.Group {
			if w, ok := keySub[k.Name]; ok {
				k = w
			}
			keys[i] = k
		}
		factors, err := c.materialize(sm.Factors, args, keys, m.Name, depth, true)
		if err != nil {
			return err
		}
		sk := varList(keys)
		s := stmts[sk]
		if s == nil {
			s = &Stmt{Map: m, Keys: keys}
			stmts[sk] = s
			order = append(order, sk)
		}
		s.RHS = append(s.RHS, calculus.Monomial{Coef: sm.Coef, Factors: factors})
	}
	for _, k := range order {
		s := stmts[k]
		s.RHS = calculus.Combine(s.RHS)
		if len(s.RHS) > 0 {
			t.Stmts = append(t.Stmts, s)
		}
	}
	return nil
}

// compileNested maintains a map whose definition nests aggregates (scalar
// subqueries, EXISTS, IN, derived tables). Each nested aggregate is
// materialized as maps keyed by its correlation variables. Events of
// relations that occur only outside the nested aggregates update m
// incrementally (the nested maps do not change); events of relations inside
// them re-evaluate m from maps (m[keys] := …) after those maps are updated,
// since the delta of a lifted aggregate, Lift(x, t+Δt) − Lift(x, t), is
// not simpler than the term itself.
func (c *compiler) compileNested(m *Map, depth int) error {
	def := m.Def.(*calculus.AggSum)
	nestedRels := map[string]bool{}
	var terms []calculus.Term
	for _, mono := range calculus.Expand(def.T) {
		fs := make([]calculus.Term, len(mono.Factors))
		for i, f := range mono.Factors {
			if isRel(f) || !calculus.HasRel(f) {
				fs[i] = f
				continue
			}
			for _, r := range calculus.Relations(f) {
				nestedRels[r] = true
			}
			h, err := c.hoist(f, correlation(f, mono.Factors, i, def.Group), m.Name, depth)
			if err != nil {
				return err
			}
			fs[i] = h
		}
		terms = append(terms, calculus.Monomial{Coef: mono.Coef, Factors: fs}.Term(m.Type))
	}
	hoisted := &calculus.AggSum{Group: def.Group, T: sumOf(terms)}
	for _, rel := range calculus.Relations(def) {
		if c.emptyWhileLoading(def, rel) {
			continue
		}
		for _, ins := range []bool{true, false} {
			t := c.trigger(rel, ins)
			if !nestedRels[rel] {
				if err := c.incremental(m, hoisted, t, depth); err != nil {
					return err
				}
				continue
			}
			d := avoidNames(hoisted, t.Event.Args)
			// Re-evaluate only the entries the event can change: a key that
			// every atom of the relation holds at the same column is the
			// event's value of that column.
			sub := map[string]lang.Expr{}
			ad := avoidNames(def, t.Event.Args)
			for k, arg := range heldVars(ad, rel, t.Event.Args, ad.Group) {
				sub[k] = calculus.Ref(arg)
			}
			keys := make([]calculus.Var, len(d.Group))
			for i, k := range d.Group {
				keys[i] = k
				if r, ok := sub[k.Name]; ok {
					keys[i] = r.(*calculus.VarRef).V
				}
			}
			// If a summed-over variable is fixed by the event too (Q13's
			// customer key, Q17's part key), only the terms with the
			// event's value of it change: add their new value and subtract
			// their old one, instead of re-evaluating whole entries.
			// Candidates are the variables of the outer atoms only: a
			// variable summed over inside a nested aggregate is not one.
			var outer []calculus.Var
			for _, mono := range calculus.Expand(d.T) {
				for _, f := range mono.Factors {
					var vs []calculus.Var
					switch x := f.(type) {
					case *calculus.Rel:
						vs = x.Vars
					case *calculus.MapRef:
						vs = x.Keys
					case *calculus.Exists:
						if r, ok := x.T.(*calculus.MapRef); ok {
							vs = r.Keys
						}
					case *calculus.Lift:
						if r, ok := x.T.(*calculus.MapRef); ok {
							vs = r.Keys
						}
					}
					for _, v := range vs {
						if !hasVar(d.Group, v.Name) && !hasVar(outer, v.Name) {
							outer = append(outer, v)
						}
					}
				}
			}
			slice := heldVars(ad, rel, t.Event.Args, outer)
			delta := len(slice) > 0
			for v, arg := range slice {
				sub[v] = calculus.Ref(arg)
			}
			var rhs []calculus.Monomial
			for _, mono := range calculus.Expand(calculus.SubstTerm(d.T, sub)) {
				// The event binds its arguments: an equality with one binds
				// the other side (an outer join's ON condition, kept as a
				// condition by the calculus), a lookup instead of a loop.
				if sm, keySub, ok := calculus.SimplifyMonomial(mono, t.Event.Args, keys); !ok {
					continue
				} else if len(keySub) == 0 {
					mono = sm
				}
				fs, err := c.materialize(mono.Factors, t.Event.Args, keys, m.Name, depth, true)
				if err != nil {
					return err
				}
				rhs = append(rhs, calculus.Monomial{Coef: mono.Coef, Factors: fs})
			}
			if !delta {
				t.Stmts = append(t.Stmts, &Stmt{Map: m, Keys: keys, Replace: true, RHS: rhs})
				continue
			}
			old := make([]calculus.Monomial, len(rhs))
			for i, mono := range rhs {
				old[i] = calculus.Monomial{Coef: -mono.Coef, Factors: mono.Factors}
			}
			t.Stmts = append(t.Stmts,
				&Stmt{Map: m, Keys: keys, RHS: old},
				&Stmt{Map: m, Keys: keys, After: true, RHS: rhs})
		}
	}
	return nil
}

// heldVars returns the variables among cands that every atom of relation
// rel in def holds at one and the same column, each with the trigger
// argument of that column: an event of rel changes only the entries with
// those values (called with def's keys, the entries the event can affect).
// An atom holds v at a column whose variable is v, or is equated to v by a
// condition of an enclosing product (Q18's IN subquery, grouped by
// l_orderkey2 and compared with o_orderkey).
func heldVars(def *calculus.AggSum, rel string, args []calculus.Var, cands []calculus.Var) map[string]calculus.Var {
	out := map[string]calculus.Var{}
	for _, k := range cands {
		pos, ok := -1, true
		var visit func(t calculus.Term, same map[string]bool)
		visit = func(t calculus.Term, same map[string]bool) {
			if !ok {
				return
			}
			switch x := t.(type) {
			case *calculus.Rel:
				if x.Name != rel {
					return
				}
				j := -1
				for i, v := range x.Vars {
					if same[v.Name] {
						j = i
						break
					}
				}
				if j < 0 || (pos >= 0 && pos != j) {
					ok = false
					return
				}
				pos = j
			case *calculus.Prod:
				inner := same
				for changed := true; changed; {
					changed = false
					for _, f := range x.Factors {
						a, b, isEq := varEquality(f)
						if !isEq || inner[a] == inner[b] {
							continue
						}
						if len(inner) == len(same) {
							inner = maps.Clone(same)
						}
						inner[a], inner[b] = true, true
						changed = true
					}
				}
				for _, f := range x.Factors {
					visit(f, inner)
				}
			case *calculus.Sum:
				for _, u := range x.Terms {
					visit(u, same)
				}
			case *calculus.Neg:
				visit(x.T, same)
			case *calculus.AggSum:
				// Inside, only k itself and the group's outputs keep their
				// meaning; other names may be summed over.
				inner := map[string]bool{k.Name: true}
				for _, g := range x.Group {
					if same[g.Name] {
						inner[g.Name] = true
					}
				}
				visit(x.T, inner)
			case *calculus.Lift:
				visit(x.T, same)
			case *calculus.Exists:
				visit(x.T, same)
			case *calculus.Extreme:
				visit(x.T, same)
			}
		}
		visit(def.T, map[string]bool{k.Name: true})
		if ok && pos >= 0 && args[pos].Type == k.Type {
			out[k.Name] = args[pos]
		}
	}
	return out
}

// varEquality reports whether f is a condition a = b between two variables.
func varEquality(f calculus.Term) (a, b string, ok bool) {
	v, isVal := f.(*calculus.Val)
	if !isVal {
		return "", "", false
	}
	e, isBin := v.E.(*lang.Binary)
	if !isBin || e.Op != "=" {
		return "", "", false
	}
	l, lok := e.L.(*calculus.VarRef)
	r, rok := e.R.(*calculus.VarRef)
	if !lok || !rok {
		return "", "", false
	}
	return l.V.Name, r.V.Name, true
}

// inputsInAtoms reports whether every input variable is a column of a
// relation atom in every monomial of t (so that it can be a map key).
func inputsInAtoms(t calculus.Term, inputs []calculus.Var) bool {
	for _, m := range calculus.Expand(t) {
		inAtom := map[string]bool{}
		for _, f := range m.Factors {
			if r, ok := f.(*calculus.Rel); ok {
				for _, v := range r.Vars {
					inAtom[v.Name] = true
				}
			}
		}
		for _, v := range inputs {
			if !inAtom[v.Name] {
				return false
			}
		}
	}
	return true
}

func sumOf(ts []calculus.Term) calculus.Term {
	if len(ts) == 1 {
		return ts[0]
	}
	return &calculus.Sum{Terms: ts}
}

// correlation returns the variables of nested factor fs[i] that the rest of
// the monomial or the map's keys also use: its inputs.
func correlation(f calculus.Term, fs []calculus.Term, i int, group []calculus.Var) []calculus.Var {
	others := map[string]bool{}
	for j, g := range fs {
		if j != i {
			for _, v := range calculus.Vars(g) {
				others[v.Name] = true
			}
		}
	}
	for _, v := range group {
		others[v.Name] = true
	}
	own := map[string]bool{}
	for _, v := range binds(f) {
		own[v.Name] = true
	}
	var out []calculus.Var
	for _, v := range calculus.Vars(f) {
		if others[v.Name] && !own[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// hoist replaces the aggregate nested in a Lift, Exists or AggSum factor by
// reads of maps, keyed by its group variables and inputs.
func (c *compiler) hoist(f calculus.Term, inputs []calculus.Var, parent string, depth int) (calculus.Term, error) {
	switch x := f.(type) {
	case *calculus.Lift:
		if ex, ok := x.T.(*calculus.Extreme); ok {
			t, err := c.nestedTerm(ex.T, inputs, parent, depth)
			return &calculus.Lift{V: x.V, T: &calculus.Extreme{Max: ex.Max, Arg: ex.Arg, T: t, Hol: ex.Hol}}, err
		}
		t, err := c.nestedTerm(x.T, inputs, parent, depth)
		return &calculus.Lift{V: x.V, T: t}, err
	case *calculus.Exists:
		t, err := c.nestedTerm(x.T, inputs, parent, depth)
		return &calculus.Exists{T: t}, err
	case *calculus.AggSum:
		return c.nestedTerm(x, inputs, parent, depth)
	}
	return nil, fmt.Errorf("viewlet: cannot materialize nested term %s", calculus.String(f))
}

func (c *compiler) nestedTerm(t calculus.Term, inputs []calculus.Var, parent string, depth int) (calculus.Term, error) {
	a, ok := t.(*calculus.AggSum)
	if !ok {
		a = &calculus.AggSum{T: t}
	}
	var terms []calculus.Term
	var ms []calculus.Monomial
	for _, mono := range calculus.Expand(a.T) {
		// Equalities with inputs become lookups; group variables stay.
		if sm, keySub, ok := calculus.SimplifyMonomial(mono, inputs, a.Group); ok && len(keySub) == 0 {
			mono = sm
		}
		// Nested aggregates are always materialized as maps, whatever the
		// depth: -depth bounds the recursion of delta maps only.
		fs, err := c.materialize(mono.Factors, inputs, a.Group, parent, Unbounded, false)
		if err != nil {
			return nil, err
		}
		ms = append(ms, calculus.Monomial{Coef: mono.Coef, Factors: fs})
		terms = append(terms, calculus.Monomial{Coef: mono.Coef, Factors: fs}.Term(calculus.TypeOf(a.T)))
	}
	// A sum (a UNION) that binds group variables is kept as one map keyed by
	// the group and the inputs, so that it can be read by one loop.
	if len(ms) > 1 && len(a.Group) > 0 && inputsInAtoms(a.T, inputs) {
		keys := append(append([]calculus.Var{}, a.Group...), inputs...)
		m := c.mapFor(parent+"_u", keys, &calculus.AggSum{Group: keys, T: a.T}, Unbounded)
		return &calculus.MapRef{Name: m.Name, Keys: keys, Type: m.Type}, nil
	}
	// A single map read keyed by exactly the group and inputs needs no AggSum.
	if len(ms) == 1 && ms[0].Coef == 1 && len(ms[0].Factors) == 1 {
		if r, ok := ms[0].Factors[0].(*calculus.MapRef); ok {
			allowed := map[string]bool{}
			for _, v := range a.Group {
				allowed[v.Name] = true
			}
			for _, v := range inputs {
				allowed[v.Name] = true
			}
			if allBoundVars(r.Keys, allowed) {
				return r, nil
			}
		}
	}
	return &calculus.AggSum{Group: a.Group, T: sumOf(terms)}, nil
}

// toBaseRefs replaces every relation atom by a read of the relation's base map.
func (c *compiler) toBaseRefs(t calculus.Term) calculus.Term {
	return calculus.ReplaceRels(t, func(x *calculus.Rel) calculus.Term {
		bm := c.baseMap(c.rels[x.Name])
		return &calculus.MapRef{Name: bm.Name, Keys: x.Vars, Type: lang.TInt}
	})
}

// avoidNames renames the variables of def that have the name of an argument.
func avoidNames(def *calculus.AggSum, args []calculus.Var) *calculus.AggSum {
	taken := map[string]bool{}
	for _, v := range calculus.Vars(def) {
		taken[v.Name] = true
	}
	sub := map[string]lang.Expr{}
	for _, a := range args {
		if taken[a.Name] {
			n := a.Name
			for taken[n] {
				n += "_"
			}
			taken[n] = true
			sub[a.Name] = calculus.Ref(calculus.Var{Name: n, Type: a.Type})
		}
	}
	if len(sub) == 0 {
		return def
	}
	return calculus.SubstTerm(def, sub).(*calculus.AggSum)
}

// materialize replaces the relation atoms of a delta monomial by map reads.
//
// The monomial's relation atoms are grouped into components connected by
// variables that the trigger does not bind. A condition or value over
// unbound variables only joins its component (it is pushed into the map); one
// that also reads a trigger argument stays in the statement, and the
// component variables it reads become keys of the component's map, over
// which the statement then loops (DBToaster's choice for inequality joins).
// Each component becomes one map keyed by the variables it shares with the
// rest of the statement: arguments, the target's keys, outside factors; with
// splitHubs, a component whose keys meet only through one summed-over
// variable becomes one map per group (splitAtHub). Nested aggregates keep
// one map per component: their group must be a map's keys. Below depth 2 the components are not aggregated: their relation atoms read
// the base relations' maps directly (first-order IVM).
func (c *compiler) materialize(factors []calculus.Term, args, lhs []calculus.Var, parent string, depth int, splitHubs bool) ([]calculus.Term, error) {
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
	factors = append([]calculus.Term{}, factors...)
	n := len(factors)
	stay := make([]bool, n) // conditions that read a parameter (see correlate.go)
components:
	parentOf := make([]int, n)
	for i := range parentOf {
		parentOf[i] = i
	}
	find := func(i int) int {
		for parentOf[i] != i {
			i = parentOf[i]
		}
		return i
	}
	// Variables bound by factors that read maps (lifted nested aggregates,
	// loops over nested maps) are bound outside every component.
	liftBound := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range factors {
			if !readsMap(f) && !(readsAny(f, liftBound) && !calculus.HasRel(f)) {
				continue
			}
			for _, v := range binds(f) {
				if !liftBound[v.Name] {
					liftBound[v.Name] = true
					changed = true
				}
			}
		}
	}
	inside := make([]bool, n) // factor joins a component
	hasRel := make([]bool, n)
	owner := map[string]int{} // free variable → a factor using it
	for i, f := range factors {
		vs := calculus.Vars(f)
		var free, boundVs int
		for _, v := range vs {
			if bound[v.Name] {
				boundVs++
			} else {
				free++
			}
		}
		switch {
		case stay[i]:
			inside[i] = false
		case isRel(f):
			inside[i], hasRel[i] = true, true
		case calculus.HasRel(f):
			// A nested aggregate not yet materialized: it joins the
			// component whose variables it reads, and its map compiles it.
			inside[i], hasRel[i] = true, true
		case readsMap(f):
			inside[i] = false
		default:
			inside[i] = free > 0 && boundVs == 0 && !readsAny(f, liftBound)
		}
		if !inside[i] {
			continue
		}
		for _, v := range vs {
			if j, ok := owner[v.Name]; ok {
				a, b := find(i), find(j)
				if a != b {
					parentOf[a] = b
				}
			} else {
				owner[v.Name] = i
			}
		}
	}
	// Variables needed outside a component: arguments, target keys and the
	// variables of factors that stay in the statement.
	need := map[string]bool{}
	for _, v := range args {
		need[v.Name] = true
	}
	for _, v := range lhs {
		need[v.Name] = true
	}
	for i, f := range factors {
		if !inside[i] {
			for _, v := range calculus.Vars(f) {
				need[v.Name] = true
			}
		}
	}
	var out []calculus.Term
	var comps []int
	members := map[int][]int{}
	for i := range factors {
		if !inside[i] {
			out = append(out, factors[i])
			continue
		}
		r := find(i)
		if _, ok := members[r]; !ok {
			comps = append(comps, r)
		}
		members[r] = append(members[r], i)
	}
	if changed, err := c.keepParameters(factors, stay, comps, members, hasRel, args, lhs, need, parent); err != nil {
		return nil, err
	} else if changed {
		goto components
	}
	for _, r := range comps {
		idx := members[r]
		rel := false
		for _, i := range idx {
			rel = rel || hasRel[i]
		}
		if !rel {
			for _, i := range idx {
				out = append(out, factors[i])
			}
			continue
		}
		if depth >= 0 && depth < 2 && !nestedIn(factors, idx) {
			// First-order: each relation atom reads the relation projected on
			// the columns the rest of the statement uses.
			for _, i := range idx {
				x, ok := factors[i].(*calculus.Rel)
				if !ok {
					out = append(out, factors[i])
					continue
				}
				used := map[string]bool{}
				for j, f := range factors {
					if j != i {
						for _, v := range calculus.Vars(f) {
							used[v.Name] = true
						}
					}
				}
				var keys []calculus.Var
				for k, v := range x.Vars {
					if (need[v.Name] || used[v.Name] || hasVar(x.Vars[:k], v.Name)) && !hasVar(keys, v.Name) {
						keys = append(keys, v)
					}
				}
				m := c.mapFor(parent+"_m"+x.Name, keys, &calculus.AggSum{Group: keys, T: x}, Unbounded)
				out = append(out, &calculus.MapRef{Name: m.Name, Keys: keys, Type: lang.TInt})
			}
			continue
		}
		groups := [][]int{idx}
		var hub []calculus.Var
		if v, gs := splitAtHub(factors, idx, bound, need); splitHubs && gs != nil {
			groups, hub = gs, []calculus.Var{v}
		}
		for _, idx := range groups {
			var fs []calculus.Term
			var keys []calculus.Var
			for _, i := range idx {
				fs = append(fs, factors[i])
				for _, v := range calculus.Vars(factors[i]) {
					if (need[v.Name] || hasVar(hub, v.Name)) && !hasVar(keys, v.Name) {
						keys = append(keys, v)
					}
				}
			}
			rels := ""
			for _, i := range idx {
				if x, ok := factors[i].(*calculus.Rel); ok {
					rels += x.Name
				}
			}
			sub := depth
			if depth > 0 {
				sub = depth - 1
			}
			def := &calculus.AggSum{Group: keys, T: prod(fs)}
			m := c.mapFor(parent+"_m"+rels, keys, def, sub)
			// The map may be an earlier one with other key names: read it with ours.
			out = append(out, &calculus.MapRef{Name: m.Name, Keys: keys, Type: m.Type})
		}
	}
	return orderFactors(c.factorize(out, args, lhs), args), nil
}

// splitAtHub keeps a component from being materialized as a cross product.
// If the component's keys fall into several groups of atoms that are joined
// only through one summed-over variable v (Q5's nation key joins customers,
// suppliers and orders; variables bound by the event do not join), one map
// keyed by all the keys would hold, for each v, the product of the groups'
// key sets. Instead each group becomes its own
// map keyed by its keys and v, and the statement sums over v:
// Σ_v M1[k1, v]·M2[k2, v] holds the same value with maps no larger than the
// groups. A split must add keyed groups; among the candidates v, the one
// splitting off the most wins; maps of groups are split again when they are compiled. It returns
// nil groups when no split applies.
func splitAtHub(factors []calculus.Term, idx []int, bound, need map[string]bool) (calculus.Var, [][]int) {
	var cands []calculus.Var
	seen := map[string]int{}
	for _, i := range idx {
		f := factors[i]
		if !isRel(f) && calculus.HasRel(f) {
			return calculus.Var{}, nil // nested aggregates compile as a whole
		}
		for _, v := range calculus.Vars(f) {
			if bound[v.Name] || need[v.Name] {
				continue
			}
			seen[v.Name]++
			if seen[v.Name] == 2 {
				cands = append(cands, v)
			}
		}
	}
	keyedGroups := func(groups [][]int) int {
		n := 0
		for _, g := range groups {
			for _, i := range g {
				if readsAny(factors[i], need) {
					n++
					break
				}
			}
		}
		return n
	}
	var best calculus.Var
	var bestGroups [][]int
	bestKeyed := keyedGroups(groupsApart(factors, idx, func(name string) bool { return bound[name] }))
	for _, hub := range cands {
		groups := groupsApart(factors, idx, func(name string) bool {
			return bound[name] || name == hub.Name
		})
		keyed := keyedGroups(groups)
		ok := true
		for _, g := range groups {
			hasRel, usesHub, bindsHub := false, false, false
			for _, i := range g {
				rel := isRel(factors[i])
				hasRel = hasRel || rel
				for _, v := range calculus.Vars(factors[i]) {
					if v.Name == hub.Name {
						usesHub = true
						bindsHub = bindsHub || rel
					}
				}
			}
			// Each group's map is keyed by the hub, so a relation of the
			// group must bind it.
			ok = ok && hasRel && (!usesHub || bindsHub)
		}
		if ok && keyed > bestKeyed {
			best, bestGroups, bestKeyed = hub, groups, keyed
		}
	}
	return best, bestGroups
}

// groupsApart partitions the factors idx into groups connected by shared
// variables, ignoring the variables for which skip is true.
func groupsApart(factors []calculus.Term, idx []int, skip func(string) bool) [][]int {
	group := map[int]int{} // factor → group number
	owner := map[string]int{}
	var groups [][]int
	for _, i := range idx {
		g := -1
		for _, v := range calculus.Vars(factors[i]) {
			if skip(v.Name) {
				continue
			}
			if j, ok := owner[v.Name]; ok {
				h := group[j]
				if g >= 0 && g != h {
					// merge h into g
					for _, k := range groups[h] {
						group[k] = g
					}
					groups[g] = append(groups[g], groups[h]...)
					groups[h] = nil
				} else {
					g = h
				}
			} else {
				owner[v.Name] = i
			}
		}
		if g < 0 {
			g = len(groups)
			groups = append(groups, nil)
		}
		group[i] = g
		groups[g] = append(groups[g], i)
	}
	var out [][]int
	for _, g := range groups {
		if len(g) > 0 {
			sort.Ints(g)
			out = append(out, g)
		}
	}
	return out
}

// factorize computes once the parts of a product that are independent of
// the rest: Σ_{a,b} A(a)·B(b) = (Σ_a A(a))·(Σ_b B(b)). Factors are grouped
// by the unbound variables they share; a group that loops (reads a map at
// unbound keys or nests a sum) and binds none of the target's keys becomes
// a lifted local sum, evaluated before the loops of the other groups.
func (c *compiler) factorize(fs []calculus.Term, args, lhs []calculus.Var) []calculus.Term {
	if len(fs) < 2 {
		return fs
	}
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
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
	for i, f := range fs {
		for _, v := range calculus.Vars(f) {
			if bound[v.Name] {
				continue
			}
			if j, ok := owner[v.Name]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[v.Name] = i
			}
		}
	}
	groups := map[int][]int{}
	var roots []int
	for i := range fs {
		r := find(i)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], i)
	}
	if len(roots) < 2 {
		return fs
	}
	looping := 0
	for _, r := range roots {
		for _, i := range groups[r] {
			if !allBoundVars(calculus.Vars(fs[i]), bound) {
				looping++
				break
			}
		}
	}
	if looping < 2 {
		return fs // nothing to gain: a single loop
	}
	var out []calculus.Term
	for _, r := range roots {
		idx := groups[r]
		var part []calculus.Term
		loops, keyed := false, false
		for _, i := range idx {
			part = append(part, fs[i])
			for _, v := range calculus.Vars(fs[i]) {
				if hasVar(lhs, v.Name) {
					keyed = true
				}
				if !bound[v.Name] {
					loops = true
				}
			}
		}
		if !loops || keyed {
			out = append(out, part...)
			continue
		}
		c.parts++
		v := calculus.Var{Name: fmt.Sprintf("part%d", c.parts), Type: lang.TFloat}
		out = append(out, &calculus.Lift{V: v, T: &calculus.AggSum{T: prod(orderFactors(part, args))}}, &calculus.Val{E: calculus.Ref(v)})
	}
	return out
}

func prod(fs []calculus.Term) calculus.Term {
	if len(fs) == 1 {
		return fs[0]
	}
	return &calculus.Prod{Factors: fs}
}

func hasVar(vs []calculus.Var, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

// orderFactors puts factors in an evaluable order: conditions and values as
// soon as their variables are bound, then map reads with all keys bound
// (point lookups), then the map read that binds the fewest new variables
// (a loop over a secondary index).
func orderFactors(fs []calculus.Term, args []calculus.Var) []calculus.Term {
	bound := map[string]bool{}
	for _, a := range args {
		bound[a.Name] = true
	}
	rest := append([]calculus.Term{}, fs...)
	var out []calculus.Term
	take := func(i int) {
		f := rest[i]
		rest = append(rest[:i:i], rest[i+1:]...)
		out = append(out, f)
		for _, v := range binds(f) {
			bound[v.Name] = true
		}
	}
	for len(rest) > 0 {
		best, bestCost := -1, 1<<30
		for i, f := range rest {
			cost := 1 << 20
			switch x := f.(type) {
			case *calculus.Val:
				if allBoundVars(calculus.Vars(x), bound) {
					cost = 0
				}
			case *calculus.Lift:
				if _, ok := x.T.(*calculus.Val); ok {
					if allBoundVars(calculus.Vars(x.T), bound) {
						cost = 1
					}
				} else if inputsBound(x, rest, i, bound) {
					cost = 1
				}
			case *calculus.Exists, *calculus.AggSum:
				if inputsBound(x, rest, i, bound) {
					cost = 50
				}
			case *calculus.MapRef, *calculus.Rel:
				unbound := 0
				for _, v := range calculus.Vars(x) {
					if !bound[v.Name] {
						unbound++
					}
				}
				cost = 2 + unbound
				if n := len(calculus.Vars(x)); n > 0 && unbound == n {
					cost = 100 + unbound // a full scan: only when nothing narrows it
				}
			default:
				cost = 1 << 10
			}
			if cost < bestCost {
				best, bestCost = i, cost
			}
		}
		take(best)
	}
	return out
}

// binds returns the variables a factor binds when evaluated.
func binds(f calculus.Term) []calculus.Var {
	switch x := f.(type) {
	case *calculus.Lift:
		// A Lift whose body reads its own variable (a derived table's
		// `x2 = x1` unified into one variable) tests that variable: it must
		// be bound by another factor first.
		if hasVar(calculus.Vars(x.T), x.V.Name) {
			return nil
		}
		return []calculus.Var{x.V}
	case *calculus.MapRef, *calculus.Rel:
		return calculus.Vars(x)
	case *calculus.Exists:
		return binds(x.T)
	case *calculus.AggSum:
		// Only the group variables its body range-restricts: in
		// AggSum([b, d], T(c, d) * {d < b}) b is an input, bound elsewhere.
		r := restricts(x.T, map[string]bool{})
		var out []calculus.Var
		for _, v := range x.Group {
			if r[v.Name] {
				out = append(out, v)
			}
		}
		return out
	}
	return nil
}

// inputsBound reports whether every variable of a nested factor that other
// factors (or the arguments) bind is already bound: a nested aggregate is
// evaluated for given values of its correlation variables.
func inputsBound(f calculus.Term, rest []calculus.Term, self int, bound map[string]bool) bool {
	own := map[string]bool{}
	for _, v := range binds(f) {
		own[v.Name] = true
	}
	others := map[string]bool{}
	for j, g := range rest {
		if j == self {
			continue
		}
		for _, v := range calculus.Vars(g) {
			others[v.Name] = true
		}
	}
	for _, v := range calculus.Vars(f) {
		if own[v.Name] {
			continue
		}
		if others[v.Name] && !bound[v.Name] {
			return false
		}
	}
	return true
}

func isRel(f calculus.Term) bool {
	_, ok := f.(*calculus.Rel)
	return ok
}

// readsMap reports whether a factor reads a materialized map.
func readsMap(f calculus.Term) bool {
	found := false
	calculus.Walk(f, func(t calculus.Term) {
		if _, ok := t.(*calculus.MapRef); ok {
			found = true
		}
	})
	return found
}

func readsAny(f calculus.Term, vs map[string]bool) bool {
	for _, v := range calculus.Vars(f) {
		if vs[v.Name] {
			return true
		}
	}
	return false
}

// hasNested reports whether a term has a factor that nests an aggregate
// over base relations (Lift, Exists or AggSum below the top).
func hasNested(t calculus.Term) bool {
	for _, m := range calculus.Expand(t) {
		for _, f := range m.Factors {
			if !isRel(f) && calculus.HasRel(f) {
				return true
			}
		}
	}
	return false
}

// nestedIn reports whether the factors idx include a nested aggregate.
func nestedIn(fs []calculus.Term, idx []int) bool {
	for _, i := range idx {
		if !isRel(fs[i]) && calculus.HasRel(fs[i]) {
			return true
		}
	}
	return false
}

func allBoundVars(vs []calculus.Var, bound map[string]bool) bool {
	for _, v := range vs {
		if !bound[v.Name] {
			return false
		}
	}
	return true
}

// canonical prints a definition with its variables renamed by position (keys
// k0…, others v0… in order of first occurrence), so that definitions equal
// up to renaming print the same.
func canonical(def *calculus.AggSum) string {
	sub := map[string]lang.Expr{}
	for i, k := range def.Group {
		sub[k.Name] = calculus.Ref(calculus.Var{Name: fmt.Sprintf("k%d", i), Type: k.Type})
	}
	n := 0
	for _, v := range calculus.Vars(def.T) {
		if _, ok := sub[v.Name]; !ok {
			sub[v.Name] = calculus.Ref(calculus.Var{Name: fmt.Sprintf("v%d", n), Type: v.Type})
			n++
		}
	}
	return calculus.String(calculus.SubstTerm(def, sub))
}

// orderStatements orders a trigger's statements so that every incremental
// statement reads the maps before they are written, and every replacement
// statement after. Statements that no order satisfies are buffered.
func orderStatements(t *Trigger) error {
	n := len(t.Stmts)
	// before[i][j]: statement i must run before j.
	before := make([][]bool, n)
	for i := range before {
		before[i] = make([]bool, n)
	}
	for i, s := range t.Stmts {
		reads := s.Reads()
		for j, w := range t.Stmts {
			if i == j {
				continue
			}
			for _, r := range reads {
				if r == w.Map.Name {
					if s.Replace || s.After {
						before[j][i] = true
					} else {
						before[i][j] = true
					}
				}
			}
		}
		for _, r := range reads {
			if r == s.Map.Name && !s.Replace && !s.After {
				s.Buffered = true
			}
		}
	}
	done := make([]bool, n)
	var out []*Stmt
	for len(out) < n {
		progress := false
		for j := 0; j < n; j++ {
			if done[j] {
				continue
			}
			ready := true
			for i := 0; i < n; i++ {
				if !done[i] && i != j && before[i][j] && !t.Stmts[i].Buffered {
					ready = false
				}
			}
			if ready {
				done[j] = true
				out = append(out, t.Stmts[j])
				progress = true
				break
			}
		}
		if !progress {
			// A cycle: buffer the first remaining incremental statement.
			k := -1
			for j := 0; j < n; j++ {
				if !done[j] && !t.Stmts[j].Replace && !t.Stmts[j].After && !t.Stmts[j].Buffered {
					k = j
					break
				}
			}
			if k < 0 {
				return fmt.Errorf("trigger %s: cannot order replacement statements", EventString(t.Event))
			}
			t.Stmts[k].Buffered = true
		}
	}
	// Buffered statements read the state before the event, whatever their position.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Buffered && !out[j].Buffered })
	t.Stmts = out
	return nil
}
