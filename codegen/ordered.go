package codegen

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// Ordered views: a view with an ORDER BY or a LIMIT (viewlet.View.Order,
// Limit). Its row type and row method are a view's like any other; its
// accessors differ:
//
//   - compare<View>Rows orders two rows by View.Order, a total order (the
//     ORDER BY items, then the other columns ascending; NULL first
//     ascending, last descending);
//   - <View>() returns the rows in that order, cut to the LIMIT's window
//     (runtime.Limit: a bag view's boundary row keeps the multiplicity of
//     its part); <View>Rows iterates over them; Views reports them in that
//     order, with the order;
//   - <View>Get of a view with a LIMIT returns a row only if the window
//     shows it.
//
// The rows are ordered when read: O(n log n) for a view of n rows; the
// triggers do not change.

// orderedView emits the accessors of an ordered view; row is its row type,
// keyFields and valFields the row's fields.
func (g *gen) orderedView(v *viewlet.View, row string, keyFields, valFields []string, getParams, getArgs []jen.Code, keyVars []calculus.Var) error {
	vn := viewStem(v.Name, v.Named)
	lower := rowMethod(v)
	cmpName := "compare" + vn + "Rows"
	fields := append(append([]string{}, keyFields...), valFields...)
	var nullable []bool
	for _, k := range v.Keys {
		nullable = append(nullable, k.Present.Name != "")
	}
	for _, val := range v.Values {
		nullable = append(nullable, val.Present != nil && !v.Distinct)
	}
	var cmps []jen.Code
	for _, k := range v.Order {
		compare := jen.Qual("cmp", "Compare")
		if nullable[k.Pos] {
			compare = jen.Qual(runtimePkg, "CompareNull")
		}
		a, b := jen.Id("a").Dot(fields[k.Pos]), jen.Id("b").Dot(fields[k.Pos])
		if k.Desc {
			a, b = b, a
		}
		cmps = append(cmps, jen.If(jen.Id("c").Op(":=").Add(compare).Call(a, b), jen.Id("c").Op("!=").Lit(0)).Block(jen.Return(jen.Id("c"))))
	}
	cmps = append(cmps, jen.Return(jen.Lit(0)))
	g.f.Commentf("%s orders rows of view %s: %s.", cmpName, v.Name, orderText(v))
	g.f.Func().Id(cmpName).Params(jen.List(jen.Id("a"), jen.Id("b")).Id(row)).Int().Block(cmps...)
	if topIndexed(v) {
		g.topAccessors(v, row, valFields, getParams, getArgs)
		return nil
	}

	// All rows, in order, cut to the window.
	var collect jen.Code
	if v.Scalar {
		collect = jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(), jen.Id("ok")).Block(
			jen.Id("rows").Op("=").Append(jen.Id("rows"), jen.Id("r")))
	} else {
		cm := g.maps[v.Aggs[0].Name]
		kargs := make([]jen.Code, len(keyVars))
		for i := range keyVars {
			kargs[i] = keyField(jen.Id("k"), len(keyVars), i)
		}
		cm.usesScan = true
		collect = jen.For(jen.Id("k").Op(":=").Range().Add(rangeIndex(cm.index(), jen.Id("e").Dot(cm.field)))).Block(
			jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(kargs...), jen.Id("ok")).Block(
				jen.Id("rows").Op("=").Append(jen.Id("rows"), jen.Id("r"))))
	}
	ret := jen.Return(jen.Id("rows"))
	what := "in order"
	if l := v.Limit; l != nil {
		weight := jen.Nil()
		if v.Bag {
			weight = jen.Func().Params(jen.Id("r").Op("*").Id(row)).Op("*").Int64().Block(jen.Return(jen.Op("&").Id("r").Dot(valFields[0])))
		}
		ret = jen.Return(jen.Qual(runtimePkg, "Limit").Call(jen.Id("rows"), jen.Lit(l.Offset), jen.Lit(l.Count), weight))
		what = "of its LIMIT, in order"
	}
	g.f.Commentf("%s returns the rows of view %s %s (%s).", vn, v.Name, what, orderText(v))
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn).Params().Index().Id(row).Block(
		jen.Var().Id("rows").Index().Id(row),
		collect,
		jen.Qual("slices", "SortFunc").Call(jen.Id("rows"), jen.Id(cmpName)),
		ret,
	)
	g.f.Commentf("%sRows iterates over the rows of view %s %s.", vn, v.Name, what)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn+"Rows").Params().Qual("iter", "Seq").Types(jen.Id(row)).Block(
		jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(jen.Id(row)).Bool()).Block(
			jen.For(jen.List(jen.Id("_"), jen.Id("r")).Op(":=").Range().Id("e").Dot(vn).Call()).Block(
				jen.If(jen.Op("!").Id("yield").Call(jen.Id("r"))).Block(jen.Return())))))

	// Point lookup.
	get := []jen.Code{jen.Return(jen.Id("e").Dot(lower).Call(getArgs...))}
	if v.Limit != nil {
		same := jen.True()
		for i, f := range keyFields {
			if i == 0 {
				same = jen.Id("w").Dot(f).Op("==").Id("r").Dot(f)
			} else {
				same = same.Op("&&").Id("w").Dot(f).Op("==").Id("r").Dot(f)
			}
		}
		get = []jen.Code{
			jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(getArgs...),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Id("r"), jen.False())),
			jen.Comment("In the window? (read-time order: O(n log n))"),
			jen.For(jen.List(jen.Id("_"), jen.Id("w")).Op(":=").Range().Id("e").Dot(vn).Call()).Block(
				jen.If(same).Block(jen.Return(jen.Id("w"), jen.True()))),
			jen.Return(jen.Id(row).Values(), jen.False()),
		}
	}
	g.f.Commentf("%sGet returns the row of view %s with the given key, if the view shows it.", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn+"Get").Params(getParams...).Params(jen.Id(row), jen.Bool()).Block(get...)
	return nil
}

// orderText describes a view's order for comments: "ORDER BY TOTAL DESC,
// A LIMIT 3 OFFSET 1".
func orderText(v *viewlet.View) string {
	return calculus.OrderString(v.CellNames(), v.Order, v.Limit)
}

// Running sums (windows with an ORDER BY, calculus.RangeRef): each is one
// read of a range-sum index of its aggregate's map, grouped by the map's
// keys but the ORDER BY value (the partition) and ordered by it, O(log n)
// when the row is read.

// rangeName is the scope name of a running sum.
func rangeName(x *calculus.RangeRef) string {
	return fmt.Sprintf("range#%d#%v#%v#%d", x.Index, x.Desc, x.Strict, x.Order)
}

// readsRange reports whether a value or HAVING of v reads aggregate i by a
// running sum.
func readsRange(v *viewlet.View, i int) bool {
	found := false
	for _, r := range rangeRefs(v) {
		found = found || r.Index == i
	}
	return found
}

func rangeRefs(v *viewlet.View) []*calculus.RangeRef {
	var out []*calculus.RangeRef
	visit := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			if r, ok := x.(*calculus.RangeRef); ok {
				out = append(out, r)
			}
		})
	}
	for _, val := range v.Values {
		visit(val.E)
		visit(val.Present)
	}
	if v.Having != nil {
		visit(v.Having)
	}
	return out
}

// runningSums emits the reads of the running sums of view v's row into
// local variables, which sc names.
func (g *gen) runningSums(v *viewlet.View, keyVars []calculus.Var, sc scope) ([]jen.Code, error) {
	var code []jen.Code
	for _, x := range rangeRefs(v) {
		name := rangeName(x)
		if _, done := sc[name]; done {
			continue
		}
		m := v.Aggs[x.Index]
		mi := g.maps[m.Name]
		// slot is the row's value of key j of the map: a view key, or an
		// expression of the row (calculus.RangeRef.Exprs).
		slot := func(j int) (jen.Code, error) {
			if p := x.Keys[j]; p >= 0 {
				return sc[keyVars[p].Name].Clone(), nil
			}
			c, err := g.expr(x.Exprs[j], sc)
			if err != nil {
				return nil, err
			}
			return convert(c, x.Exprs[j].Type(), m.Keys[j].Type), nil
		}
		var group []int
		var vals []jen.Code
		flagAt := -1 // the flag's index in the group key
		for j := range x.Keys {
			if j != x.Order {
				if j == x.Flag {
					flagAt = len(group)
				}
				group = append(group, j)
				c, err := slot(j)
				if err != nil {
					return nil, err
				}
				vals = append(vals, c)
			}
		}
		// gkey is the group key, with the order value's flag set to f.
		gkey := func(f int) jen.Code {
			vs := slices.Clone(vals)
			if flagAt >= 0 {
				vs[flagAt] = jen.Lit(f)
			}
			return g.keyValue(subVars(m.Keys, group), vs)
		}
		at, err := slot(x.Order)
		if err != nil {
			return nil, err
		}
		fn := map[[2]bool]string{{false, false}: "SumLessEq", {false, true}: "SumLess", {true, false}: "SumGreaterEq", {true, true}: "SumGreater"}[[2]bool{x.Desc, x.Strict}]
		ix := mi.rangeFor(group, x.Order)
		local := g.fresh("run")
		if x.Flag < 0 {
			args := []jen.Code{at}
			if len(group) > 0 {
				args = append([]jen.Code{gkey(0)}, args...)
			}
			code = append(code, jen.Id(local).Op(":=").Add(g.rangeCall(mi, ix, fn, args...)))
			sc[name] = jen.Id(local)
			continue
		}
		// A nullable ORDER BY value: NULL first ascending, last descending,
		// NULLs peers; the NULL rows are group flag 0, the others flag 1.
		nulls := g.rangeCall(mi, ix, "Total", gkey(0))
		values := g.rangeCall(mi, ix, fn, gkey(1), at)
		var ifNull, ifValue jen.Code
		switch {
		case !x.Desc && !x.Strict:
			ifNull, ifValue = nulls, jen.Add(nulls).Op("+").Add(values)
		case !x.Desc:
			ifNull, ifValue = jen.Lit(0), jen.Add(nulls).Op("+").Add(values)
		case !x.Strict:
			ifNull, ifValue = jen.Add(g.rangeCall(mi, ix, "Total", gkey(1))).Op("+").Add(nulls), values
		default:
			ifNull, ifValue = g.rangeCall(mi, ix, "Total", gkey(1)), values
		}
		flag, err := slot(x.Flag)
		if err != nil {
			return nil, err
		}
		code = append(code,
			jen.Var().Id(local).Add(goType(m.Type)),
			jen.If(jen.Add(flag).Op("==").Lit(0)).Block(jen.Id(local).Op("=").Add(ifNull)).Else().Block(jen.Id(local).Op("=").Add(ifValue)))
		sc[name] = jen.Id(local)
	}
	return code, nil
}
