package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// Set-at-a-time batches (viewlet.SetTrigger). The Delta maps of a
// relation's set-at-a-time triggers are no state: they live for one
// batch. Those with the same keys are one runtime.PreAgg (set<Rel><i>)
// whose entry holds a sum per Delta (set<Rel><i>Sums), so that an event
// looks its key up once. collect<Insert|Delete><Rel> adds one event to
// them (only the columns the Deltas read, as parsed: NULLs zero);
// applySet<Rel> runs the Apply statements once per entry, the Delta's sum
// standing for the event's product of event-only factors (a variable
// bound by the loop, as the statements' other event columns are), and
// then the top-K reorders and dirty flags of the maps they wrote.
// ApplyBatch (batch.go) chooses per relation between them and the
// per-event triggers (runtime.Policy) and falls back to the per-event
// triggers when the set-at-a-time form overflows.

// setPlan is the code plan of one relation's set-at-a-time triggers.
type setPlan struct {
	st     *viewlet.SetTrigger
	r      *lang.Relation
	stem   string
	groups []*setGroup
	of     map[string]*setGroup // by Delta name
	slot   map[string]string    // a Delta's field in its group's sums
}

// setGroup is the Deltas with the same keys: one PreAgg.
type setGroup struct {
	field, sums string
	keys        []calculus.Var
	members     []*viewlet.Map
}

// setPlans returns the plans of the program's set-at-a-time triggers, in
// the order of the relations.
func (g *gen) setPlans() []*setPlan {
	var out []*setPlan
	for _, r := range g.p.Relations {
		if sp := g.setPlanOf(r); sp != nil {
			out = append(out, sp)
		}
	}
	return out
}

func (g *gen) setPlanOf(r *lang.Relation) *setPlan {
	st := g.p.SetTrigger(r.Name)
	if st == nil {
		return nil
	}
	sp := &setPlan{st: st, r: r, stem: exportedName(r.Name), of: map[string]*setGroup{}, slot: map[string]string{}}
	byKeys := map[string]*setGroup{}
	for _, d := range st.Deltas {
		sig := varNames(d.Keys) + ":" + keyShape(d.Keys)
		grp := byKeys[sig]
		if grp == nil {
			i := len(sp.groups)
			grp = &setGroup{field: fmt.Sprintf("set%s%d", sp.stem, i), sums: fmt.Sprintf("set%s%dSums", sp.stem, i), keys: d.Keys}
			byKeys[sig] = grp
			sp.groups = append(sp.groups, grp)
		}
		sp.slot[d.Name] = fmt.Sprintf("v%d", len(grp.members))
		grp.members = append(grp.members, d)
		sp.of[d.Name] = grp
	}
	return sp
}

func keyShape(vs []calculus.Var) string {
	s := ""
	for _, v := range vs {
		s += shapeCode(v.Type)
	}
	return s
}

// setKeyType is the Go type of a group's keys (struct{} for none).
func (g *gen) setKeyType(grp *setGroup) jen.Code {
	if len(grp.keys) == 0 {
		return jen.Struct()
	}
	return g.keyType(grp.keys)
}

// setFields are the Engine's PreAgg fields.
func (g *gen) setFields() []jen.Code {
	var fields []jen.Code
	for _, sp := range g.setPlans() {
		for _, grp := range sp.groups {
			names := make([]string, len(grp.members))
			for i, d := range grp.members {
				names[i] = d.Name
			}
			fields = append(fields, jen.Commentf("%s: a batch of %s pre-aggregated by [%s] (%s), for its set-at-a-time triggers.", grp.field, sp.r.Name, varNames(grp.keys), strings.Join(names, ", ")))
			fields = append(fields, jen.Id(grp.field).Qual(runtimePkg, "PreAgg").Types(g.setKeyType(grp), jen.Id(grp.sums)))
		}
		fields = append(fields, jen.Commentf("setChoice%s: whether runtime.Auto applies a batch of %s set-at-a-time.", sp.stem, sp.r.Name),
			jen.Id("setChoice"+sp.stem).Qual(runtimePkg, "SetChooser"))
	}
	return fields
}

// setMethods emits the set-at-a-time methods of relation r (nothing when
// its triggers have no set-at-a-time form): the sums types, collect for
// each trigger, applySet, and negateSet and resetSet.
func (g *gen) setMethods(r *lang.Relation) error {
	sp := g.setPlanOf(r)
	if sp == nil {
		return nil
	}
	for _, grp := range sp.groups {
		var fs []jen.Code
		for _, d := range grp.members {
			fs = append(fs, jen.Id(sp.slot[d.Name]).Add(storedType(d.Type)).Comment(d.Name))
		}
		g.f.Commentf("%s are the sums of one key of %s.", grp.sums, grp.field)
		g.f.Type().Id(grp.sums).Struct(fs...)
	}
	for i, t := range sp.st.Collect {
		if t == nil {
			continue
		}
		if err := g.collectMethod(sp, t, i == 0); err != nil {
			return err
		}
	}
	// applySet: per group, one loop over its entries running the Apply
	// statements that read its Deltas (so that statements over the same
	// loop or fused table share it, as in the per-event triggers).
	var body []jen.Code
	for _, grp := range sp.groups {
		sc := scope{}
		kv := g.fresh("key") // (the statements' own code declares k, v, …)
		for i, k := range grp.keys {
			sc[k.Name] = keyField(jen.Id(kv), len(grp.keys), i)
		}
		var live *jen.Statement // some sum of the entry is not 0
		var zero *jen.Statement // the sum of a group of one is 0
		for _, d := range grp.members {
			val := jen.Id("d").Dot(sp.slot[d.Name])
			nz := val.Clone().Op("!=").Lit(0)
			zero = val.Clone().Op("==").Lit(0)
			if d.Type == lang.TFloat {
				nz = jen.Op("!").Add(val.Clone()).Dot("IsZero").Call()
				zero = val.Clone().Dot("IsZero").Call()
				val = val.Clone().Dot("Value").Call()
			}
			sc["delta_"+sp.slot[d.Name]] = val
			if live == nil {
				live = nz
			} else {
				live = live.Op("||").Add(nz)
			}
		}
		t := &viewlet.Trigger{Event: calculus.Event{Rel: r.Name, Insert: true, Args: grp.keys}}
		for _, s := range sp.st.Apply.Stmts {
			ref := s.RHS[0].Factors[0].(*calculus.MapRef)
			if sp.of[ref.Name] != grp {
				continue
			}
			delta := calculus.Var{Name: "delta_" + sp.slot[ref.Name], Type: ref.Type}
			fs := append([]calculus.Term{&calculus.Val{E: calculus.Ref(delta)}}, s.RHS[0].Factors[1:]...)
			t.Stmts = append(t.Stmts, &viewlet.Stmt{Map: s.Map, Keys: s.Keys, RHS: []calculus.Monomial{{Coef: 1, Factors: fs}}})
		}
		if len(t.Stmts) == 0 {
			continue
		}
		code, err := g.triggerBody(t, sc)
		if err != nil {
			return err
		}
		loop := []jen.Code{jen.Id("d").Op(":=").Op("&").Id("e").Dot(grp.field).Dot("Vals").Index(jen.Id("i"))}
		if len(grp.keys) > 0 && occurrences(code, kv, 1) > 0 {
			loop = append(loop, jen.Id(kv).Op(":=").Id("e").Dot(grp.field).Dot("Keys").Index(jen.Id("i")))
		}
		if len(grp.members) == 1 {
			loop = append(loop, jen.If(zero).Block(jen.Continue()))
		} else {
			loop = append(loop, jen.If(jen.Op("!").Parens(live)).Block(jen.Continue()))
		}
		for _, s := range t.Stmts {
			body = append(body, jen.Comment(s.String()))
		}
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("e").Dot(grp.field).Dot("Vals")).Block(append(loop, code...)...))
	}
	body = append(body, g.topReorders(sp.st.Apply.Stmts)...)
	body = append(body, g.markDirty(sp.st.Apply)...)
	g.f.Commentf("applySet%s runs the set-at-a-time statements of %s once per key of the batch's sums.", sp.stem, r.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("applySet" + sp.stem).Params().Block(body...)
	// negateSet and resetSet.
	var neg, reset []jen.Code
	for _, grp := range sp.groups {
		var flips []jen.Code
		for _, d := range grp.members {
			f := jen.Id("d").Dot(sp.slot[d.Name])
			if d.Type == lang.TFloat {
				flips = append(flips, f.Clone().Op("=").Add(f.Clone()).Dot("Neg").Call())
			} else {
				flips = append(flips, f.Clone().Op("=").Op("-").Add(f.Clone()))
			}
		}
		neg = append(neg, jen.For(jen.Id("i").Op(":=").Range().Id("e").Dot(grp.field).Dot("Vals")).Block(
			append([]jen.Code{jen.Id("d").Op(":=").Op("&").Id("e").Dot(grp.field).Dot("Vals").Index(jen.Id("i"))}, flips...)...))
		reset = append(reset, jen.Id("e").Dot(grp.field).Dot("Reset").Call())
	}
	if g.hasChecks {
		g.f.Commentf("negateSet%s negates the batch's sums of %s (in wrapping arithmetic, applySet then undoes itself).", sp.stem, r.Name)
		g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("negateSet" + sp.stem).Params().Block(neg...)
	}
	g.f.Commentf("resetSet%s empties the batch's sums of %s.", sp.stem, r.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("resetSet" + sp.stem).Params().Block(reset...)
	return nil
}

// collectReads returns the columns of r that the collect trigger t reads
// (a nullable column's value or presence).
func collectReads(r *lang.Relation, t *viewlet.Trigger) []int {
	used := stmtVars(t.Stmts)
	var out []int
	nulls := 0
	for i, c := range r.Columns {
		read := used[t.Event.Args[i].Name]
		if c.Nullable {
			read = read || used[t.Event.Args[len(r.Columns)+nulls].Name]
			nulls++
		}
		if read {
			out = append(out, i)
		}
	}
	return out
}

// collectMethod emits collect<Insert|Delete><Rel>: one event's additions
// to the batch's sums.
func (g *gen) collectMethod(sp *setPlan, t *viewlet.Trigger, insert bool) error {
	r := sp.r
	reads := collectReads(r, t)
	sc := scope{}
	var params []jen.Code
	nulls := 0
	for i, c := range r.Columns {
		a := t.Event.Args[i]
		n := varName(a.Name)
		var pres calculus.Var
		if c.Nullable {
			pres = t.Event.Args[len(r.Columns)+nulls]
			nulls++
		}
		if !hasInt(reads, i) {
			continue
		}
		params = append(params, jen.Id(n).Add(columnType(c)))
		if !c.Nullable {
			sc[a.Name] = jen.Id(n)
			continue
		}
		sc[a.Name] = jen.Id(n).Dot("V")
		sc[pres.Name] = jen.Id(n).Dot("Flag").Call()
	}
	g.checked = true
	defer func() { g.checked = false }()
	g.hoist = newHoist(t, sc)
	defer func() { g.hoist = nil }()
	var body []jen.Code
	for _, grp := range sp.groups {
		var locals, code, nonzero []jen.Code
		var adds []jen.Code
		for _, s := range t.Stmts {
			if sp.of[s.Map.Name] != grp {
				continue
			}
			slot := sp.slot[s.Map.Name]
			// A count (constant factors, as a counter map's statements):
			// its sums cannot leave int64 (see counterMaps).
			counter := s.Map.Type == lang.TInt
			for _, m := range s.RHS {
				counter = counter && constantFactors(m.Factors) && math.Abs(m.Coef) <= counterStep
			}
			g.checked = !counter
			c, err := g.accumulateMonos(s.RHS, slot, s.Map.Type, sc, false, false)
			g.checked = true
			if err != nil {
				return fmt.Errorf("%s: cannot generate ON BATCH OF %s: %s: %w", g.p.Source, r.Name, s, err)
			}
			locals = append(locals, c[0])
			code = append(code, c[1:]...)
			nonzero = append(nonzero, jen.Id(slot).Op("!=").Lit(0))
			f := jen.Id("d").Dot(slot)
			if s.Map.Type == lang.TFloat {
				adds = append(adds, f.Clone().Dot("Add").Call(jen.Id(slot)))
			} else if counter {
				adds = append(adds, f.Clone().Op("+=").Id(slot))
			} else {
				adds = append(adds, f.Clone().Op("=").Add(g.arith("+", f.Clone(), jen.Id(slot), lang.TInt)))
			}
		}
		if len(locals) == 0 {
			continue
		}
		var key jen.Code = jen.Struct().Values()
		if len(grp.keys) > 0 {
			vals := make([]jen.Code, len(grp.keys))
			for i, k := range grp.keys {
				vals[i] = sc[k.Name].Clone()
			}
			key = g.keyValue(grp.keys, vals)
		}
		var cond *jen.Statement
		for _, c := range nonzero {
			if cond == nil {
				cond = jen.Add(c)
			} else {
				cond = cond.Op("||").Add(c)
			}
		}
		block := append(append(locals, code...), jen.If(cond).Block(append([]jen.Code{jen.Id("d").Op(":=").Id("e").Dot(grp.field).Dot("At").Call(key)}, adds...)...))
		if len(sp.groups) > 1 {
			body = append(body, jen.Block(block...))
		} else {
			body = append(body, block...)
		}
	}
	name := "collectDelete" + sp.stem
	if insert {
		name = "collectInsert" + sp.stem
	}
	g.setCollects[name] = reads
	g.f.Commentf("%s adds one event's values to the batch's sums of %s (the columns they read, NULLs zero).", name, r.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(name).Params(params...).Block(g.hoist.code(g, body)...)
	return nil
}

func hasInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
