package viewlet

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// Compile turns the translated queries of a file into a Program, checked by
// Validate: a Program that Compile returns runs in the interpreter without
// an unbound variable, and the same inconsistency is an error for every
// engine. An internal inconsistency of the compiler (a panic) is returned
// as an error naming the file, never propagated.
func Compile(f *lang.File, queries []*calculus.Query, opts Options) (p *Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*calculus.DeltaTooLargeError); ok {
				p, err = nil, fmt.Errorf("%s: %w", f.Path, e)
				return
			}
			p, err = nil, calculus.InternalError(f.Path, "viewlet.Compile", r)
		}
	}()
	p, err = compileSynced(f, queries, opts)
	if err != nil {
		return nil, err
	}
	if !opts.FlatViews {
		if p, err = factorizeViews(f, queries, opts, p); err != nil {
			return nil, err
		}
	}
	p.SetTriggers = setTriggers(p)
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// compileSynced compiles the queries and records the kernels' syncs
// (setSyncs); where a kernel's inputs cannot be synced, it compiles them
// again without kernels.
func compileSynced(f *lang.File, queries []*calculus.Query, opts Options) (*Program, error) {
	p, err := compileProgram(f, queries, opts)
	if err != nil || setSyncs(p) {
		return p, err
	}
	opts.noKernels = true
	return compileProgram(f, queries, opts)
}

// Validate checks that every statement of p can be evaluated as the
// interpreter and generated code evaluate it: factors left to right, each
// reading only variables bound by the trigger's arguments or by earlier
// factors (map and relation reads bind their keys, Lift its variable,
// AggSum its group, Exists what its term binds), every map and relation
// read declared with its arity, and the target's keys bound at the end of
// each monomial. Views must read declared maps. The error names the query
// file, the trigger, the statement and the construct at fault.
func (p *Program) Validate() error {
	v := &validator{p: p, maps: map[string]*Map{}, rels: map[string]*lang.Relation{}}
	for _, m := range p.Maps {
		if len(m.Keys) > 64 {
			return fmt.Errorf("%s: %smap %s has %d keys, more than the 64 the interpreter indexes", p.Source, p.queryOf(m.Name), m.Name, len(m.Keys))
		}
		v.maps[m.Name] = m
	}
	for _, r := range p.Relations {
		v.rels[r.Name] = r
	}
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			if err := v.stmt(t, s); err != nil {
				return fmt.Errorf("%s: %scannot evaluate ON %s: %s: %v", p.Source, p.queryOf(s.Map.Name), EventString(t.Event), s, err)
			}
		}
	}
	for _, st := range p.SetTriggers {
		for _, d := range st.Deltas {
			v.maps[d.Name] = d
		}
		for _, t := range append(st.Collect[:], st.Apply) {
			if t == nil {
				continue
			}
			for _, s := range t.Stmts {
				if err := v.stmt(t, s); err != nil {
					return fmt.Errorf("%s: %scannot evaluate ON BATCH OF %s: %s: %v", p.Source, p.queryOf(s.Map.Name), st.Rel, s, err)
				}
			}
		}
	}
	for _, view := range p.Views {
		if err := v.view(view); err != nil {
			return fmt.Errorf("%s: query %s: cannot read the view: %v", p.Source, view.Name, err)
		}
	}
	return nil
}

// queryOf names the query a map was made for ("query Q: "), from the
// prefix of its name, or "" when no view's name is one.
func (p *Program) queryOf(mapName string) string {
	best := ""
	for _, v := range p.Views {
		if (mapName == v.Name || strings.HasPrefix(mapName, v.Name+"_")) && len(v.Name) > len(best) {
			best = v.Name
		}
	}
	if best == "" {
		return ""
	}
	return "query " + best + ": "
}

type validator struct {
	p    *Program
	maps map[string]*Map
	rels map[string]*lang.Relation
}

// bound is a set of bound variable names.
type bound map[string]bool

func (b bound) with(vs ...calculus.Var) bound {
	out := make(bound, len(b)+len(vs))
	for k := range b {
		out[k] = true
	}
	for _, v := range vs {
		out[v.Name] = true
	}
	return out
}

func (v *validator) stmt(t *Trigger, s *Stmt) error {
	if v.maps[s.Map.Name] != s.Map {
		return fmt.Errorf("target map is not declared")
	}
	if len(s.Keys) != len(s.Map.Keys) {
		return fmt.Errorf("%d keys for map %s of %d", len(s.Keys), s.Map.Name, len(s.Map.Keys))
	}
	args := bound{}.with(t.Event.Args...)
	for _, m := range s.RHS {
		b := args
		for _, f := range m.Factors {
			var err error
			if b, err = v.term(f, b); err != nil {
				return err
			}
		}
		for _, k := range s.Keys {
			if !b[k.Name] {
				return fmt.Errorf("key %s of %s is not bound by the trigger's arguments or the right-hand side", k.Name, s.Map.Name)
			}
		}
	}
	return nil
}

// term checks t evaluated with the variables of b bound and returns the
// variables bound after it, as the interpreter's eval binds them.
func (v *validator) term(t calculus.Term, b bound) (bound, error) {
	switch x := t.(type) {
	case *calculus.Val:
		return b, v.expr(x.E, b, calculus.String(x))
	case *calculus.MapRef:
		m := v.maps[x.Name]
		if m == nil {
			return nil, fmt.Errorf("map %s is not declared", x.Name)
		}
		if len(x.Keys) != len(m.Keys) {
			return nil, fmt.Errorf("%s read with %d keys, declared with %d", x.Name, len(x.Keys), len(m.Keys))
		}
		return b.with(x.Keys...), nil
	case *calculus.Rel:
		r := v.rels[x.Name]
		if r == nil {
			return nil, fmt.Errorf("relation %s is not declared", x.Name)
		}
		if n := len(calculus.EventVars(r)); len(x.Vars) != n {
			return nil, fmt.Errorf("%s read with %d variables, declared with %d", x.Name, len(x.Vars), n)
		}
		return b.with(x.Vars...), nil
	case *calculus.Prod:
		for _, f := range x.Factors {
			var err error
			if b, err = v.term(f, b); err != nil {
				return nil, err
			}
		}
		return b, nil
	case *calculus.Sum:
		// What follows a sum sees the bindings of each term in turn: only
		// those every term makes are certain.
		var out bound
		for _, u := range x.Terms {
			ub, err := v.term(u, b)
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = ub
				continue
			}
			for k := range out {
				if !ub[k] {
					delete(out, k)
				}
			}
		}
		if out == nil {
			return b, nil
		}
		return out, nil
	case *calculus.Neg:
		return v.term(x.T, b)
	case *calculus.AggSum:
		inner, err := v.term(x.T, b)
		if err != nil {
			return nil, err
		}
		for _, g := range x.Group {
			if !inner[g.Name] {
				return nil, fmt.Errorf("group variable %s of %s is not bound by its term", g.Name, calculus.String(x))
			}
		}
		return b.with(x.Group...), nil
	case *calculus.Lift:
		switch y := x.T.(type) {
		case *calculus.Val:
			if err := v.expr(y.E, b, calculus.String(x)); err != nil {
				return nil, err
			}
		default:
			if _, err := v.term(y, b); err != nil {
				return nil, err
			}
		}
		return b.with(x.V), nil
	case *calculus.Extreme:
		inner, err := v.term(x.T, b)
		if err != nil {
			return nil, err
		}
		if !inner[x.Arg.Name] {
			return nil, fmt.Errorf("the argument %s of %s is not bound by its term", x.Arg.Name, calculus.String(x))
		}
		return b, nil
	case *calculus.Exists:
		return v.term(x.T, b)
	case nil:
		return nil, fmt.Errorf("missing term")
	}
	return nil, fmt.Errorf("unexpected term %s (%T)", calculus.String(t), t)
}

// expr checks that the variables e reads are bound; in is the construct
// named in the error.
func (v *validator) expr(e lang.Expr, b bound, in string) error {
	if e == nil {
		return fmt.Errorf("missing expression in %s", in)
	}
	for _, u := range calculus.ExprVars(e, nil) {
		if !b[u.Name] {
			return fmt.Errorf("variable %s is not bound in %s", u.Name, in)
		}
	}
	return nil
}

func (v *validator) view(view *View) error {
	if !view.Scalar && (len(view.Aggs) == 0 || view.Aggs[0] == nil) {
		return fmt.Errorf("a grouped view without a row count")
	}
	for i, a := range view.Aggs {
		if a == nil {
			continue
		}
		if v.maps[a.Name] != a {
			return fmt.Errorf("aggregate #%d reads undeclared map %s", i, a.Name)
		}
		want := view.MapKeys()
		if pos, ok := view.AggKeys[i]; ok {
			want = len(pos)
			for _, p := range pos {
				if p == -1 && readOnlyByRange(view, i) {
					continue // a row value's slot (calculus.RangeRef.Exprs)
				}
				if p < 0 || p >= view.MapKeys() {
					return fmt.Errorf("aggregate #%d keyed by view key %d of %d", i, p, view.MapKeys())
				}
			}
		} else if len(a.Keys) == 0 {
			want = 0
		}
		if _, isExtreme := v.extremeRead(view, i); !isExtreme && len(a.Keys) != want {
			return fmt.Errorf("aggregate #%d (%s) has %d keys, read with %d", i, a.Name, len(a.Keys), want)
		}
	}
	b := bound{}
	for _, k := range view.Keys {
		b[k.Name], b[k.Var.Name] = true, true
		if k.Present.Name != "" {
			b[k.Present.Name] = true
		}
	}
	check := func(e lang.Expr, what string) error {
		if err := v.expr(e, b, what); err != nil {
			return err
		}
		var err error
		calculus.WalkExpr(e, func(x lang.Expr) {
			switch r := x.(type) {
			case *calculus.AggRef:
				if r.Index < 0 || r.Index >= len(view.Aggs) {
					err = fmt.Errorf("%s reads aggregate #%d of %d", what, r.Index, len(view.Aggs))
				}
			case *calculus.ExtremeRef:
				if r.Index < 0 || r.Index >= len(view.Aggs) || view.Aggs[r.Index] == nil {
					err = fmt.Errorf("%s reads MIN/MAX #%d, which has no map", what, r.Index)
				}
			case *calculus.RangeRef:
				if r.Index < 0 || r.Index >= len(view.Aggs) || view.Aggs[r.Index] == nil {
					err = fmt.Errorf("%s reads running sum #%d, which has no map", what, r.Index)
				} else if r.Order < 0 || r.Order >= len(r.Keys) || r.Flag >= len(r.Keys) || len(r.Keys) != len(view.Aggs[r.Index].Keys) {
					err = fmt.Errorf("%s reads running sum #%d by key %d of %d", what, r.Index, r.Order, len(r.Keys))
				} else {
					for j, p := range r.Keys {
						if p == -1 && (j >= len(r.Exprs) || r.Exprs[j] == nil) {
							err = fmt.Errorf("%s reads running sum #%d with no value for its key %d", what, r.Index, j)
						}
					}
				}
			}
		})
		return err
	}
	for _, val := range view.Values {
		if err := check(val.E, "column "+val.Name); err != nil {
			return err
		}
	}
	if view.Having != nil {
		if err := check(view.Having, "HAVING"); err != nil {
			return err
		}
	}
	return nil
}

// extremeRead reports whether a view reads aggregate i through an
// ExtremeRef (a map keyed by the group and the MIN/MAX value).
// readOnlyByRange reports whether aggregate i of view is read by running
// sums only.
func readOnlyByRange(view *View, i int) bool {
	ranged, other := false, false
	visit := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			switch r := x.(type) {
			case *calculus.RangeRef:
				ranged = ranged || r.Index == i
			case *calculus.AggRef:
				other = other || r.Index == i
			case *calculus.ExtremeRef:
				other = other || r.Index == i
			}
		})
	}
	for _, val := range view.Values {
		visit(val.E)
		visit(val.Present)
	}
	visit(view.Having)
	return ranged && !other
}

func (v *validator) extremeRead(view *View, i int) (*calculus.ExtremeRef, bool) {
	var found *calculus.ExtremeRef
	visit := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			if r, ok := x.(*calculus.ExtremeRef); ok && r.Index == i {
				found = r
			}
		})
	}
	for _, val := range view.Values {
		visit(val.E)
	}
	if view.Having != nil {
		visit(view.Having)
	}
	return found, found != nil
}
