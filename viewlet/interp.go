package viewlet

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Interp executes a Program directly: the reference implementation that
// generated code is compared with, and `toastgen run -engine interp`.
// Values are int64, float64, string or runtime.Date; ring values are of
// their map's type, as in generated code: an INT map holds int64 sums,
// with checked arithmetic (see Fire), a FLOAT map compensated float64
// sums (runtime.FloatSum), so that both engines hold the same values.
type Interp struct {
	prog *Program
	rels []runtime.Relation
	maps map[string]*imap
	// kernels keep the maps that have one (Map.Kernel), keys encoded.
	kernels map[string]*runtime.TriangleCount[string, string, string]
	// changes receives the views' changes (OnChanges); shown holds the
	// views as last reported; batching is set while ApplyBatch runs.
	changes  func(runtime.Change)
	shown    []runtime.View
	batching bool
	trig     map[string]*Trigger
	base     map[string]*imap // the base relations that statements read directly
	likes    map[string]*runtime.LikePattern
	res      map[string]*regexp.Regexp
	aggs     []any // the current group's aggregates (int64, float64) while reading a view
	group    []any // the current group's keys while reading a view
	view_    *View
	err      error // the Program's inconsistency, or the first failed event's
	sql      bool  // dialect sql: see evalExpr
	// overflow is set when an integer sum or product of the running event
	// leaves int64 (see Fire).
	overflow bool
	// streamed is set by the first stream event: with Program.StaticTables
	// an event on a table is rejected from then on (runtime.ErrStaticTable).
	streamed bool
	// work counts the map entries the triggers looked up, visited in loops
	// and updated (see Work).
	work int64
}

// NewInterp returns an interpreter over empty base relations. The Program
// is validated first (Program.Validate; Compile's output always passes):
// if it is inconsistent, Err reports why and every event fails with that
// error instead of running.
func NewInterp(p *Program) *Interp {
	in := &Interp{prog: p, maps: map[string]*imap{}, trig: map[string]*Trigger{}, base: map[string]*imap{},
		likes: map[string]*runtime.LikePattern{}, res: map[string]*regexp.Regexp{}, sql: p.Dialect == lang.SQL}
	for _, m := range p.Maps {
		in.maps[m.Name] = newIMap(m.Type == lang.TInt)
		if m.Init != 0 {
			in.maps[m.Name].addInit(nil, m.Init)
		}
		for _, e := range m.InitEntries {
			in.maps[m.Name].addInit(e.Keys, e.Value)
		}
	}
	for _, t := range p.Triggers {
		in.trig[triggerKey(t.Event.Rel, t.Event.Insert)] = t
	}
	for _, st := range p.SetTriggers {
		for _, d := range st.Deltas {
			in.maps[d.Name] = newIMap(d.Type == lang.TInt)
		}
	}
	in.rels = RuntimeRelations(p.Relations)
	for i := range in.rels {
		in.rels[i].Unread = !p.Reads(in.rels[i].Name)
	}
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			for _, m := range s.RHS {
				for _, f := range m.Factors {
					calculus.Walk(f, func(u calculus.Term) {
						if r, ok := u.(*calculus.Rel); ok && in.base[r.Name] == nil {
							in.base[r.Name] = newIMap(true)
						}
					})
				}
			}
		}
	}
	in.err = p.Validate()
	return in
}

// Err returns the error that stops the interpreter: the Program's
// inconsistency found by NewInterp, or the failure of an event (after
// which the maps are no longer consistent and no event runs). Nil while
// everything runs.
func (in *Interp) Err() error { return in.err }

// RuntimeRelations converts declared relations to the runtime's description.
func RuntimeRelations(rs []*lang.Relation) []runtime.Relation {
	var out []runtime.Relation
	for _, r := range rs {
		rr := runtime.Relation{Name: r.Name, Stream: r.Stream}
		for _, c := range r.Columns {
			rr.Columns = append(rr.Columns, runtime.Column{Name: c.Name, Type: ColumnType(c.Type), Nullable: c.Nullable})
		}
		if r.Source != nil {
			rr.Source = &runtime.SourceSpec{Path: r.Source.Path, Format: r.Source.Format, Params: r.Source.Params,
				RecordSep: r.Source.RecordSep, RecordWidth: r.Source.RecordWidth}
		}
		out = append(out, rr)
	}
	return out
}

// ColumnType maps a lang type to the runtime's column type.
func ColumnType(t lang.Type) runtime.ColumnType {
	switch t {
	case lang.TInt:
		return runtime.Int
	case lang.TFloat:
		return runtime.Float
	case lang.TString:
		return runtime.String
	case lang.TDate:
		return runtime.DateType
	}
	return 0
}

// eventValues binds a tuple to its relation's event variables
// (calculus.EventVars): a nullable column's NULL (nil) becomes its type's
// zero and presence flag 0, any other value keeps its value and flag 1.
func (in *Interp) eventValues(rel string, tuple []any) []any {
	var r *lang.Relation
	for _, x := range in.prog.Relations {
		if x.Name == rel {
			r = x
		}
	}
	if r == nil {
		return tuple
	}
	nulls := calculus.Nullables(r)
	if len(nulls) == 0 || len(tuple) != len(r.Columns) {
		return tuple
	}
	out := append(make([]any, 0, len(tuple)+len(nulls)), tuple...)
	for _, i := range nulls {
		flag := int64(1)
		if out[i] == nil {
			out[i], flag = zeroOf(r.Columns[i].Type), 0
		}
		out = append(out, flag)
	}
	return out
}

// Relations implements runtime.Engine.
func (in *Interp) Relations() []runtime.Relation { return in.rels }

// ParseTuple parses one event's fields by the relation's column types, with
// runtime.ParseValue: the same parsers and the same errors (a
// *runtime.ColumnError) as a generated package's Apply, so that both engines
// accept and reject the same data.
func ParseTuple(r runtime.Relation, fields [][]byte) ([]any, error) {
	if len(fields) != len(r.Columns) {
		return nil, fmt.Errorf("expected %d fields, got %d", len(r.Columns), len(fields))
	}
	tuple := make([]any, len(fields))
	for i, c := range r.Columns {
		v, err := runtime.ParseValue(c, fields[i])
		if err != nil {
			return nil, err
		}
		tuple[i] = v
	}
	return tuple, nil
}

// Apply implements runtime.Engine.
func (in *Interp) Apply(rel int, insert bool, fields [][]byte) error {
	tuple, err := ParseTuple(in.rels[rel], fields)
	if err != nil {
		return err
	}
	return in.Fire(in.rels[rel].Name, insert, tuple)
}

type ievent struct {
	rel    string
	insert bool
	tuple  []any
}

type ibatch struct {
	in      *Interp
	events  []ievent
	inOrder bool
	policy  runtime.Policy
}

// SetPolicy sets how ApplyBatch applies the batch (runtime.WithPolicy).
func (b *ibatch) SetPolicy(p runtime.Policy) { b.policy = p }

// InOrder makes ApplyBatch fire the batch's events as added (see
// runtime.InOrder).
func (b *ibatch) InOrder() { b.inOrder = true }

func (b *ibatch) Add(rel int, insert bool, fields [][]byte) error {
	t, err := ParseTuple(b.in.rels[rel], fields)
	if err != nil {
		return err
	}
	b.events = append(b.events, ievent{b.in.rels[rel].Name, insert, t})
	return nil
}

func (b *ibatch) Len() int { return len(b.events) }

// AddTuple appends an event of relation rel with tuple's values, as Fire
// takes them.
func (b *ibatch) AddTuple(rel string, insert bool, tuple []any) {
	b.events = append(b.events, ievent{rel, insert, tuple})
}

// NewBatch implements runtime.Engine.
func (in *Interp) NewBatch() runtime.Batch { return &ibatch{in: in} }

// ApplyBatch implements runtime.Engine: it consolidates the batch as
// generated engines do (see their ApplyBatch) unless it is marked InOrder,
// and stops at the first event that fails (see Err), returning its error.
func (in *Interp) ApplyBatch(b runtime.Batch) error {
	ib, ok := b.(*ibatch)
	if !ok || ib.in != in {
		return fmt.Errorf("ApplyBatch: the batch (%T) was not made by this interpreter's NewBatch", b)
	}
	if err := in.staticBatch(ib.events); err != nil {
		return err
	}
	if in.changes != nil {
		in.batching = true
		defer func() { in.batching = false; in.flushChanges() }()
	}
	if ib.inOrder || len(ib.events) < 2 {
		for _, e := range ib.events {
			if err := in.Fire(e.rel, e.insert, e.tuple); err != nil {
				return err
			}
		}
		return nil
	}
	// Consolidated as generated code does: per relation with both inserts
	// and deletes in the batch, each tuple's net multiplicity; then the
	// events in order, each tuple's first |net| of the net's sign fired.
	ins, del := map[string]bool{}, map[string]bool{}
	for _, e := range ib.events {
		if e.insert {
			ins[e.rel] = true
		} else {
			del[e.rel] = true
		}
	}
	net := map[string]int64{}
	keys := make([]string, len(ib.events))
	for i, e := range ib.events {
		if !ins[e.rel] || !del[e.rel] {
			continue
		}
		keys[i] = e.rel + "\x00" + string(appendKey(nil, e.tuple))
		if e.insert {
			net[keys[i]]++
		} else {
			net[keys[i]]--
		}
	}
	var fire []ievent // the events that do not cancel, in order
	for i, e := range ib.events {
		if k := keys[i]; k != "" {
			d := int64(-1)
			if e.insert {
				d = 1
			}
			if net[k]*d <= 0 {
				continue // cancelled, or its net events fired
			}
			net[k] -= d
		}
		fire = append(fire, e)
	}
	if ib.policy == runtime.Incremental || len(in.prog.SetTriggers) == 0 {
		for _, e := range fire {
			if err := in.Fire(e.rel, e.insert, e.tuple); err != nil {
				return err
			}
		}
		return nil
	}
	// Relation by relation, in the order of their first events: the
	// set-at-a-time form where the policy chooses it.
	var order []string
	byRel := map[string][]ievent{}
	for _, e := range fire {
		if byRel[e.rel] == nil {
			order = append(order, e.rel)
		}
		byRel[e.rel] = append(byRel[e.rel], e)
	}
	for _, rel := range order {
		evs := byRel[rel]
		if st := in.prog.SetTrigger(rel); st != nil && ib.policy.UseSetAtATime(len(evs)) {
			if err := in.applySet(st, evs); err != nil {
				return err
			}
			continue
		}
		for _, e := range evs {
			if err := in.Fire(e.rel, e.insert, e.tuple); err != nil {
				return err
			}
		}
	}
	return nil
}

// OnChanges implements runtime.ChangeStreamer: f receives the view rows
// each Fire (Apply) and each ApplyBatch changed, compared with the views
// last reported.
func (in *Interp) OnChanges(f func(runtime.Change)) {
	in.changes, in.shown = f, nil
	if f != nil {
		in.shown = in.Views()
	}
}

func (in *Interp) flushChanges() {
	now := in.Views()
	runtime.DiffViews(in.shown, now, in.changes)
	in.shown = now
}

// Fire runs the trigger of one event. It returns Err when the interpreter
// is stopped, and stops it with an error naming the query file, the event
// and the statement when the trigger cannot run (an internal
// inconsistency: Validate rules out the ones it knows).
//
// Integer arithmetic is checked, as in generated code: when an INT map's
// sum, or an integer product or expression of the trigger, leaves int64,
// the trigger still runs to its end with wrapped values, then Fire undoes
// the event by running the inverse trigger (the delete of an inserted
// tuple), which in wrapping two's-complement arithmetic restores every
// INT map exactly (and with them MIN/MAX counts and COUNT(DISTINCT)
// presence), and returns a *runtime.EventError (runtime.ErrOverflow). The
// interpreter is not stopped: the event is rejected, later events run.
// (FLOAT maps come back to what the insert and the delete of the same
// values leave, their exact value in the common cases: see
// runtime.FloatSum.)
func (in *Interp) Fire(rel string, insert bool, tuple []any) error {
	if in.err != nil {
		return in.err
	}
	if err := in.static(rel, insert, tuple); err != nil {
		return err
	}
	if in.changes != nil && !in.batching {
		defer in.flushChanges()
	}
	in.overflow = false
	if err := in.fire(rel, insert, tuple); err != nil {
		return err
	}
	if !in.overflow {
		return nil
	}
	if err := in.fire(rel, !insert, tuple); err != nil {
		return err
	}
	in.overflow = false
	return runtime.OverflowError(rel, insert, tuple...)
}

// fire runs the trigger of one event.
func (in *Interp) fire(rel string, insert bool, tuple []any) (err error) {
	var cur *Stmt
	defer func() {
		if r := recover(); r != nil {
			where := EventString(calculus.Event{Rel: rel, Insert: insert})
			if cur != nil {
				where += ": " + in.prog.queryOf(cur.Map.Name) + cur.String()
			}
			in.err = fmt.Errorf("%s: interp: ON %s: %v", in.prog.Source, where, r)
			err = in.err
		}
	}()
	tuple = in.eventValues(rel, tuple)
	if bm := in.base[rel]; bm != nil {
		d := int64(1)
		if !insert {
			d = -1
		}
		bm.addInt(tuple, d)
	}
	t := in.trig[triggerKey(rel, insert)]
	if t == nil {
		return nil
	}
	if len(tuple) != len(t.Event.Args) {
		return fmt.Errorf("%s: interp: ON %s: %d values for %d columns", in.prog.Source, EventString(t.Event), len(tuple), len(t.Event.Args))
	}
	env := &env{}
	for i, a := range t.Event.Args {
		env.bind(a.Name, tuple[i])
	}
	var buffered []update
	for _, s := range t.Stmts {
		if s.Buffered {
			cur = s
			buffered = in.updates(buffered, s, env)
		}
	}
	for _, s := range t.Stmts {
		if s.Buffered {
			continue
		}
		cur = s
		m := in.maps[s.Map.Name]
		ups := in.updates(nil, s, env)
		if s.Replace {
			// Every entry matching the keys the event binds is replaced.
			mask, vals := boundKeys(nil, s.Keys, env)
			var old []*ientry
			m.each(mask, vals, func(e *ientry) { old = append(old, e) })
			for _, e := range old {
				m.remove(e)
				in.work++
			}
		}
		in.apply(ups)
	}
	cur = nil
	in.apply(buffered)
	for _, u := range t.Syncs {
		in.sync(u, env)
	}
	return nil
}

// sync hands the kernel of u.Map the entry of its input at the event's
// keys, and stores the kernel's count as the map's value.
func (in *Interp) sync(u Sync, env *env) {
	k := in.kernels[u.Map.Name]
	if k == nil {
		if in.kernels == nil {
			in.kernels = map[string]*runtime.TriangleCount[string, string, string]{}
		}
		k = &runtime.TriangleCount[string, string, string]{}
		in.kernels[u.Map.Name] = k
	}
	keys := make([]any, len(u.Keys))
	for i, v := range u.Keys {
		keys[i], _ = env.get(v.Name)
	}
	w := in.maps[u.Map.Kernel.Inputs[u.Input].Name].get(keys).(int64)
	split := u.Map.Kernel.Split[u.Input]
	a, b := string(appendKey(nil, keys[:split])), string(appendKey(nil, keys[split:]))
	switch u.Input {
	case 0:
		k.Set1(a, b, w)
	case 1:
		k.Set2(a, b, w)
	case 2:
		k.Set3(a, b, w)
	}
	m := in.maps[u.Map.Name]
	m.addInt(nil, k.Count()-m.get(nil).(int64))
	in.work++
}

// update is one addition to a map entry: i for an INT map, f for a FLOAT one.
type update struct {
	m    *imap
	keys []any
	i    int64
	f    float64
}

// updates appends the additions of statement s to ups.
func (in *Interp) updates(ups []update, s *Stmt, env *env) []update {
	m := in.maps[s.Map.Name]
	if m.isInt {
		evalStmt(in, s, env, func(keys []any, v int64) { ups = append(ups, update{m: m, keys: keys, i: v}) })
	} else {
		evalStmt(in, s, env, func(keys []any, v float64) { ups = append(ups, update{m: m, keys: keys, f: v}) })
	}
	return ups
}

// Work returns the number of map entries the triggers have looked up,
// visited in loops and updated so far: a measure of the work per event of
// a program that does not depend on the machine (ChooseDepth compares
// programs by it).
func (in *Interp) Work() int64 { return in.work }

// apply adds ups to their maps, recording an overflow of an INT map's sum.
func (in *Interp) apply(ups []update) {
	in.work += int64(len(ups))
	for _, u := range ups {
		if !u.m.isInt {
			u.m.addFloat(u.keys, u.f)
		} else if u.m.addInt(u.keys, u.i) {
			in.overflow = true
		}
	}
}

// env holds the bound variables: a stack of bindings. A term that binds a
// variable pushes it, passes the extended env to its continuation, then
// pops it (reset to the mark taken before), so evaluation never copies an
// env. A variable is only pushed when it is not bound already.
type env struct{ b []binding }

type binding struct {
	name string
	val  any
}

func (e *env) get(name string) (any, bool) {
	for i := len(e.b) - 1; i >= 0; i-- {
		if e.b[i].name == name {
			return e.b[i].val, true
		}
	}
	return nil, false
}

func (e *env) bind(name string, v any) { e.b = append(e.b, binding{name, v}) }

func (e *env) mark() int { return len(e.b) }

func (e *env) reset(mark int) { e.b = e.b[:mark] }

// boundKeys returns which of keys env binds (bit i for keys[i]) and, appended
// to vals, their values in order.
func boundKeys(vals []any, keys []calculus.Var, env *env) (uint64, []any) {
	if len(keys) > 64 {
		panic("interp: map with more than 64 keys")
	}
	var mask uint64
	for i, k := range keys {
		if v, ok := env.get(k.Name); ok {
			mask |= 1 << i
			vals = append(vals, v)
		}
	}
	return mask, vals
}

// Views implements runtime.Engine. When a view cannot be read (an internal
// inconsistency), it returns nil and Err reports why.
func (in *Interp) Views() (out []runtime.View) {
	if in.err != nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			what := "the views"
			if in.view_ != nil {
				what = "view " + in.view_.Name
			}
			in.err = fmt.Errorf("%s: interp: reading %s: %v", in.prog.Source, what, r)
			out = nil
		}
	}()
	for _, v := range in.prog.Views {
		out = append(out, in.view(v))
	}
	return out
}

func (in *Interp) view(v *View) runtime.View {
	in.view_ = v
	rv := runtime.View{Name: v.Name, Columns: v.Columns}
	for _, k := range v.Keys {
		rv.Keys = append(rv.Keys, runtime.Column{Name: k.Name, Type: ColumnType(k.Var.Type), Nullable: k.Present.Name != ""})
	}
	for _, val := range v.Values {
		rv.Values = append(rv.Values, runtime.Column{Name: val.Name, Type: ColumnType(val.Type), Nullable: val.Present != nil && !v.Distinct})
	}
	var groups [][]any
	if v.Scalar {
		groups = [][]any{{}}
	} else if v.Tree != nil {
		groups = in.treeRows(v)
	} else {
		for _, e := range in.maps[v.Aggs[0].Name].entries {
			groups = append(groups, e.keys)
		}
	}
	for _, keys := range groups {
		env := &env{}
		flagAt := len(v.Keys)
		for i, k := range v.Keys {
			env.bind(k.Name, keys[i])
			env.bind(k.Var.Name, keys[i])
			if k.Present.Name != "" && flagAt < len(keys) {
				env.bind(k.Present.Name, keys[flagAt])
				flagAt++
			}
		}
		aggs := make([]any, len(v.Aggs))
		for i, m := range v.Aggs {
			if pos, ok := v.AggKeys[i]; ok && m != nil && slices.Contains(pos, -1) {
				continue // read by running sums only, at the row's values
			} else if ok && m != nil {
				sub := make([]any, len(pos))
				for j, p := range pos {
					sub[j] = keys[p]
				}
				aggs[i] = in.maps[m.Name].get(sub)
			} else if m != nil && len(m.Keys) == 0 {
				aggs[i] = in.maps[m.Name].get(nil) // a keyless aggregate (an uncorrelated subquery)
			} else if m != nil {
				aggs[i] = in.maps[m.Name].get(keys)
			}
		}
		in.aggs = aggs
		in.group, in.view_ = keys, v
		if v.Having != nil && toFloat(in.evalExpr(v.Having, env)) == 0 {
			continue
		}
		row := append([]any{}, keys[:len(v.Keys)]...)
		flag := len(v.Keys)
		for i, k := range v.Keys {
			// A NULL key: its presence flag, a key after the view's columns.
			if k.Present.Name != "" {
				if keys[flag] == int64(0) {
					row[i] = nil
				}
				flag++
			}
		}
		for _, val := range v.Values {
			if v.Distinct {
				row = append(row, int64(1))
				continue
			}
			if val.Present != nil && toFloat(in.evalExpr(val.Present, env)) == 0 {
				row = append(row, nil)
				continue
			}
			row = append(row, coerce(in.evalExpr(val.E, env), val.Type))
		}
		rv.Rows = append(rv.Rows, row)
	}
	in.aggs = nil
	runtime.SortRows(rv.Rows, len(v.Keys))
	if v.Order != nil {
		rv.Rows = window(v, rv.Rows)
		rv.Order = v.Order
	}
	return runtime.NumberCopies(rv, v.Numbered)
}

// window orders the rows of an ordered view and keeps those its LIMIT
// shows.
func window(v *View, rows [][]any) [][]any {
	offset, count := int64(0), int64(-1)
	if v.Limit != nil {
		offset, count = v.Limit.Offset, v.Limit.Count
	}
	mult := -1
	if v.Bag {
		mult = len(v.Keys)
	}
	return runtime.Window(rows, v.Order, offset, count, mult)
}

// treeRows lists the keys of a factorized view's rows: the natural join of
// its count factors' entries, each entry's keys at its node's root path
// (a reference evaluation; generated engines walk the tree instead).
func (in *Interp) treeRows(v *View) [][]any {
	rows := [][]any{make([]any, v.MapKeys())}
	for n, nd := range v.Tree.Nodes {
		if nd.Count < 0 {
			continue
		}
		path := v.Tree.Path(n)
		var next [][]any
		for _, row := range rows {
			in.maps[v.Aggs[nd.Count].Name].each(0, nil, func(e *ientry) {
				for j, p := range path {
					if row[p] != nil && row[p] != e.keys[j] {
						return
					}
				}
				r := slices.Clone(row)
				for j, p := range path {
					r[p] = e.keys[j]
				}
				next = append(next, r)
			})
		}
		rows = next
	}
	return rows
}

// applySet applies the events evs of one relation by its set-at-a-time
// triggers st: each event's Collect statements add to the Delta maps, then
// the Apply statements run once, reading the maps as they were before the
// batch. When an INT sum or product overflows, the Apply's additions are
// undone (wrapping arithmetic restores the maps exactly, as Fire's undo
// does) and the events are fired one by one instead, so that the first
// event that overflows is rejected as it would be alone.
func (in *Interp) applySet(st *SetTrigger, evs []ievent) (err error) {
	if in.err != nil {
		return in.err
	}
	defer func() {
		if r := recover(); r != nil {
			in.err = fmt.Errorf("%s: interp: ON BATCH OF %s: %v", in.prog.Source, st.Rel, r)
			err = in.err
		}
	}()
	defer func() {
		for _, d := range st.Deltas {
			in.maps[d.Name] = newIMap(d.Type == lang.TInt)
		}
	}()
	in.overflow = false
	for _, e := range evs {
		tuple := in.eventValues(e.rel, e.tuple)
		if bm := in.base[e.rel]; bm != nil {
			d := int64(1)
			if !e.insert {
				d = -1
			}
			bm.addInt(tuple, d)
		}
		t := st.Collect[0]
		if !e.insert {
			t = st.Collect[1]
		}
		if t == nil {
			continue
		}
		env := &env{}
		for i, a := range t.Event.Args {
			env.bind(a.Name, tuple[i])
		}
		for _, s := range t.Stmts {
			in.apply(in.updates(nil, s, env))
		}
	}
	var ups []update
	for _, s := range st.Apply.Stmts {
		ups = in.updates(ups, s, &env{})
	}
	in.apply(ups)
	if !in.overflow {
		return nil
	}
	for i := range ups {
		ups[i].i, ups[i].f = -ups[i].i, -ups[i].f
	}
	in.apply(ups)
	in.overflow = false
	for _, e := range evs {
		if bm := in.base[e.rel]; bm != nil {
			d := int64(-1)
			if !e.insert {
				d = 1
			}
			bm.addInt(in.eventValues(e.rel, e.tuple), d)
		}
	}
	for _, e := range evs {
		if err := in.Fire(e.rel, e.insert, e.tuple); err != nil {
			return err
		}
	}
	return nil
}
