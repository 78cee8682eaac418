package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/viewlet"
)

// Factorized views (viewlet.View.Tree). Beside the factor maps, which the
// triggers keep like any map, the engine holds a runtime.TreeLevel per
// node of the view's tree: per value of the node's path above it, the
// node's values that have rows under them and how many. A trigger ends by
// recounting, at the event's key, the nodes whose count factors it wrote
// (viewlet.Touch): the touch method reads the factor and the children's
// totals, stores the count, and when it changed recounts the parent at the
// path above. Listing walks the levels from the roots, so every value it
// visits leads to a row (constant delay), and Len multiplies the roots'
// totals.

// treeLevel and treeTouch name the engine members of node n of a factorized
// view: its runtime.TreeLevel field and its touch method.
func treeLevel(v *viewlet.View, n int) string {
	return fmt.Sprintf("%sLevel%d", lowerFirst(viewStem(v.Name, v.Named)), n)
}

func treeTouch(v *viewlet.View, n int) string {
	return fmt.Sprintf("%sTouch%d", lowerFirst(viewStem(v.Name, v.Named)), n)
}

func at(vs []calculus.Var, pos []int) []calculus.Var {
	out := make([]calculus.Var, len(pos))
	for i, p := range pos {
		out[i] = vs[p]
	}
	return out
}

// treeKeyType is the Go type of a key of the variables vs: struct{} when
// there are none (a root's path above it).
func (g *gen) treeKeyType(vs []calculus.Var) jen.Code {
	if len(vs) == 0 {
		return jen.Struct()
	}
	return g.keyType(vs)
}

func (g *gen) treeKeyValue(vs []calculus.Var, vals []jen.Code) jen.Code {
	if len(vs) == 0 {
		return jen.Struct().Values()
	}
	return g.keyValue(vs, vals)
}

// treeFields are the Engine fields of the factorized views' levels.
func (g *gen) treeFields() []jen.Code {
	var fields []jen.Code
	for _, v := range g.p.Views {
		if v.Tree == nil {
			continue
		}
		kv := viewKeyVars(v)
		for n, nd := range v.Tree.Nodes {
			p := g.treeKeyType(at(kv, v.Tree.Path(nd.Parent)))
			k := g.treeKeyType(at(kv, nd.Keys))
			fields = append(fields, jen.Commentf("%s: the values of node %d of view %s's tree with rows under them", treeLevel(v, n), n, v.Name))
			fields = append(fields, jen.Id(treeLevel(v, n)).Qual(runtimePkg, "TreeLevel").Types(p, k))
		}
	}
	return fields
}

// treeTouches are the calls that end trigger t: a recount of every tree
// node whose count factor t writes, at the event's key.
func (g *gen) treeTouches(t *viewlet.Trigger, sc scope) []jen.Code {
	var code []jen.Code
	for _, u := range t.Touches {
		args := make([]jen.Code, len(u.Keys))
		for i, k := range u.Keys {
			args[i] = sc[k.Name].Clone()
		}
		code = append(code, jen.Id("e").Dot(treeTouch(g.p.Views[u.View], u.Node)).Call(args...))
	}
	return code
}

// treeMethods emits the touch method of every node of view v's tree and
// the view's Len.
func (g *gen) treeMethods(v *viewlet.View) {
	kv := viewKeyVars(v)
	t := v.Tree
	for n, nd := range t.Nodes {
		path := at(kv, t.Path(n))
		var params, vals []jen.Code
		for _, x := range path {
			params = append(params, jen.Id(varName(x.Name)).Add(goType(x.Type)))
			vals = append(vals, jen.Id(varName(x.Name)))
		}
		var rows jen.Code = jen.Lit(1)
		var prod *jen.Statement
		for _, c := range t.Children(n) {
			total := jen.Id("e").Dot(treeLevel(v, c)).Dot("Total").Call(g.treeKeyValue(path, vals))
			if prod == nil {
				prod = total
			} else {
				prod = prod.Op("*").Add(total)
			}
		}
		if prod != nil {
			rows = prod
		}
		var body []jen.Code
		if nd.Count >= 0 {
			m := v.Aggs[nd.Count]
			body = append(body,
				jen.Id("rows").Op(":=").Int64().Call(jen.Lit(0)),
				jen.If(g.maps[m.Name].get(g.keyValue(m.Keys, vals)).Op("!=").Lit(0)).Block(jen.Id("rows").Op("=").Add(rows)))
		} else {
			body = append(body, jen.Id("rows").Op(":=").Add(rows))
		}
		own := g.treeKeyValue(at(kv, nd.Keys), vals[len(vals)-len(nd.Keys):])
		parent := g.treeKeyValue(path[:len(path)-len(nd.Keys)], vals[:len(vals)-len(nd.Keys)])
		set := jen.Id("e").Dot(treeLevel(v, n)).Dot("Set").Call(parent, own, jen.Id("rows"))
		if nd.Parent >= 0 {
			body = append(body, jen.If(set).Block(jen.Id("e").Dot(treeTouch(v, nd.Parent)).Call(vals[:len(vals)-len(nd.Keys)]...)))
		} else {
			body = append(body, set)
		}
		g.f.Commentf("%s recounts the rows of view %s under node %d of its tree at the given path,", treeTouch(v, n), v.Name, n)
		g.f.Comment("and its parent's when their number changed.")
		g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(treeTouch(v, n)).Params(params...).Block(body...)
	}
	var count *jen.Statement
	for _, r := range t.Children(-1) {
		total := jen.Id("e").Dot(treeLevel(v, r)).Dot("Total").Call(jen.Struct().Values())
		if count == nil {
			count = total
		} else {
			count = count.Op("*").Add(total)
		}
	}
	vn := viewStem(v.Name, v.Named)
	g.f.Commentf("%sLen returns the number of rows of view %s, in constant time.", vn, v.Name)
	g.f.Func().Params(jen.Id("e").Op("*").Id("Engine")).Id(vn + "Len").Params().Int().Block(jen.Return(jen.Int().Call(count)))
}

// treeLoop is the body of a factorized view's row iterator: nested loops
// over the levels, parents first, each value bound from its level's key.
func (g *gen) treeLoop(v *viewlet.View, lower string) jen.Code {
	kv := viewKeyVars(v)
	t := v.Tree
	sc := map[string]jen.Code{}
	var nest func(i int) jen.Code
	nest = func(i int) jen.Code {
		if i == len(t.Nodes) {
			args := make([]jen.Code, len(kv))
			for j, x := range kv {
				args[j] = sc[x.Name]
			}
			return jen.If(jen.List(jen.Id("r"), jen.Id("ok")).Op(":=").Id("e").Dot(lower).Call(args...), jen.Id("ok").Op("&&").Op("!").Id("yield").Call(jen.Id("r"))).Block(jen.Return())
		}
		nd := t.Nodes[i]
		above := at(kv, t.Path(nd.Parent))
		vals := make([]jen.Code, len(above))
		for j, x := range above {
			vals[j] = sc[x.Name]
		}
		k := jen.Id(fmt.Sprintf("k%d", i))
		for j, p := range nd.Keys {
			sc[kv[p].Name] = keyField(k, len(nd.Keys), j)
		}
		inner := nest(i + 1)
		return jen.For(k.Clone().Op(":=").Range().Id("e").Dot(treeLevel(v, i)).Dot("Each").Call(g.treeKeyValue(above, vals))).Block(inner)
	}
	return nest(0)
}
