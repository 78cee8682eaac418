package codegen

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// The typed trigger methods, Insert<Rel> and Delete<Rel>.

// triggers emits InsertR and DeleteR for relation r. Each returns an
// error: when the event's integer arithmetic overflows (see numbers.go),
// the method ends by calling rejectInsertR (rejectDeleteR), which undoes
// the event by running the inverse method (with e.undoing set, so that it
// does not reject in turn) and returns a *runtime.EventError.
func (g *gen) triggers(r *lang.Relation) error {
	type method struct {
		name, verb   string
		insert       bool
		t            *viewlet.Trigger
		params, args []jen.Code
		code         []jen.Code
		// reads are the columns the statements read, when fewer than all:
		// the statements are then the unexported method body of their own
		// (see bodyName), taking only these.
		reads []int
		// prelude normalizes the NULL arguments the statements read.
		prelude []jen.Code
	}
	var ms []*method
	checked := false
	for _, ins := range []bool{true, false} {
		m := &method{name: "Delete" + exportedName(r.Name), verb: "deletes one tuple from", insert: ins}
		if ins {
			m.name, m.verb = "Insert"+exportedName(r.Name), "inserts one tuple into"
		}
		for _, tt := range g.p.Triggers {
			if tt.Event.Rel == r.Name && tt.Event.Insert == ins {
				m.t = tt
			}
		}
		sc := scope{}
		var prelude []jen.Code
		nulls := 0
		for i, c := range r.Columns {
			a := calculus.Var{Name: strings.ToLower(c.Name), Type: c.Type}
			if m.t != nil {
				a = m.t.Event.Args[i]
			}
			n := varName(a.Name)
			m.params = append(m.params, jen.Id(n).Add(columnType(c)))
			m.args = append(m.args, jen.Id(n))
			if !c.Nullable {
				sc[a.Name] = jen.Id(n)
				continue
			}
			// A nullable column is its value (zero for NULL) and its
			// presence flag (calculus.EventVars).
			sc[a.Name] = jen.Id(n).Dot("V")
			if m.t != nil {
				sc[m.t.Event.Args[len(r.Columns)+nulls].Name] = jen.Id(n).Dot("Flag").Call()
			}
			nulls++
			// A NULL's value must be the zero value where the trigger
			// reads it (a key, a group), whatever the caller passed.
			if m.t != nil && triggerReads(m.t, a.Name) {
				prelude = append(prelude, jen.If(jen.Op("!").Id(n).Dot("Valid")).Block(jen.Id(n).Op("=").Qual(runtimePkg, "Null").Types(goType(c.Type)).Values()))
			}
		}
		before := g.checks
		code, err := g.triggerBody(m.t, sc)
		if err != nil {
			return err
		}
		if len(code) > 0 {
			// Top-K views: move the rows the statements changed.
			code = append(code, g.topReorders(m.t.Stmts)...)
			// Kernels, then factorized views: what the event wrote.
			code = append(code, g.kernelSyncs(m.t, sc)...)
			code = append(code, g.treeTouches(m.t, sc)...)
			code = append(code, g.markDirty(m.t)...)
		}
		m.code = code
		if len(code) > 0 {
			for i := range r.Columns {
				if triggerReadsColumn(m.t, r, i) {
					m.reads = append(m.reads, i)
				}
			}
			if len(m.reads) == len(r.Columns) && len(prelude) == 0 {
				m.reads = nil
			}
			// The statements' own method is called with NULLs as parsed
			// (zero values); the exported one normalizes its arguments.
			m.prelude = prelude
			if m.reads == nil {
				m.code = append(prelude, code...)
			}
		}
		checked = checked || g.checks > before
		ms = append(ms, m)
	}
	for i, m := range ms {
		inverse := ms[1-i]
		recv := jen.Id("e").Op("*").Id("Engine")
		code := m.code
		if m.reads != nil {
			// The statements take only the columns they read: Apply and
			// ApplyBatch call them with those (NULLs as parsed, zero), and
			// this method, small, inlines.
			var params, args []jen.Code
			for _, i := range m.reads {
				params, args = append(params, m.params[i]), append(args, m.args[i])
			}
			body := bodyName(m.name)
			g.triggerBodies[m.name] = triggerBody{reads: m.reads, checked: checked}
			g.f.Commentf("%s runs the statements of %s with the columns they read.", body, m.name)
			g.f.Func().Params(recv).Id(body).Params(params...).Block(m.code...)
			code = append(m.prelude, jen.Id("e").Dot(body).Call(args...))
		}
		g.f.Commentf("%s %s relation %s (a Z-set: deleting an absent tuple makes its multiplicity negative).", m.name, m.verb, r.Name)
		if note := argumentNote(r); note != "" {
			g.f.Comment("")
			g.f.Comment(note)
		}
		if !r.Stream && g.p.StaticTables {
			g.f.Comment("")
			g.f.Commentf("%s is a static table (dialect dbtoaster): load it before the first stream event; an", r.Name)
			g.f.Comment("event after one is rejected with a *runtime.EventError (runtime.ErrStaticTable).")
		}
		if checked {
			g.f.Comment("")
			g.f.Comment("An INT sum, count or product that would leave int64 rejects the event: the method")
			g.f.Comment("undoes it and returns a *runtime.EventError (runtime.ErrOverflow); the views are as")
			g.f.Comment("before, and later events run as usual.")
		}
		if m.t != nil && len(m.t.Stmts) > 0 {
			g.f.Comment("")
			for _, s := range m.t.Stmts {
				g.f.Comment("\t" + s.String())
			}
		}
		// A change stream (OnChanges) is flushed when the event is done,
		// not while an event that overflowed is undone.
		subscribed := jen.Id("e").Dot("changes").Op("!=").Nil()
		if checked {
			subscribed = subscribed.Op("&&").Op("!").Id("e").Dot("undoing")
		}
		code = append([]jen.Code{jen.If(subscribed).Block(jen.Defer().Id("e").Dot("flushChanges").Call())}, code...)
		code = append(g.staticGuard(r, m.insert, m.args), code...)
		if !checked {
			g.f.Func().Params(recv).Id(m.name).Params(m.params...).Error().Block(append(code, jen.Return(jen.Nil()))...)
			continue
		}
		// The statements, then the check: the rejection is the rare path,
		// apart, so that the method's arguments are passed once.
		reject := "reject" + m.name
		g.f.Func().Params(recv).Id(m.name).Params(m.params...).Error().Block(append(code,
			jen.If(jen.Id("e").Dot("overflow").Op("&&").Op("!").Id("e").Dot("undoing")).Block(jen.Return(jen.Id("e").Dot(reject).Call(m.args...))),
			jen.Return(jen.Nil()))...)
		// In wrapping two's-complement arithmetic the inverse trigger brings
		// every integer map back exactly.
		errArgs := append([]jen.Code{jen.Lit(r.Name), jen.Lit(m.insert)}, m.args...)
		g.f.Commentf("%s undoes an event of %s whose integer arithmetic overflowed: in wrapping", reject, m.name)
		g.f.Commentf("arithmetic, %s restores every integer map exactly.", inverse.name)
		g.f.Func().Params(recv).Id(reject).Params(m.params...).Error().Block(
			jen.Id("e").Dot("undoing").Op("=").True(),
			jen.Id("e").Dot(inverse.name).Call(m.args...),
			jen.List(jen.Id("e").Dot("undoing"), jen.Id("e").Dot("overflow")).Op("=").List(jen.False(), jen.False()),
			jen.Return(jen.Qual(runtimePkg, "OverflowError").Call(errArgs...)),
		)
	}
	return nil
}

// triggerBody emits the statements of trigger t (nil: none) with the
// arguments in sc.
func (g *gen) triggerBody(t *viewlet.Trigger, sc scope) ([]jen.Code, error) {
	if t == nil {
		return nil, nil
	}
	g.checked = true
	defer func() { g.checked = false }()
	g.hoist = newHoist(t, sc)
	defer func() { g.hoist = nil }()
	var body []jen.Code
	// Buffered statements read the state before the event and apply last.
	for _, s := range t.Stmts {
		if s.Buffered {
			mi := g.maps[s.Map.Name]
			body = append(body, jen.Id("e").Dot(bufName(mi, bufIndex(mi, s))).Op("=").Id("e").Dot(bufName(mi, bufIndex(mi, s))).Index(jen.Empty(), jen.Lit(0)))
		}
	}
	for _, buffered := range []bool{true, false} {
		var ss []*viewlet.Stmt
		for _, s := range t.Stmts {
			if s.Buffered == buffered {
				ss = append(ss, s)
			}
		}
		code, err := g.emitUnits(g.cluster(g.units(ss, sc), sc), sc, newShareCtx())
		if err != nil {
			var ue *unitError
			if errors.As(err, &ue) {
				return nil, fmt.Errorf("%s: cannot generate ON %s: %s: %w", g.p.Source, viewlet.EventString(t.Event), ue.s, ue.err)
			}
			return nil, err
		}
		body = append(body, code...)
	}
	for _, s := range t.Stmts {
		if s.Buffered {
			mi := g.maps[s.Map.Name]
			u := jen.Id("u")
			var key jen.Code
			if mi.keyed {
				key = u.Clone().Dot("k")
			}
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("u")).Op(":=").Range().Id("e").Dot(bufName(mi, bufIndex(mi, s)))).Block(
				g.addToMap(mi, key, u.Clone().Dot("v"))...))
		}
	}
	return g.hoist.code(g, body), nil
}

func bufIndex(mi *mapInfo, s *viewlet.Stmt) int {
	for i, b := range mi.buffers {
		if b == s {
			return i
		}
	}
	panic("codegen: statement not buffered")
}

// columnType is the Go type of a column's values in the typed API:
// runtime.Null[T] for a nullable column, T otherwise.
func columnType(c *lang.Column) jen.Code {
	if c.Nullable {
		return jen.Qual(runtimePkg, "Null").Types(goType(c.Type))
	}
	return goType(c.Type)
}

// argumentNote says what a typed trigger leaves to its caller: Apply and
// the sources reject non-finite floats and dates that do not exist, the
// typed methods take their arguments as given.
func argumentNote(r *lang.Relation) string {
	var floats, dates bool
	for _, c := range r.Columns {
		floats = floats || c.Type == lang.TFloat
		dates = dates || c.Type == lang.TDate
	}
	switch {
	case floats && dates:
		return "Floats must be finite and dates valid (runtime.ValidDate): unlike Apply, the method does not check."
	case floats:
		return "Floats must be finite: unlike Apply, the method does not check (a NaN or ±Inf would stay in sums after its delete)."
	case dates:
		return "Dates must be valid (runtime.ValidDate): unlike Apply, the method does not check."
	}
	return ""
}

// triggerReads reports whether a statement of t reads variable name.
// triggerBody is a trigger method's statements as a method of their own:
// the columns it takes, and whether the trigger checks overflows.
type triggerBody struct {
	reads   []int
	checked bool
}

// bodyName names the method holding the statements of trigger method
// name (InsertR → insertR); planNames keeps maps off these names.
func bodyName(name string) string { return lowerFirst(name) }

// triggerReadsColumn reports whether trigger t reads column i of r: its
// value or, for a nullable column, its presence flag.
func triggerReadsColumn(t *viewlet.Trigger, r *lang.Relation, i int) bool {
	if triggerReads(t, t.Event.Args[i].Name) {
		return true
	}
	if !r.Columns[i].Nullable {
		return false
	}
	flag := len(r.Columns)
	for _, c := range r.Columns[:i] {
		if c.Nullable {
			flag++
		}
	}
	return triggerReads(t, t.Event.Args[flag].Name)
}

func triggerReads(t *viewlet.Trigger, name string) bool {
	for _, s := range t.Stmts {
		if hasVarNamed(s.Keys, name) {
			return true
		}
		for _, m := range s.RHS {
			if usesVar(m.Factors, name) {
				return true
			}
		}
	}
	return false
}
