package viewlet

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

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
	base  map[string]*imap // base relations, for evaluating definitions directly
	likes map[string]*runtime.LikePattern
	res   map[string]*regexp.Regexp
	aggs  []float64 // the current group's aggregates while reading a view
	group []any     // the current group's keys while reading a view
	view_ *View
}

type imap struct {
	entries map[string]*ientry
}

type ientry struct {
	keys []any
	val  float64
}

// NewInterp returns an interpreter over empty base relations.
func NewInterp(p *Program) *Interp {
	in := &Interp{prog: p, maps: map[string]*imap{}, trig: map[string]*Trigger{}, base: map[string]*imap{},
		likes: map[string]*runtime.LikePattern{}, res: map[string]*regexp.Regexp{}}
	for _, m := range p.Maps {
		in.maps[m.Name] = &imap{entries: map[string]*ientry{}}
	}
	for _, t := range p.Triggers {
		in.trig[triggerKey(t.Event.Rel, t.Event.Insert)] = t
	}
	in.rels = RuntimeRelations(p.Relations)
	for _, r := range p.Relations {
		in.base[r.Name] = &imap{entries: map[string]*ientry{}}
	}
	return in
}

// RuntimeRelations converts declared relations to the runtime's description.
func RuntimeRelations(rs []*lang.Relation) []runtime.Relation {
	var out []runtime.Relation
	for _, r := range rs {
		rr := runtime.Relation{Name: r.Name, Stream: r.Stream}
		for _, c := range r.Columns {
			rr.Columns = append(rr.Columns, runtime.Column{Name: c.Name, Type: ColumnType(c.Type)})
		}
		if r.Source != nil {
			rr.Source = &runtime.SourceSpec{Path: r.Source.Path, Format: r.Source.Format, Params: r.Source.Params}
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

// ParseTuple parses one event's fields by the relation's column types.
func ParseTuple(r runtime.Relation, fields [][]byte) ([]any, error) {
	if len(fields) != len(r.Columns) {
		return nil, fmt.Errorf("expected %d fields, got %d", len(r.Columns), len(fields))
	}
	tuple := make([]any, len(fields))
	for i, c := range r.Columns {
		var err error
		switch c.Type {
		case runtime.Int:
			tuple[i], err = runtime.ParseInt(fields[i])
		case runtime.Float:
			tuple[i], err = runtime.ParseFloat(fields[i])
		case runtime.DateType:
			tuple[i], err = runtime.ParseDate(fields[i])
		default:
			tuple[i] = string(fields[i])
		}
		if err != nil {
			return nil, fmt.Errorf("column %s: expected %s, got %q", c.Name, strings.ToUpper(c.Type.String()), fields[i])
		}
	}
	return tuple, nil
}

// Apply implements runtime.Engine.
func (in *Interp) Apply(rel int, insert bool, fields [][]byte) error {
	tuple, err := ParseTuple(in.rels[rel], fields)
	if err != nil {
		return err
	}
	in.Fire(in.rels[rel].Name, insert, tuple)
	return nil
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

// ApplyBatch implements runtime.Engine.
func (in *Interp) ApplyBatch(b runtime.Batch) {
	for _, e := range b.(*ibatch).events {
		in.Fire(e.rel, e.insert, e.tuple)
	}
}

// Fire runs the trigger of one event.
func (in *Interp) Fire(rel string, insert bool, tuple []any) {
	bm := in.base[rel]
	d := 1.0
	if !insert {
		d = -1
	}
	bm.add(tuple, d)
	t := in.trig[triggerKey(rel, insert)]
	if t == nil {
		return
	}
	env := map[string]any{}
	for i, a := range t.Event.Args {
		env[a.Name] = tuple[i]
	}
	type update struct {
		m    *imap
		keys []any
		v    float64
	}
	var buffered []update
	for _, s := range t.Stmts {
		if s.Buffered {
			in.evalStmt(s, env, func(keys []any, v float64) {
				buffered = append(buffered, update{in.maps[s.Map.Name], keys, v})
			})
		}
	}
	for _, s := range t.Stmts {
		if s.Buffered {
			continue
		}
		m := in.maps[s.Map.Name]
		if s.Replace {
			var ups []update
			in.evalStmt(s, env, func(keys []any, v float64) { ups = append(ups, update{m, keys, v}) })
			for k, e := range m.entries {
				if matchBound(s.Keys, e.keys, env) {
					delete(m.entries, k)
				}
			}
			for _, u := range ups {
				u.m.add(u.keys, u.v)
			}
			continue
		}
		var ups []update
		in.evalStmt(s, env, func(keys []any, v float64) { ups = append(ups, update{m, keys, v}) })
		for _, u := range ups {
			u.m.add(u.keys, u.v)
		}
	}
	for _, u := range buffered {
		u.m.add(u.keys, u.v)
	}
}

func matchBound(keys []calculus.Var, vals []any, env map[string]any) bool {
	for i, k := range keys {
		if v, ok := env[k.Name]; ok && !equalValues(v, vals[i]) {
			return false
		}
	}
	return true
}

func (m *imap) add(keys []any, v float64) {
	if v == 0 {
		return
	}
	k := encodeKey(keys)
	e := m.entries[k]
	if e == nil {
		e = &ientry{keys: append([]any{}, keys...)}
		m.entries[k] = e
	}
	e.val += v
	if e.val == 0 {
		delete(m.entries, k)
	}
}

func (m *imap) get(keys []any) float64 {
	if e := m.entries[encodeKey(keys)]; e != nil {
		return e.val
	}
	return 0
}

func encodeKey(keys []any) string {
	var b strings.Builder
	for _, k := range keys {
		switch x := k.(type) {
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1e15 {
				fmt.Fprintf(&b, "n%d|", int64(x))
			} else {
				fmt.Fprintf(&b, "f%v|", x)
			}
		case int64:
			fmt.Fprintf(&b, "n%d|", x)
		default:
			fmt.Fprintf(&b, "%T%v|", k, k)
		}
	}
	return b.String()
}

// evalStmt evaluates a statement's RHS, emitting (keys, value) per result.
func (in *Interp) evalStmt(s *Stmt, env map[string]any, emit func([]any, float64)) {
	for _, m := range s.RHS {
		in.evalFactors(m.Factors, env, m.Coef, func(e map[string]any, v float64) {
			keys := make([]any, len(s.Keys))
			for i, k := range s.Keys {
				keys[i] = e[k.Name]
			}
			emit(keys, v)
		})
	}
}

func copyEnv(env map[string]any) map[string]any {
	e := make(map[string]any, len(env)+4)
	for k, v := range env {
		e[k] = v
	}
	return e
}

// evalFactors evaluates a product left to right with sideways binding.
func (in *Interp) evalFactors(fs []calculus.Term, env map[string]any, acc float64, emit func(map[string]any, float64)) {
	if acc == 0 {
		return
	}
	if len(fs) == 0 {
		emit(env, acc)
		return
	}
	for _, r := range in.eval(fs[0], env) {
		in.evalFactors(fs[1:], r.env, acc*r.v, emit)
	}
}

type result struct {
	env map[string]any
	v   float64
}

// eval evaluates a term under env, returning its non-zero results with the
// bindings they add.
func (in *Interp) eval(t calculus.Term, env map[string]any) []result {
	switch x := t.(type) {
	case *calculus.Val:
		v := toFloat(in.evalExpr(x.E, env))
		if v == 0 {
			return nil
		}
		return []result{{env, v}}
	case *calculus.MapRef:
		return in.scan(in.maps[x.Name], x.Keys, env)
	case *calculus.Rel:
		return in.scan(in.base[x.Name], x.Vars, env)
	case *calculus.Prod:
		var out []result
		in.evalFactors(x.Factors, env, 1, func(e map[string]any, v float64) { out = append(out, result{e, v}) })
		return out
	case *calculus.Sum:
		var out []result
		for _, u := range x.Terms {
			out = append(out, in.eval(u, env)...)
		}
		return out
	case *calculus.Neg:
		out := in.eval(x.T, env)
		for i := range out {
			out[i].v = -out[i].v
		}
		return out
	case *calculus.AggSum:
		groups := map[string]*result{}
		var order []string
		for _, r := range in.eval(x.T, env) {
			keys := make([]any, len(x.Group))
			for i, g := range x.Group {
				keys[i] = r.env[g.Name]
			}
			k := encodeKey(keys)
			g := groups[k]
			if g == nil {
				e := copyEnv(env)
				for i, gv := range x.Group {
					e[gv.Name] = keys[i]
				}
				g = &result{env: e}
				groups[k] = g
				order = append(order, k)
			}
			g.v += r.v
		}
		var out []result
		for _, k := range order {
			if groups[k].v != 0 {
				out = append(out, *groups[k])
			}
		}
		return out
	case *calculus.Lift:
		var v any
		if val, ok := x.T.(*calculus.Val); ok {
			v = in.evalExpr(val.E, env)
		} else if ex, ok := x.T.(*calculus.Extreme); ok {
			v = in.extreme(ex, env)
		} else {
			s := 0.0
			for _, r := range in.eval(x.T, env) {
				s += r.v
			}
			v = s
		}
		if old, ok := env[x.V.Name]; ok {
			if equalValues(old, v) {
				return []result{{env, 1}}
			}
			return nil
		}
		e := copyEnv(env)
		e[x.V.Name] = coerce(v, x.V.Type)
		return []result{{e, 1}}
	case *calculus.Extreme:
		// Only under Lift, which binds the value (see extreme); as a
		// multiplicity it must be numeric.
		best := toFloat(in.extreme(x, env))
		if best == 0 {
			return nil
		}
		return []result{{env, best}}
	case *calculus.Exists:
		groups := map[string]*result{}
		var order []string
		for _, r := range in.eval(x.T, env) {
			k := encodeEnv(r.env)
			if g := groups[k]; g != nil {
				g.v += r.v
			} else {
				groups[k] = &result{r.env, r.v}
				order = append(order, k)
			}
		}
		var out []result
		for _, k := range order {
			if groups[k].v != 0 {
				out = append(out, result{groups[k].env, 1})
			}
		}
		return out
	}
	panic(fmt.Sprintf("interp: unknown term %T", t))
}

func encodeEnv(env map[string]any) string {
	ks := make([]string, 0, len(env))
	for k := range env {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	vals := make([]any, len(ks))
	for i, k := range ks {
		vals[i] = env[k]
	}
	return strings.Join(ks, ",") + "=" + encodeKey(vals)
}

// scan reads a map at keys: a lookup when all are bound, else a loop over
// the entries that match the bound ones.
func (in *Interp) scan(m *imap, keys []calculus.Var, env map[string]any) []result {
	all := true
	vals := make([]any, len(keys))
	for i, k := range keys {
		v, ok := env[k.Name]
		if !ok {
			all = false
		}
		vals[i] = v
	}
	if all {
		if v := m.get(vals); v != 0 {
			return []result{{env, v}}
		}
		return nil
	}
	// A loop over the entries that match the bound keys. (Map order: float
	// sums may differ in the last bits between runs; comparisons allow it.)
	var out []result
	for _, e := range m.entries {
		ok := true
		for i, kv := range keys {
			if b, bound := env[kv.Name]; bound && !equalValues(b, e.keys[i]) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		ext := copyEnv(env)
		for i, kv := range keys {
			if b, bound := ext[kv.Name]; bound {
				if !equalValues(b, e.keys[i]) { // a key repeated in the read
					ok = false
					break
				}
			} else {
				ext[kv.Name] = e.keys[i]
			}
		}
		if ok {
			out = append(out, result{ext, e.val})
		}
	}
	return out
}

// Views implements runtime.Engine.
func (in *Interp) Views() []runtime.View {
	var out []runtime.View
	for _, v := range in.prog.Views {
		out = append(out, in.view(v))
	}
	return out
}

func (in *Interp) view(v *View) runtime.View {
	rv := runtime.View{Name: v.Name}
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
		env := map[string]any{}
		for i, k := range v.Keys {
			env[k.Name] = keys[i]
			env[k.Var.Name] = keys[i]
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
func (in *Interp) extreme(x *calculus.Extreme, env map[string]any) any {
	found := false
	var best any
	for _, r := range in.eval(x.T, env) {
		if r.v == 0 {
			continue
		}
		v := numify(r.env[x.Arg.Name])
		if !found {
			best, found = v, true
			continue
		}
		if c := runtime.CompareValues(v, best); (x.Max && c > 0) || (!x.Max && c < 0) {
			best = v
		}
	}
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
