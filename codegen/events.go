package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// The typed trigger methods, Insert<Rel> and Delete<Rel>.

// triggers emits InsertR and DeleteR for relation r.
func (g *gen) triggers(r *lang.Relation) error {
	for _, ins := range []bool{true, false} {
		var t *viewlet.Trigger
		for _, tt := range g.p.Triggers {
			if tt.Event.Rel == r.Name && tt.Event.Insert == ins {
				t = tt
			}
		}
		name := "Delete" + exportedName(r.Name)
		verb := "deletes one tuple from"
		if ins {
			name, verb = "Insert"+exportedName(r.Name), "inserts one tuple into"
		}
		var params []jen.Code
		sc := scope{}
		args := make([]calculus.Var, len(r.Columns))
		for i, c := range r.Columns {
			args[i] = calculus.Var{Name: strings.ToLower(c.Name), Type: c.Type}
			if t != nil {
				args[i] = t.Event.Args[i]
			}
			n := varName(args[i].Name)
			params = append(params, jen.Id(n).Add(goType(c.Type)))
			sc[args[i].Name] = jen.Id(n)
		}
		var body []jen.Code
		if t != nil {
			// Buffered statements read the state before the event and apply last.
			for _, s := range t.Stmts {
				if s.Buffered {
					mi := g.maps[s.Map.Name]
					body = append(body, jen.Id("e").Dot(bufName(mi, bufIndex(mi, s))).Op("=").Id("e").Dot(bufName(mi, bufIndex(mi, s))).Index(jen.Empty(), jen.Lit(0)))
				}
			}
			for _, buffered := range []bool{true, false} {
				for _, s := range t.Stmts {
					if s.Buffered == buffered {
						code, err := g.stmt(s, sc)
						if err != nil {
							return fmt.Errorf("%s: cannot generate ON %s: %s: %w", g.p.Source, viewlet.EventString(t.Event), s, err)
						}
						body = append(body, code...)
					}
				}
			}
			for _, s := range t.Stmts {
				if s.Buffered {
					mi := g.maps[s.Map.Name]
					u := jen.Id("u")
					var apply jen.Code
					if mi.keyed {
						apply = jen.Id("e").Dot(mi.field).Dot("add").Call(u.Clone().Dot("k"), u.Clone().Dot("v"))
					} else {
						apply = jen.Id("e").Dot(mi.field).Op("+=").Add(u.Clone().Dot("v"))
					}
					body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("u")).Op(":=").Range().Id("e").Dot(bufName(mi, bufIndex(mi, s)))).Block(apply))
				}
			}
		}
		g.f.Commentf("%s %s relation %s (a Z-set: deleting an absent tuple makes its multiplicity negative).", name, verb, r.Name)
		if note := argumentNote(r); note != "" {
			g.f.Comment("")
			g.f.Comment(note)
		}
		if !r.Stream {
			g.f.Comment("")
			g.f.Commentf("%s is a static table: load it before the first stream event.", r.Name)
		}
		if t != nil && len(t.Stmts) > 0 {
			g.f.Comment("")
			for _, s := range t.Stmts {
				g.f.Comment("\t" + s.String())
			}
		}
		g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(name).Params(params...).Block(body...)
	}
	return nil
}

func bufIndex(mi *mapInfo, s *viewlet.Stmt) int {
	for i, b := range mi.buffers {
		if b == s {
			return i
		}
	}
	panic("codegen: statement not buffered")
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
