package codegen

import (
	"fmt"
	"regexp"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// view emits the row type and accessors of a view.
func (g *gen) view(v *viewlet.View) error {
	vn := viewStem(v.Name, v.Named)
	row := vn + "Row"
	field := rowFields()
	var fields []jen.Code
	// A field's JSON name is its column's name in the SELECT list as
	// written (an unselected key's and COUNT's: the view's).
	keyLabel, valLabel := map[int]string{}, map[int]string{}
	for _, c := range v.Columns {
		if c.Key {
			if _, ok := keyLabel[c.Index]; !ok {
				keyLabel[c.Index] = c.Name
			}
		} else if _, ok := valLabel[c.Index]; !ok {
			valLabel[c.Index] = c.Name
		}
	}
	used := map[string]bool{}
	label := func(m map[int]string, i int, name string) map[string]string {
		// Labels may repeat (SELECT a, a): a JSON name must not. A label
		// that is an expression's text (SELECT SUM(a), …) gives way to
		// the view's name of the column (COL1, …).
		if l, ok := m[i]; ok && jsonName.MatchString(l) && !used[l] {
			name = l
		}
		for base, n := name, 2; used[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		used[name] = true
		return map[string]string{"json": name}
	}
	keyFields := make([]string, len(v.Keys))
	for i, k := range v.Keys {
		keyFields[i] = field(k.Name)
		fields = append(fields, jen.Id(keyFields[i]).Add(keyType(k)).Tag(label(keyLabel, i, k.Name)).Commentf("key %s", k.Name))
	}
	valFields := make([]string, len(v.Values))
	for i, val := range v.Values {
		valFields[i] = field(val.Name)
		comment := val.Name + " = " + calculus.ExprString(val.E)
		if val.Present != nil {
			comment += ", NULL unless " + calculus.ExprString(val.Present)
		}
		fields = append(fields, jen.Id(valFields[i]).Add(valueType(val)).Tag(label(valLabel, i, val.Name)).Comment(comment))
	}
	g.f.Commentf("%s is one row of view %s.", row, v.Name)
	g.f.Type().Id(row).Struct(fields...)

	// The row method takes the keys of the view's maps: the key columns,
	// then the presence flags of those that may be NULL (View.MapKeys);
	// Get takes a runtime.Null for those.
	var keyVars []calculus.Var
	var params, flagParams, getParams, getArgs, flagArgs []jen.Code
	sc := scope{}
	for _, k := range v.Keys {
		keyVars = append(keyVars, k.Var)
		n := varName(k.Var.Name)
		params = append(params, jen.Id(n).Add(goType(k.Var.Type)))
		getParams = append(getParams, jen.Id(n).Add(keyType(k)))
		sc[k.Var.Name] = jen.Id(n)
		if k.Present.Name == "" {
			getArgs = append(getArgs, jen.Id(n))
			continue
		}
		f := varName(k.Present.Name)
		flagParams = append(flagParams, jen.Id(f).Int64())
		sc[k.Present.Name] = jen.Id(f)
		getArgs = append(getArgs, jen.Id(n).Dot("Value").Call())
		flagArgs = append(flagArgs, jen.Id(n).Dot("Flag").Call())
	}
	for _, k := range v.Keys {
		if k.Present.Name != "" {
			keyVars = append(keyVars, k.Present)
		}
	}
	params = append(params, flagParams...)
	getArgs = append(getArgs, flagArgs...)
	// row computes the row of a group from its aggregates.
	var body []jen.Code
	extremes := map[int]*calculus.ExtremeRef{}
	visitExtremes := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			if r, ok := x.(*calculus.ExtremeRef); ok {
				extremes[r.Index] = r
			}
		})
	}
	for _, val := range v.Values {
		visitExtremes(val.E)
	}
	if v.Having != nil {
		visitExtremes(v.Having)
	}
	for i, m := range v.Aggs {
		if m == nil {
			continue
		}
		mi := g.maps[m.Name]
		if ref, ok := extremes[i]; ok {
			// MIN/MAX: the least or greatest value of the group's entries of the
			// (group, value) count map, read from the map's ordered index (an
			// ordered-set aggregate: from its range-sum or mode index).
			// The group is the view's keys, or, for a subquery's MIN/MAX, the
			// group keys it is correlated with (none when uncorrelated).
			best := fmt.Sprintf("best%d", i)
			group := keyVars
			if pos, ok := v.AggKeys[i]; ok {
				group = make([]calculus.Var, len(pos))
				for j, p := range pos {
					group[j] = keyVars[p]
				}
			} else if len(m.Keys) == 1 {
				group = nil
			}
			ex := &calculus.Extreme{Max: ref.Max, Hol: ref.Hol, Arg: m.Keys[len(m.Keys)-1], T: &calculus.MapRef{Name: m.Name, Keys: append(append([]calculus.Var{}, group...), m.Keys[len(m.Keys)-1]), Type: m.Type}}
			if hasVar(keyVars, ex.Arg.Name) {
				ex.Arg.Name += "_value"
				ex.T.(*calculus.MapRef).Keys[len(group)] = ex.Arg
			}
			code, err := g.extreme(ex, best, sc)
			if err != nil {
				return err
			}
			body = append(body, code...)
			sc[fmt.Sprintf("extreme#%d", i)] = jen.Id(best)
			continue
		}
		if i > 0 && !readsAgg(v, i) && readsRange(v, i) {
			continue // read only by running sums (g.runningSums)
		}
		a := fmt.Sprintf("agg%d", i)
		if pos, ok := v.AggKeys[i]; ok && mi.keyed {
			vals := make([]jen.Code, len(pos))
			for j, p := range pos {
				vals[j] = sc[keyVars[p].Name].Clone()
			}
			body = append(body, jen.Id(a).Op(":=").Add(mi.get(g.keyValue(m.Keys, vals))))
		} else if mi.keyed && len(m.Keys) == len(keyVars) {
			vals := make([]jen.Code, len(keyVars))
			for j, kv := range keyVars {
				vals[j] = sc[kv.Name].Clone()
			}
			body = append(body, jen.Id(a).Op(":=").Add(mi.get(g.keyValue(m.Keys, vals))))
		} else {
			body = append(body, jen.Id(a).Op(":=").Add(keylessValue(mi)))
		}
		sc[fmt.Sprintf("#%d", i)] = jen.Id(a)
	}
	if v.Tree != nil {
		// A factorized view's row: every count factor along it non-zero.
		var absent *jen.Statement
		for _, nd := range v.Tree.Nodes {
			if nd.Count < 0 {
				continue
			}
			zero := jen.Id(fmt.Sprintf("agg%d", nd.Count)).Op("==").Lit(0)
			if absent == nil {
				absent = zero
			} else {
				absent = absent.Op("||").Add(zero)
			}
		}
		body = append(body, jen.If(absent).Block(jen.Return(jen.Id(row).Values(), jen.False())))
	} else if !v.Scalar {
		body = append(body, jen.If(jen.Id("agg0").Op("==").Lit(0)).Block(jen.Return(jen.Id(row).Values(), jen.False())))
	}
	sums, err := g.runningSums(v, keyVars, sc)
	if err != nil {
		return err
	}
	body = append(body, sums...)
	if v.Having != nil {
		h, err := g.expr(v.Having, sc)
		if err != nil {
			return err
		}
		body = append(body, jen.If(jen.Op("!").Parens(h)).Block(jen.Return(jen.Id(row).Values(), jen.False())))
	}
	d := jen.Dict{}
	for i, k := range v.Keys {
		var cell jen.Code = sc[k.Var.Name].Clone()
		if k.Present.Name != "" {
			cell = jen.Qual(runtimePkg, "MakeNull").Call(sc[k.Var.Name].Clone(), sc[k.Present.Name].Clone())
		}
		d[jen.Id(keyFields[i])] = cell
	}
	for i, val := range v.Values {
		if v.Distinct {
			d[jen.Id(valFields[i])] = jen.Lit(1)
			continue
		}
		c, err := g.expr(val.E, sc)
		if err != nil {
			return err
		}
		var cell jen.Code = convert(c, val.E.Type(), val.Type)
		if val.Present != nil {
			p, err := g.expr(val.Present, sc)
			if err != nil {
				return err
			}
			cell = jen.Qual(runtimePkg, "Null").Types(goType(val.Type)).Values(jen.Dict{jen.Id("V"): cell, jen.Id("Valid"): p})
		}
		d[jen.Id(valFields[i])] = cell
	}
	body = append(body, jen.Return(jen.Id(row).Values(d), jen.True()))
	lower := rowMethod(v)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(lower).Params(params...).Params(jen.Id(row), jen.Bool()).Block(
		append([]jen.Code{jen.Comment("Aggregates read but unused by value columns are still looked up: cheap and simple.")}, withBlank(body, v)...)...)

	if v.Order != nil {
		return g.orderedView(v, row, keyFields, valFields, getParams, getArgs, keyVars)
	}
	// Point lookup.
	g.f.Commentf("%sGet returns the row of view %s with the given key, if present.", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn+"Get").Params(getParams...).Params(jen.Id(row), jen.Bool()).Block(
		jen.Return(jen.Id("e").Dot(lower).Call(getArgs...)))

	// iter.Seq over live rows.
	var loop jen.Code
	if v.Scalar {
		loop = jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(), jen.Id("ok")).Block(jen.Id("yield").Call(jen.Id("r")))
	} else if v.Tree != nil {
		loop = g.treeLoop(v, lower)
		g.treeMethods(v)
	} else {
		cm := g.maps[v.Aggs[0].Name]
		k := jen.Id("k")
		kargs := make([]jen.Code, len(keyVars))
		for i := range keyVars {
			kargs[i] = keyField(k, len(keyVars), i)
		}
		cm.usesScan = true
		yieldRow := jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(kargs...), jen.Id("ok").Op("&&").Op("!").Id("yield").Call(jen.Id("r"))).Block(jen.Return())
		if len(v.Numbered) > 0 {
			// A row stands for its copies, numbered one after the other:
			// each is a row of its own (runtime.NumberCopies).
			copyRow := []jen.Code{jen.Id("c").Op(":=").Id("r"), jen.Id("c").Dot(valFields[0]).Op("=").Lit(1)}
			for _, j := range v.Numbered {
				copyRow = append(copyRow, jen.Id("c").Dot(valFields[j]).Op("+=").Id("i"))
			}
			copyRow = append(copyRow, jen.If(jen.Op("!").Id("yield").Call(jen.Id("c"))).Block(jen.Return()))
			yieldRow = jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(kargs...), jen.Id("ok")).Block(
				jen.For(jen.Id("i").Op(":=").Range().Id("r").Dot(valFields[0])).Block(copyRow...))
		}
		loop = jen.For(jen.Id("k").Op(":=").Range().Add(rangeIndex(cm.index(), jen.Id("e").Dot(cm.field)))).Block(yieldRow)
	}
	g.f.Commentf("%sRows iterates over the rows of view %s in no particular order.", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn+"Rows").Params().Qual("iter", "Seq").Types(jen.Id(row)).Block(
		jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(jen.Id(row)).Bool()).Block(loop)))

	// Sorted snapshot.
	var cmps []jen.Code
	for i, f := range keyFields {
		compare := jen.Qual("cmp", "Compare")
		if v.Keys[i].Present.Name != "" {
			compare = jen.Qual(runtimePkg, "CompareNull")
		}
		cmps = append(cmps, jen.If(jen.Id("c").Op(":=").Add(compare).Call(jen.Id("a").Dot(f), jen.Id("b").Dot(f)), jen.Id("c").Op("!=").Lit(0)).Block(jen.Return(jen.Id("c"))))
	}
	for _, j := range v.Numbered {
		// The copies of a row, by their numbers.
		f := valFields[j]
		cmps = append(cmps, jen.If(jen.Id("c").Op(":=").Qual("cmp", "Compare").Call(jen.Id("a").Dot(f), jen.Id("b").Dot(f)), jen.Id("c").Op("!=").Lit(0)).Block(jen.Return(jen.Id("c"))))
	}
	cmps = append(cmps, jen.Return(jen.Lit(0)))
	g.f.Commentf("%s orders rows of view %s by key.", compareRows(v), v.Name)
	g.f.Func().Id(compareRows(v)).Params(jen.List(jen.Id("a"), jen.Id("b")).Id(row)).Int().Block(cmps...)
	g.f.Commentf("%s returns the rows of view %s sorted by key.", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn).Params().Index().Id(row).Block(
		jen.Var().Id("rows").Index().Id(row),
		jen.For(jen.Id("r").Op(":=").Range().Id("e").Dot(vn+"Rows").Call()).Block(jen.Id("rows").Op("=").Append(jen.Id("rows"), jen.Id("r"))),
		jen.Qual("slices", "SortFunc").Call(jen.Id("rows"), jen.Id(compareRows(v))),
		jen.Return(jen.Id("rows")),
	)
	return nil
}

// withBlank adds `_ = aggN` for aggregates the row does not read, to keep
// the generated code compiling.
func withBlank(body []jen.Code, v *viewlet.View) []jen.Code {
	var out []jen.Code
	out = append(out, body...)
	for i, m := range v.Aggs {
		if m == nil || i == 0 {
			continue
		}
		if !readsAgg(v, i) && !readsRange(v, i) {
			out = append(out[:len(out)-1], jen.Id("_").Op("=").Id(fmt.Sprintf("agg%d", i)), out[len(out)-1])
		}
	}
	if v.Aggs[0] != nil && v.Scalar && !readsAgg(v, 0) {
		out = append(out[:len(out)-1], jen.Id("_").Op("=").Id("agg0"), out[len(out)-1])
	}
	return out
}

func readsAgg(v *viewlet.View, i int) bool {
	found := false
	visit := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			if r, ok := x.(*calculus.AggRef); ok && r.Index == i {
				found = true
			}
			if r, ok := x.(*calculus.ExtremeRef); ok && r.Index == i {
				found = true // read through the ordered index, no aggN variable
			}
		})
	}
	if !v.Distinct {
		for _, val := range v.Values {
			visit(val.E)
		}
	}
	if v.Having != nil {
		visit(v.Having)
	}
	return found
}

func hasVar(vs []calculus.Var, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}

func runtimeColType(t lang.Type) jen.Code {
	switch t {
	case lang.TFloat:
		return jen.Qual(runtimePkg, "Float")
	case lang.TString:
		return jen.Qual(runtimePkg, "String")
	case lang.TDate:
		return jen.Qual(runtimePkg, "DateType")
	}
	return jen.Qual(runtimePkg, "Int")
}

// engineMethods emits the runtime.Engine implementation: relation
// descriptions, field parsing, batches, and view snapshots.
func (g *gen) engineMethods() {
	// Relations.
	var rels []jen.Code
	for _, r := range g.p.Relations {
		var cols []jen.Code
		for _, c := range r.Columns {
			d := jen.Dict{jen.Id("Name"): jen.Lit(c.Name), jen.Id("Type"): runtimeColType(c.Type)}
			if c.Nullable {
				d[jen.Id("Nullable")] = jen.True()
			}
			cols = append(cols, jen.Values(d))
		}
		d := jen.Dict{
			jen.Id("Name"):    jen.Lit(r.Name),
			jen.Id("Stream"):  jen.Lit(r.Stream),
			jen.Id("Columns"): jen.Index().Qual(runtimePkg, "Column").Values(cols...),
		}
		if !g.p.Reads(r.Name) {
			d[jen.Id("Unread")] = jen.True() // drivers skip its source
		}
		if r.Source != nil {
			params := jen.Dict{}
			for k, v := range r.Source.Params {
				params[jen.Lit(k)] = jen.Lit(v)
			}
			spec := jen.Dict{
				jen.Id("Path"):   jen.Lit(r.Source.Path),
				jen.Id("Format"): jen.Lit(r.Source.Format),
				jen.Id("Params"): jen.Map(jen.String()).String().Values(params),
			}
			if r.Source.RecordSep != "" {
				spec[jen.Id("RecordSep")] = jen.Lit(r.Source.RecordSep)
			}
			if r.Source.RecordWidth > 0 {
				spec[jen.Id("RecordWidth")] = jen.Lit(r.Source.RecordWidth)
			}
			d[jen.Id("Source")] = jen.Op("&").Qual(runtimePkg, "SourceSpec").Values(spec)
		}
		rels = append(rels, jen.Values(d))
	}
	// The relations' indexes, for Apply and Batch.Add.
	var consts []jen.Code
	for ri, r := range g.p.Relations {
		consts = append(consts, jen.Commentf("Relation%s is the index of relation %s in Relations, for Apply and Batch.Add.", exportedName(r.Name), r.Name),
			jen.Id("Relation"+exportedName(r.Name)).Op("=").Lit(ri))
	}
	g.f.Comment("Indexes of the base relations.")
	g.f.Const().Defs(consts...)
	g.f.Comment("relations describes the base relations, in declaration order.")
	g.f.Var().Id("relations").Op("=").Index().Qual(runtimePkg, "Relation").Values(rels...)
	g.f.Comment("Relations describes the base relations, in declaration order; Apply and Batch.Add index them.")
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("Relations").Params().Index().Qual(runtimePkg, "Relation").Block(jen.Return(jen.Id("relations")))

	// Tuple types and parsers.
	var applyCases []jen.Code
	var brels []batchRel
	for ri, r := range g.p.Relations {
		tn := "tuple" + exportedName(r.Name)
		var fs []jen.Code
		var parse []jen.Code
		var targs []jen.Code
		read := g.readColumns(r.Name, len(r.Columns))
		narrow := g.narrowTuple(r)
		for i, c := range r.Columns {
			fn := fmt.Sprintf("c%d", i)
			fld := jen.Id("f").Index(jen.Lit(i))
			if narrow != nil && !narrow[i] {
				// Not stored: a field no trigger reads is only checked.
				targs = append(targs, nil)
				if p := checkOnly(c, fld); p != nil {
					parse = append(parse, p)
				}
				continue
			}
			fs = append(fs, jen.Id(fn).Add(columnType(c)).Comment(c.Name))
			targs = append(targs, jen.Id("t").Dot(fn))
			if c.Nullable {
				// \N (or an empty non-string field) is NULL.
				p := parserOf(c.Type)
				if p == nil {
					parse = append(parse, jen.If(jen.Op("!").Qual(runtimePkg, "IsNullField").Call(fld.Clone(), runtimeColType(c.Type))).Block(
						jen.Id("t").Dot(fn).Op("=").Qual(runtimePkg, "Some").Call(jen.String().Call(fld.Clone()))))
					continue
				}
				parse = append(parse, jen.If(jen.Id("t").Dot(fn).Op(",").Id("err").Op("=").Qual(runtimePkg, "ParseNullable").Call(fld.Clone(), runtimeColType(c.Type), p), jen.Id("err").Op("!=").Nil()).Block(
					jen.Return(jen.Id("t"), jen.Qual(runtimePkg, "NewColumnError").Call(jen.Lit(c.Name), runtimeColType(c.Type), fld.Clone()))))
				continue
			}
			pf := parserOf(c.Type)
			if pf == nil {
				// A string needs no checking; one no trigger reads is not
				// copied out of the input.
				if read[i] {
					parse = append(parse, jen.Id("t").Dot(fn).Op("=").String().Call(fld.Clone()))
				}
				continue
			}
			p := pf.Call(fld)
			parse = append(parse, jen.If(jen.Id("t").Dot(fn).Op(",").Id("err").Op("=").Add(p), jen.Id("err").Op("!=").Nil()).Block(
				jen.Return(jen.Id("t"), jen.Qual(runtimePkg, "NewColumnError").Call(jen.Lit(c.Name), runtimeColType(c.Type), fld.Clone()))))
		}
		g.f.Commentf("%s is a parsed tuple of %s.", tn, r.Name)
		g.f.Type().Id(tn).Struct(fs...)
		pn := "parse" + exportedName(r.Name)
		g.f.Commentf("%s parses the fields of a %s tuple.", pn, r.Name)
		g.f.Func().Id(pn).Params(jen.Id("f").Index().Index().Byte()).Params(jen.Id("t").Id(tn), jen.Err().Error()).Block(
			append(append([]jen.Code{
				jen.If(jen.Len(jen.Id("f")).Op("!=").Lit(len(r.Columns))).Block(
					jen.Return(jen.Id("t"), jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("expected %d fields, got %%d", len(r.Columns))), jen.Len(jen.Id("f"))))),
			}, parse...), jen.Return(jen.Id("t"), jen.Nil()))...)
		ins := jen.Id("e").Dot("Insert" + exportedName(r.Name)).Call(targs...)
		del := jen.Id("e").Dot("Delete" + exportedName(r.Name)).Call(targs...)
		if narrow != nil {
			ins = jen.Id("e").Dot(bodyName("Insert" + exportedName(r.Name))).Call(g.bodyArgs("Insert"+exportedName(r.Name), targs)...)
			del = jen.Id("e").Dot(bodyName("Delete" + exportedName(r.Name))).Call(g.bodyArgs("Delete"+exportedName(r.Name), targs)...)
			applyCases = append(applyCases, jen.Case(jen.Lit(ri)).Block(
				jen.List(jen.Id("t"), jen.Err()).Op(":=").Id(pn).Call(jen.Id("f")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.If(jen.Id("insert")).Block(ins).Else().Block(del),
				jen.Return(jen.Nil()),
			))
		} else {
			applyCases = append(applyCases, jen.Case(jen.Lit(ri)).Block(
				jen.List(jen.Id("t"), jen.Err()).Op(":=").Id(pn).Call(jen.Id("f")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.If(jen.Id("insert")).Block(jen.Return(ins)),
				jen.Return(del),
			))
		}
		brels = append(brels, batchRel{r: r, index: ri, tuple: tn, targs: targs, narrow: narrow})
	}
	badRel := jen.Default().Block(jen.Return(jen.Qual("fmt", "Errorf").Call(
		jen.Lit(fmt.Sprintf("relation index %%d out of range: the engine has %d relations", len(g.p.Relations))), jen.Id("rel"))))
	applyCases = append(applyCases, badRel)
	g.f.Comment("Apply parses one event's fields and fires the insert or delete trigger of relation rel\n(an index of Relations: see the Relation constants). A field that does not parse is a\n*runtime.ColumnError; an event rejected by its trigger (an integer overflow) a\n*runtime.EventError.")
	// An event fired through its statements' method (fire) skips the
	// exported trigger's flush: Apply flushes itself (once: a flush with
	// no view written reports nothing).
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("Apply").Params(jen.Id("rel").Int(), jen.Id("insert").Bool(), jen.Id("f").Index().Index().Byte()).Error().Block(
		jen.If(jen.Id("e").Dot("changes").Op("!=").Nil()).Block(jen.Defer().Id("e").Dot("flushChanges").Call()),
		g.applyGuard(),
		jen.Switch(jen.Id("rel")).Block(applyCases...))

	g.batchType(brels, badRel)

	g.changeMethods()

	// Views.
	var views []jen.Code
	for vi, v := range g.p.Views {
		vn := viewStem(v.Name, v.Named)
		var keys, vals []jen.Code
		for _, k := range v.Keys {
			d := jen.Dict{jen.Id("Name"): jen.Lit(k.Name), jen.Id("Type"): runtimeColType(k.Var.Type)}
			if k.Present.Name != "" {
				d[jen.Id("Nullable")] = jen.True()
			}
			keys = append(keys, jen.Values(d))
		}
		for _, val := range v.Values {
			d := jen.Dict{jen.Id("Name"): jen.Lit(val.Name), jen.Id("Type"): runtimeColType(val.Type)}
			if val.Present != nil && !v.Distinct {
				d[jen.Id("Nullable")] = jen.True()
			}
			vals = append(vals, jen.Values(d))
		}
		var ocols []jen.Code
		for _, c := range v.Columns {
			d := jen.Dict{jen.Id("Name"): jen.Lit(c.Name), jen.Id("Index"): jen.Lit(c.Index)}
			if c.Key {
				d[jen.Id("Key")] = jen.True()
			}
			ocols = append(ocols, jen.Values(d))
		}
		var cells []jen.Code
		field := rowFields()
		var nullable []bool
		for _, k := range v.Keys {
			nullable = append(nullable, k.Present.Name != "")
		}
		for _, val := range v.Values {
			nullable = append(nullable, val.Present != nil && !v.Distinct)
		}
		for i, n := range append(colNames(v.Keys), valNames(v.Values)...) {
			cell := jen.Id("r").Dot(field(n))
			if nullable[i] {
				cell = cell.Dot("Box").Call() // nil for NULL
			}
			cells = append(cells, cell)
		}
		vd := jen.Dict{
			jen.Id("Name"):    jen.Lit(v.Name),
			jen.Id("Keys"):    jen.Index().Qual(runtimePkg, "Column").Values(keys...),
			jen.Id("Values"):  jen.Index().Qual(runtimePkg, "Column").Values(vals...),
			jen.Id("Columns"): jen.Index().Qual(runtimePkg, "OutputColumn").Values(ocols...),
		}
		if v.Order != nil {
			var order []jen.Code
			for _, k := range v.Order {
				d := jen.Dict{jen.Id("Pos"): jen.Lit(k.Pos)}
				if k.Desc {
					d[jen.Id("Desc")] = jen.True()
				}
				order = append(order, jen.Values(d))
			}
			vd[jen.Id("Order")] = jen.Index().Qual(runtimePkg, "SortKey").Values(order...)
		}
		snap := snapshotName(vi)
		var ret jen.Code = jen.Return(jen.Id("v"))
		if len(v.Numbered) > 0 {
			// The numbers of a row's copies are keys of the rows shown.
			var numbered []jen.Code
			for _, j := range v.Numbered {
				numbered = append(numbered, jen.Lit(j))
			}
			ret = jen.Return(jen.Qual(runtimePkg, "NumberCopies").Call(jen.Id("v"), jen.Index().Int().Values(numbered...)))
		}
		g.f.Commentf("%s returns a snapshot of view %s (see Views).", snap, v.Name)
		g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(snap).Params().Qual(runtimePkg, "View").Block(
			jen.Id("v").Op(":=").Qual(runtimePkg, "View").Values(vd),
			jen.For(jen.List(jen.Id("_"), jen.Id("r")).Op(":=").Range().Id("e").Dot(vn).Call()).Block(
				jen.Id("v").Dot("Rows").Op("=").Append(jen.Id("v").Dot("Rows"), jen.Index().Any().Values(cells...))),
			ret)
		views = append(views, jen.Id("e").Dot(snap).Call())
	}
	g.f.Comment("Views returns a snapshot of every view, for drivers: rows sorted by key, or in the")
	g.f.Comment("view's order for a view with an ORDER BY or a LIMIT.")
	var all jen.Code = jen.Nil()
	if len(views) > 0 {
		all = jen.Index().Qual(runtimePkg, "View").Values(views...)
	}
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id("Views").Params().Index().Qual(runtimePkg, "View").Block(
		jen.Return(all))
	g.f.Var().Id("_").Qual(runtimePkg, "Engine").Op("=").Parens(jen.Op("*").Id("Engine")).Parens(jen.Nil())
	g.f.Var().Id("_").Qual(runtimePkg, "ChangeStreamer").Op("=").Parens(jen.Op("*").Id("Engine")).Parens(jen.Nil())
}

// jsonName matches the labels a view row's JSON tag takes as they are.
var jsonName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// keyType is the Go type of a view key column: runtime.Null[T] when it may
// be NULL.
func keyType(k calculus.Column) jen.Code {
	if k.Present.Name != "" {
		return jen.Qual(runtimePkg, "Null").Types(goType(k.Var.Type))
	}
	return goType(k.Var.Type)
}

// valueType is the Go type of a view value column: runtime.Null[T] when it
// may be NULL.
func valueType(v calculus.Value) jen.Code {
	if v.Present != nil {
		return jen.Qual(runtimePkg, "Null").Types(goType(v.Type))
	}
	return goType(v.Type)
}

func colNames(cs []calculus.Column) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func valNames(vs []calculus.Value) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	return out
}

// readColumns reports which columns of relation rel some statement of its
// insert or delete trigger reads.
func (g *gen) readColumns(rel string, n int) []bool {
	read := make([]bool, n)
	for _, t := range g.p.Triggers {
		if t.Event.Rel != rel {
			continue
		}
		used := stmtVars(t.Stmts)
		for i, a := range t.Event.Args[:n] {
			read[i] = read[i] || used[a.Name]
		}
	}
	return read
}

// stmtVars returns the names of the variables statements ss mention: their
// keys and every variable of their factors.
func stmtVars(ss []*viewlet.Stmt) map[string]bool {
	used := map[string]bool{}
	for _, s := range ss {
		for _, k := range s.Keys {
			used[k.Name] = true
		}
		for _, mono := range s.RHS {
			for _, f := range mono.Factors {
				for _, v := range calculus.Vars(f) {
					used[v.Name] = true
				}
			}
		}
	}
	return used
}

// fire is ApplyBatch's call of trigger method name on the tuple's columns
// targs: where the statements are a method of their own, it calls that
// with the columns they read, then checks for an overflow as the method
// would, passing every column only to the rare rejection.
func (g *gen) fire(name string, targs []jen.Code) []jen.Code {
	tb, ok := g.triggerBodies[name]
	if !ok {
		return []jen.Code{jen.Id("err").Op("=").Id("e").Dot(name).Call(targs...)}
	}
	code := []jen.Code{jen.Id("e").Dot(bodyName(name)).Call(g.bodyArgs(name, targs)...)}
	if tb.checked {
		code = append(code, jen.If(jen.Id("e").Dot("overflow").Op("&&").Op("!").Id("e").Dot("undoing")).Block(
			jen.Id("err").Op("=").Id("e").Dot("reject"+name).Call(targs...)))
	}
	return code
}

// bodyArgs are the arguments of the statements of trigger method name
// (see fire) among the tuple's columns targs.
func (g *gen) bodyArgs(name string, targs []jen.Code) []jen.Code {
	tb := g.triggerBodies[name]
	args := make([]jen.Code, len(tb.reads))
	for i, c := range tb.reads {
		args[i] = targs[c]
	}
	return args
}

// narrowTuple returns which columns of r a parsed tuple stores, nil for
// all of them. When neither trigger of r checks overflows, the statements
// (a method of their own, see fire) are all Apply and ApplyBatch run, so
// a tuple needs only the columns they read: a batch of narrow tuples is
// less memory to stream through.
func (g *gen) narrowTuple(r *lang.Relation) []bool {
	keep := make([]bool, len(r.Columns))
	for _, verb := range []string{"Insert", "Delete"} {
		tb, ok := g.triggerBodies[verb+exportedName(r.Name)]
		if !ok || tb.checked {
			return nil
		}
		for _, c := range tb.reads {
			keep[c] = true
		}
	}
	return keep
}

// checkOnly checks a field that is not stored: nil for a string, which
// needs no checking.
func checkOnly(c *lang.Column, fld *jen.Statement) jen.Code {
	p := parserOf(c.Type)
	if p == nil {
		return nil
	}
	check := jen.List(jen.Id("_"), jen.Id("err")).Op("=").Add(p).Call(fld.Clone())
	if c.Nullable {
		check = jen.List(jen.Id("_"), jen.Id("err")).Op("=").Qual(runtimePkg, "ParseNullable").Call(fld.Clone(), runtimeColType(c.Type), p)
	}
	return jen.If(check, jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(jen.Id("t"), jen.Qual(runtimePkg, "NewColumnError").Call(jen.Lit(c.Name), runtimeColType(c.Type), fld.Clone())))
}

// parserOf is the runtime parser of a column type's fields, nil for a
// string, which needs no parsing.
func parserOf(t lang.Type) *jen.Statement {
	switch t {
	case lang.TInt:
		return jen.Qual(runtimePkg, "ParseInt")
	case lang.TFloat:
		return jen.Qual(runtimePkg, "ParseFloat")
	case lang.TDate:
		return jen.Qual(runtimePkg, "ParseDate")
	}
	return nil
}

// snapshotName is the Engine method that snapshots view vi alone.
func snapshotName(vi int) string { return fmt.Sprintf("snapshotView%d", vi) }

// rowFields returns the namer of a view row type's fields: a column's
// exported name, made distinct by underscores in the order the columns
// are named (keys, then values), as the row type, Views and the change
// rows all number them.
func rowFields() func(name string) string {
	used := map[string]bool{}
	return func(n string) string {
		f := exportedName(n)
		for used[f] {
			f += "_"
		}
		used[f] = true
		return f
	}
}
