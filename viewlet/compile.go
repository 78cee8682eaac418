package viewlet

import (
	"fmt"
	"sort"
	"strings"

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
	// Depths, when set, holds a depth per query (Compile's queries, in
	// order) for the maps compiled for its view, in place of Depth
	// (negative: Unbounded). A map two views share is compiled at the depth
	// of the first that needs it.
	Depths []int
	// FlatViews keeps every view a flat map of its rows maintained by
	// statements: no view trees (viewtree.go), no kernels (kernel.go).
	FlatViews bool
	// noKernels: a compilation whose kernel inputs could not be synced.
	noKernels bool
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
		c.prog.StaticTables = c.prog.StaticTables || !r.Stream && f.Dialect != lang.SQL
	}
	depth := opts.Depth
	if depth < 0 {
		depth = Unbounded
	}
	for qi, q := range queries {
		c.query = qi
		depth := depth
		if opts.Depths != nil {
			if depth = opts.Depths[qi]; depth < 0 {
				depth = Unbounded
			}
		}
		v := &View{Name: q.Name, Named: q.Named, Keys: q.Keys, Values: q.Values, Columns: q.Columns, Having: q.Having, Distinct: q.Distinct, Scalar: q.Scalar, AggKeys: q.AggKeys, Order: q.Order, Limit: q.Limit, Bag: q.Bag, Tree: q.Tree, Numbered: q.Numbered}
		for i, agg := range q.Aggs {
			if i == 0 && q.Scalar && !readsAgg(q, 0) {
				// A scalar view always has its one row: no row count needed.
				v.Aggs = append(v.Aggs, nil)
				continue
			}
			name := q.Name + "_" + aggName(q, i)
			if !opts.FlatViews && !opts.noKernels && len(agg.(*calculus.AggSum).Group) == 0 {
				if cyc, ok := calculus.Triangle(agg.(*calculus.AggSum)); ok {
					v.Aggs = append(v.Aggs, c.kernelMap(name, agg.(*calculus.AggSum), cyc, depth))
					continue
				}
			}
			if q.Tree != nil {
				// A factor: named after its relations.
				name = fmt.Sprintf("%s_F%d_%s", q.Name, i, strings.Join(calculus.Relations(agg), "_"))
			}
			a := agg.(*calculus.AggSum)
			guarded := false
			if i > 0 && q.Tree == nil {
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
	pinFlags(c.prog)
	dropPinnedKeys(c.prog)
	pruneUnread(c.prog)
	hashKeys(c.prog)
	return c.prog, nil
}

// hashKeys sets the HashKey of every map whose keys are determined by some
// of them through the relations' primary keys.
func hashKeys(p *Program) {
	keys := map[string][]int{}
	for _, r := range p.Relations {
		if len(r.Key) > 0 {
			keys[r.Name] = r.Key
		}
	}
	if len(keys) == 0 {
		return
	}
	for _, m := range p.Maps {
		def, ok := m.Def.(*calculus.AggSum)
		if !ok || len(m.Keys) < 2 || len(def.Group) != len(m.Keys) {
			continue
		}
		if d := calculus.Determinant(def, keys); len(d) < len(m.Keys) {
			m.HashKey = d
		}
	}
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
//
// Only dialect dbtoaster has static tables (DBToaster's TABLE, which its
// engines reject events of after the first stream event: see
// Program.StaticTables). In dialect sql a TABLE is an ordinary relation
// that may change at any time, with every statement a stream's has.
func (c *compiler) emptyWhileLoading(def *calculus.AggSum, rel string) bool {
	if r := c.rels[rel]; r == nil || r.Stream || c.prog.Dialect == lang.SQL {
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
