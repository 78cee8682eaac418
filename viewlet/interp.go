package viewlet

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"sort"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Interp executes a Program directly: the reference implementation that
// generated code is compared with, and `toastgen run -engine interp`.
// Values are int64, float64, string or runtime.Date; ring values are
// float64 (exact for integers below 2^53).
type Interp struct {
	prog  *Program
	rels  []runtime.Relation
	maps  map[string]*imap
	trig  map[string]*Trigger
	base  map[string]*imap // the base relations that statements read directly
	likes map[string]*runtime.LikePattern
	res   map[string]*regexp.Regexp
	aggs  []float64 // the current group's aggregates while reading a view
	group []any     // the current group's keys while reading a view
	view_ *View
	err   error // the Program's inconsistency, or the first failed event's
	sql   bool  // dialect sql: see evalExpr
}

// NewInterp returns an interpreter over empty base relations. The Program
// is validated first (Program.Validate; Compile's output always passes):
// if it is inconsistent, Err reports why and every event fails with that
// error instead of running.
func NewInterp(p *Program) *Interp {
	in := &Interp{prog: p, maps: map[string]*imap{}, trig: map[string]*Trigger{}, base: map[string]*imap{},
		likes: map[string]*runtime.LikePattern{}, res: map[string]*regexp.Regexp{}, sql: p.Dialect == lang.SQL}
	for _, m := range p.Maps {
		in.maps[m.Name] = newIMap()
		if m.Init != 0 {
			in.maps[m.Name].add(nil, m.Init)
		}
		for _, e := range m.InitEntries {
			in.maps[m.Name].add(e.Keys, e.Value)
		}
	}
	for _, t := range p.Triggers {
		in.trig[triggerKey(t.Event.Rel, t.Event.Insert)] = t
	}
	in.rels = RuntimeRelations(p.Relations)
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			for _, m := range s.RHS {
				for _, f := range m.Factors {
					calculus.Walk(f, func(u calculus.Term) {
						if r, ok := u.(*calculus.Rel); ok && in.base[r.Name] == nil {
							in.base[r.Name] = newIMap()
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
			rr.Columns = append(rr.Columns, runtime.Column{Name: c.Name, Type: ColumnType(c.Type)})
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
	in     *Interp
	events []ievent
}

func (b *ibatch) Add(rel int, insert bool, fields [][]byte) error {
	t, err := ParseTuple(b.in.rels[rel], fields)
	if err != nil {
		return err
	}
	b.events = append(b.events, ievent{b.in.rels[rel].Name, insert, t})
	return nil
}

func (b *ibatch) Len() int { return len(b.events) }

// NewBatch implements runtime.Engine.
func (in *Interp) NewBatch() runtime.Batch { return &ibatch{in: in} }

// ApplyBatch implements runtime.Engine. It stops at the first event that
// fails (see Err) and returns its error.
func (in *Interp) ApplyBatch(b runtime.Batch) error {
	ib, ok := b.(*ibatch)
	if !ok || ib.in != in {
		return fmt.Errorf("ApplyBatch: the batch (%T) was not made by this interpreter's NewBatch", b)
	}
	for _, e := range ib.events {
		if err := in.Fire(e.rel, e.insert, e.tuple); err != nil {
			return err
		}
	}
	return nil
}

// Fire runs the trigger of one event. It returns Err when the interpreter
// is stopped, and stops it with an error naming the query file, the event
// and the statement when the trigger cannot run (an internal
// inconsistency: Validate rules out the ones it knows).
func (in *Interp) Fire(rel string, insert bool, tuple []any) (err error) {
	if in.err != nil {
		return in.err
	}
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
	if bm := in.base[rel]; bm != nil {
		d := 1.0
		if !insert {
			d = -1
		}
		bm.add(tuple, d)
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
	type update struct {
		m    *imap
		keys []any
		v    float64
	}
	var buffered []update
	for _, s := range t.Stmts {
		if s.Buffered {
			cur = s
			in.evalStmt(s, env, func(keys []any, v float64) {
				buffered = append(buffered, update{in.maps[s.Map.Name], keys, v})
			})
		}
	}
	for _, s := range t.Stmts {
		if s.Buffered {
			continue
		}
		cur = s
		m := in.maps[s.Map.Name]
		var ups []update
		in.evalStmt(s, env, func(keys []any, v float64) { ups = append(ups, update{m, keys, v}) })
		if s.Replace {
			// Every entry matching the keys the event binds is replaced.
			mask, vals := boundKeys(nil, s.Keys, env)
			var old []*ientry
			m.each(mask, vals, func(e *ientry) { old = append(old, e) })
			for _, e := range old {
				m.remove(e)
			}
		}
		for _, u := range ups {
			u.m.add(u.keys, u.v)
		}
	}
	cur = nil
	for _, u := range buffered {
		u.m.add(u.keys, u.v)
	}
	return nil
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

// imap is a map from key tuples to non-zero values. Reads that bind some
// of the keys go through a secondary index per set of bound positions,
// built on first use and maintained by add and remove.
type imap struct {
	entries map[string]*ientry // by encodeKey of all keys
	indexes map[uint64]*index  // by mask of the bound positions
	nindex  int
}

type ientry struct {
	key  string // encodeKey(keys)
	keys []any
	val  float64
	pos  []int32 // the entry's position in its bucket of each index, by index id
}

// index groups a map's entries by their keys at the positions of mask.
type index struct {
	id      int
	mask    uint64
	buckets map[string]*bucket // by encodeKey of the keys at mask
}

type bucket struct{ es []*ientry }

func newIMap() *imap {
	return &imap{entries: map[string]*ientry{}, indexes: map[uint64]*index{}}
}

func (m *imap) add(keys []any, v float64) {
	if v == 0 {
		return
	}
	var buf [64]byte
	k := appendKey(buf[:0], keys)
	e := m.entries[string(k)]
	if e == nil {
		e = &ientry{key: string(k), keys: append([]any{}, keys...), pos: make([]int32, m.nindex)}
		m.entries[e.key] = e
		for _, ix := range m.indexes {
			ix.insert(e)
		}
	}
	e.val += v
	if e.val == 0 {
		m.remove(e)
	}
}

func (m *imap) remove(e *ientry) {
	delete(m.entries, e.key)
	for _, ix := range m.indexes {
		ix.remove(e)
	}
}

func (m *imap) get(keys []any) float64 {
	var buf [64]byte
	if e := m.entries[string(appendKey(buf[:0], keys))]; e != nil {
		return e.val
	}
	return 0
}

// each calls f on every entry whose keys at the positions of mask equal
// vals (in order): all entries when mask is 0, else those of an index. f
// must not change m.
func (m *imap) each(mask uint64, vals []any, f func(*ientry)) {
	if mask == 0 {
		for _, e := range m.entries {
			f(e)
		}
		return
	}
	ix := m.indexes[mask]
	if ix == nil {
		ix = &index{id: m.nindex, mask: mask, buckets: map[string]*bucket{}}
		m.nindex++
		m.indexes[mask] = ix
		for _, e := range m.entries {
			e.pos = append(e.pos, 0)
			ix.insert(e)
		}
	}
	var buf [64]byte
	if b := ix.buckets[string(appendKey(buf[:0], vals))]; b != nil {
		for _, e := range b.es {
			f(e)
		}
	}
}

func (ix *index) insert(e *ientry) {
	var buf [64]byte
	p := ix.project(buf[:0], e.keys)
	b := ix.buckets[string(p)]
	if b == nil {
		b = &bucket{}
		ix.buckets[string(p)] = b
	}
	e.pos[ix.id] = int32(len(b.es))
	b.es = append(b.es, e)
}

func (ix *index) remove(e *ientry) {
	var buf [64]byte
	p := ix.project(buf[:0], e.keys)
	b := ix.buckets[string(p)]
	i, last := e.pos[ix.id], b.es[len(b.es)-1]
	b.es[i], last.pos[ix.id] = last, i
	b.es[len(b.es)-1] = nil
	b.es = b.es[:len(b.es)-1]
	if len(b.es) == 0 {
		delete(ix.buckets, string(p))
	}
}

// project appends the encoding of the keys at the positions of ix.mask.
func (ix *index) project(b []byte, keys []any) []byte {
	for i, k := range keys {
		if ix.mask&(1<<i) != 0 {
			b = appendValue(b, k)
		}
	}
	return b
}

// appendKey appends an encoding of keys to b that is equal for equal key
// tuples: int64 and integral float64 values encode alike (equalValues
// compares them numerically), other types are tagged, strings are
// length-prefixed.
func appendKey(b []byte, keys []any) []byte {
	for _, k := range keys {
		b = appendValue(b, k)
	}
	return b
}

func appendValue(b []byte, k any) []byte {
	switch x := k.(type) {
	case int64:
		b = binary.LittleEndian.AppendUint64(append(b, 'n'), uint64(x))
	case float64:
		if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 {
			b = binary.LittleEndian.AppendUint64(append(b, 'n'), uint64(int64(x)))
		} else {
			b = binary.LittleEndian.AppendUint64(append(b, 'f'), math.Float64bits(x))
		}
	case string:
		b = append(binary.AppendUvarint(append(b, 's'), uint64(len(x))), x...)
	case runtime.Date:
		b = binary.LittleEndian.AppendUint64(append(b, 'd'), uint64(x))
	case nil:
		b = append(b, '0')
	default:
		panic(fmt.Sprintf("interp: cannot encode key %v (%T)", k, k))
	}
	return b
}

// evalStmt evaluates a statement's RHS, emitting (keys, value) per result.
func (in *Interp) evalStmt(s *Stmt, env *env, emit func([]any, float64)) {
	for _, m := range s.RHS {
		in.evalFactors(m.Factors, env, m.Coef, func(v float64) {
			keys := make([]any, len(s.Keys))
			for i, k := range s.Keys {
				keys[i], _ = env.get(k.Name)
			}
			emit(keys, v)
		})
	}
}

// evalFactors evaluates a product left to right with sideways binding,
// calling k with the product's value under each binding of its variables.
func (in *Interp) evalFactors(fs []calculus.Term, env *env, acc float64, k func(float64)) {
	if acc == 0 {
		return
	}
	if len(fs) == 0 {
		k(acc)
		return
	}
	in.eval(fs[0], env, func(v float64) {
		in.evalFactors(fs[1:], env, acc*v, k)
	})
}

// eval evaluates a term under env, calling k with each non-zero result
// while env holds the bindings the result adds (continuation-passing: the
// bindings are undone when k returns).
func (in *Interp) eval(t calculus.Term, env *env, k func(float64)) {
	switch x := t.(type) {
	case *calculus.Val:
		if v := toFloat(in.evalExpr(x.E, env)); v != 0 {
			k(v)
		}
		return
	case *calculus.MapRef:
		in.scan(in.maps[x.Name], x.Keys, env, k)
		return
	case *calculus.Rel:
		in.scan(in.base[x.Name], x.Vars, env, k)
		return
	case *calculus.Prod:
		in.evalFactors(x.Factors, env, 1, k)
		return
	case *calculus.Sum:
		for _, u := range x.Terms {
			in.eval(u, env, k)
		}
		return
	case *calculus.Neg:
		in.eval(x.T, env, func(v float64) { k(-v) })
		return
	case *calculus.AggSum:
		// Sum T's results per value of the group variables; the other
		// variables T binds are not visible outside.
		if len(x.Group) == 0 {
			s := 0.0
			in.eval(x.T, env, func(v float64) { s += v })
			if s != 0 {
				k(s)
			}
			return
		}
		type group struct {
			keys []any
			v    float64
		}
		groups := map[string]*group{}
		var order []*group
		in.eval(x.T, env, func(v float64) {
			var buf [64]byte
			kb := buf[:0]
			for _, gv := range x.Group {
				v, _ := env.get(gv.Name)
				kb = appendValue(kb, v)
			}
			g := groups[string(kb)]
			if g == nil {
				keys := make([]any, len(x.Group))
				for i, gv := range x.Group {
					keys[i], _ = env.get(gv.Name)
				}
				g = &group{keys: keys}
				groups[string(kb)] = g
				order = append(order, g)
			}
			g.v += v
		})
		for _, g := range order {
			if g.v == 0 {
				continue
			}
			mark := env.mark()
			for i, gv := range x.Group {
				if _, ok := env.get(gv.Name); !ok {
					env.bind(gv.Name, g.keys[i])
				}
			}
			k(g.v)
			env.reset(mark)
		}
		return
	case *calculus.Lift:
		var v any
		if val, ok := x.T.(*calculus.Val); ok {
			v = in.evalExpr(val.E, env)
		} else if ex, ok := x.T.(*calculus.Extreme); ok {
			v = in.extreme(ex, env)
		} else {
			s := 0.0
			in.eval(x.T, env, func(r float64) { s += r })
			v = s
		}
		if old, ok := env.get(x.V.Name); ok {
			if equalValues(old, v) {
				k(1)
			}
			return
		}
		mark := env.mark()
		env.bind(x.V.Name, coerce(v, x.V.Type))
		k(1)
		env.reset(mark)
		return
	case *calculus.Extreme:
		// Only under Lift, which binds the value (see extreme); as a
		// multiplicity it must be numeric.
		if best := toFloat(in.extreme(x, env)); best != 0 {
			k(best)
		}
		return
	case *calculus.Exists:
		// 1 for each distinct binding of the variables T binds where T's
		// results sum to non-zero; those bindings stay visible.
		type group struct {
			bs []binding
			v  float64
		}
		groups := map[string]*group{}
		var order []*group
		base := env.mark()
		in.eval(x.T, env, func(v float64) {
			bs := append([]binding{}, env.b[base:]...)
			key := encodeBindings(bs)
			if g := groups[key]; g != nil {
				g.v += v
			} else {
				g = &group{bs, v}
				groups[key] = g
				order = append(order, g)
			}
		})
		for _, g := range order {
			if g.v == 0 {
				continue
			}
			env.b = append(env.b, g.bs...)
			k(1)
			env.reset(base)
		}
		return
	}
	panic(fmt.Sprintf("interp: unknown term %T", t))
}

// encodeBindings encodes a set of bindings independently of their order.
func encodeBindings(bs []binding) string {
	s := append([]binding{}, bs...)
	sort.Slice(s, func(i, j int) bool { return s[i].name < s[j].name })
	var b []byte
	for _, x := range s {
		b = append(b, x.name...)
		b = append(b, '=')
		b = appendValue(b, x.val)
	}
	return string(b)
}

// scan reads a map at keys: a lookup when all are bound, else a loop over
// the entries that match the bound ones (through an index), binding the
// others. (Map order: float sums may differ in the last bits between runs;
// comparisons allow it.)
func (in *Interp) scan(m *imap, keys []calculus.Var, env *env, k func(float64)) {
	var buf [8]any
	mask, vals := boundKeys(buf[:0], keys, env)
	if len(vals) == len(keys) {
		if v := m.get(vals); v != 0 {
			k(v)
		}
		return
	}
	// Each unbound key is bound to the entry's value, or, when its variable
	// repeats an earlier unbound key, must equal that key's value.
	var first [64]int8
	for i, kv := range keys {
		first[i] = int8(i)
		for j := range i {
			if mask&(1<<j) == 0 && keys[j].Name == kv.Name {
				first[i] = int8(j)
				break
			}
		}
	}
	m.each(mask, vals, func(e *ientry) {
		mark := env.mark()
		ok := true
		for i, kv := range keys {
			switch {
			case mask&(1<<i) != 0:
			case first[i] == int8(i):
				env.bind(kv.Name, e.keys[i])
			default:
				ok = ok && equalValues(e.keys[first[i]], e.keys[i])
			}
		}
		if ok {
			k(e.val)
		}
		env.reset(mark)
	})
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
		rv.Keys = append(rv.Keys, runtime.Column{Name: k.Name, Type: ColumnType(k.Var.Type)})
	}
	for _, val := range v.Values {
		rv.Values = append(rv.Values, runtime.Column{Name: val.Name, Type: ColumnType(val.Type)})
	}
	var groups [][]any
	if v.Scalar {
		groups = [][]any{{}}
	} else {
		for _, e := range in.maps[v.Aggs[0].Name].entries {
			groups = append(groups, e.keys)
		}
	}
	for _, keys := range groups {
		env := &env{}
		for i, k := range v.Keys {
			env.bind(k.Name, keys[i])
			env.bind(k.Var.Name, keys[i])
		}
		aggs := make([]float64, len(v.Aggs))
		for i, m := range v.Aggs {
			if pos, ok := v.AggKeys[i]; ok && m != nil {
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
		row := append([]any{}, keys...)
		for _, val := range v.Values {
			if v.Distinct {
				row = append(row, int64(1))
				continue
			}
			row = append(row, coerce(in.evalExpr(val.E, env), val.Type))
		}
		rv.Rows = append(rv.Rows, row)
	}
	in.aggs = nil
	runtime.SortRows(rv.Rows, len(v.Keys))
	return rv
}

// extreme returns the least (or greatest) value of x.Arg over the rows of
// x.T with a non-zero multiplicity, compared as runtime.CompareValues does
// (numbers, strings and dates); the zero value of its type when there is none.
func (in *Interp) extreme(x *calculus.Extreme, env *env) any {
	found := false
	var best any
	in.eval(x.T, env, func(r float64) {
		if r == 0 {
			return
		}
		a, _ := env.get(x.Arg.Name)
		v := numify(a)
		if !found {
			best, found = v, true
			return
		}
		if c := runtime.CompareValues(v, best); (x.Max && c > 0) || (!x.Max && c < 0) {
			best = v
		}
	})
	if !found {
		return zeroOf(x.Arg.Type)
	}
	return coerce(best, x.Arg.Type)
}

// zeroOf is the value of an empty MIN or MAX of type t (as in generated
// code, the zero value of its Go type).
func zeroOf(t lang.Type) any {
	switch t {
	case lang.TString:
		return ""
	case lang.TDate:
		return runtime.Date(0)
	}
	return coerce(int64(0), t)
}
