package viewlet

import (
	"fmt"
	"sort"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// The interpreter evaluates a statement in the type of its map, as
// generated code does: int64 for an INT map, whose products and sums are
// checked (an overflow sets Interp.overflow and keeps the wrapped value,
// see Fire), float64 for a FLOAT map. A nested sum under Lift is of its
// term's type; the sums that Exists tests and the multiplicities MIN and
// MAX read are float64.

// ring is the type a term is evaluated in.
type ring interface{ int64 | float64 }

// isInt reports whether T is int64.
func isInt[T ring]() bool {
	var z T
	_, ok := any(z).(int64)
	return ok
}

// ev evaluates terms in T.
type ev[T ring] struct{ in *Interp }

// mul returns a × b; an int64 overflow is recorded and the product wraps.
func (v ev[T]) mul(a, b T) T {
	if isInt[T]() {
		p, o := runtime.MulInt(int64(a), int64(b))
		if o {
			v.in.overflow = true
		}
		return T(p)
	}
	return a * b
}

// add returns a + b; an int64 overflow is recorded and the sum wraps.
func (v ev[T]) add(a, b T) T {
	if isInt[T]() {
		s, o := runtime.AddInt(int64(a), int64(b))
		if o {
			v.in.overflow = true
		}
		return T(s)
	}
	return a + b
}

// sum returns the sum of t's results.
func (v ev[T]) sum(t calculus.Term, env *env) T {
	var s T
	v.eval(t, env, func(r T) { s = v.add(s, r) })
	return s
}

// toRing converts the value of an expression (int64, float64, or a Date's
// yyyymmdd) to T, as generated code converts (a float to an int truncates).
func toRing[T ring](x any) T {
	switch y := x.(type) {
	case int64:
		return T(y)
	case float64:
		return T(y)
	}
	return T(toFloat(x))
}

// evalStmt evaluates a statement's RHS in T (the type of its map),
// emitting (keys, value) per result.
func evalStmt[T ring](in *Interp, s *Stmt, env *env, emit func([]any, T)) {
	v := ev[T]{in}
	for _, m := range s.RHS {
		v.factors(m.Factors, env, T(m.Coef), func(x T) {
			keys := make([]any, len(s.Keys))
			for i, k := range s.Keys {
				keys[i], _ = env.get(k.Name)
			}
			emit(keys, x)
		})
	}
}

// factors evaluates a product left to right with sideways binding,
// calling k with the product's value under each binding of its variables.
// acc is the product so far, times each factor's value in turn (checked).
func (v ev[T]) factors(fs []calculus.Term, env *env, acc T, k func(T)) {
	if acc == 0 {
		return
	}
	if len(fs) == 0 {
		k(acc)
		return
	}
	v.eval(fs[0], env, func(x T) {
		v.factors(fs[1:], env, v.mul(acc, x), k)
	})
}

// eval evaluates a term under env, calling k with each non-zero result
// while env holds the bindings the result adds (continuation-passing: the
// bindings are undone when k returns).
func (v ev[T]) eval(t calculus.Term, env *env, k func(T)) {
	in := v.in
	switch x := t.(type) {
	case *calculus.Val:
		if r := toRing[T](in.evalExpr(x.E, env)); r != 0 {
			k(r)
		}
		return
	case *calculus.MapRef:
		v.scan(in.maps[x.Name], x.Keys, env, k)
		return
	case *calculus.Rel:
		v.scan(in.base[x.Name], x.Vars, env, k)
		return
	case *calculus.Prod:
		v.factors(x.Factors, env, 1, k)
		return
	case *calculus.Sum:
		for _, u := range x.Terms {
			v.eval(u, env, k)
		}
		return
	case *calculus.Neg:
		v.eval(x.T, env, func(r T) { k(v.mul(-1, r)) })
		return
	case *calculus.AggSum:
		// Sum T's results per value of the group variables; the other
		// variables T binds are not visible outside.
		if len(x.Group) == 0 {
			if s := v.sum(x.T, env); s != 0 {
				k(s)
			}
			return
		}
		type group struct {
			keys []any
			v    T
		}
		groups := map[string]*group{}
		var order []*group
		v.eval(x.T, env, func(r T) {
			var buf [64]byte
			kb := buf[:0]
			for _, gv := range x.Group {
				gval, _ := env.get(gv.Name)
				kb = appendValue(kb, gval)
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
			g.v = v.add(g.v, r)
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
		// The value of a nested sum is of its term's type, as in
		// generated code.
		var val any
		if e, ok := x.T.(*calculus.Val); ok {
			val = in.evalExpr(e.E, env)
		} else if ex, ok := x.T.(*calculus.Extreme); ok {
			val = in.extreme(ex, env)
		} else if calculus.TypeOf(x.T) == lang.TInt {
			val = ev[int64]{in}.sum(x.T, env)
		} else {
			val = ev[float64]{in}.sum(x.T, env)
		}
		if old, ok := env.get(x.V.Name); ok {
			if equalValues(old, val) {
				k(1)
			}
			return
		}
		mark := env.mark()
		env.bind(x.V.Name, coerce(val, x.V.Type))
		k(1)
		env.reset(mark)
		return
	case *calculus.Extreme:
		// Only under Lift, which binds the value (see extreme); as a
		// multiplicity it must be numeric.
		if best := toRing[T](in.extreme(x, env)); best != 0 {
			k(best)
		}
		return
	case *calculus.Exists:
		// 1 for each distinct binding of the variables T binds where T's
		// results sum to non-zero; those bindings stay visible. The sums
		// are float64, as generated code counts them.
		type group struct {
			bs []binding
			v  float64
		}
		groups := map[string]*group{}
		var order []*group
		base := env.mark()
		ev[float64]{in}.eval(x.T, env, func(r float64) {
			bs := append([]binding{}, env.b[base:]...)
			key := encodeBindings(bs)
			if g := groups[key]; g != nil {
				g.v += r
			} else {
				g = &group{bs, r}
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
func (v ev[T]) scan(m *imap, keys []calculus.Var, env *env, k func(T)) {
	var buf [8]any
	mask, vals := boundKeys(buf[:0], keys, env)
	v.in.work++
	if len(vals) == len(keys) {
		if e := m.lookup(vals); e != nil {
			k(entryValue[T](m, e))
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
		v.in.work++
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
			k(entryValue[T](m, e))
		}
		env.reset(mark)
	})
}

// extreme returns the least (or greatest) value of x.Arg over the rows of
// x.T with a non-zero multiplicity, compared as runtime.CompareValues does
// (numbers, strings and dates); the zero value of its type when there is none.
func (in *Interp) extreme(x *calculus.Extreme, env *env) any {
	if x.Hol != nil {
		var c counted
		ev[int64]{in}.eval(x.T, env, func(r int64) {
			if v, _ := env.get(x.Arg.Name); r != 0 {
				c.add(v, r)
			}
		})
		t := x.Arg.Type
		if x.Hol.Fn == "PERCENTILE_CONT" {
			t = lang.TFloat
		}
		return c.holistic(x.Hol, t)
	}
	found := false
	var best any
	ev[float64]{in}.eval(x.T, env, func(r float64) {
		if r == 0 {
			return
		}
		v, _ := env.get(x.Arg.Name)
		if !found {
			best, found = v, true
			return
		}
		if c := compareNum(v, best); (x.Max && c > 0) || (!x.Max && c < 0) {
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
