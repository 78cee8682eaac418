package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/calculus"

	"github.com/toastgen/toastgen/viewlet"
)

// Kernels (viewlet.Map.Kernel). A map kept by a triangle kernel is a plain
// int64 field like any keyless INT map; beside it the engine holds the
// runtime.TriangleCount, keyed by the variables its inputs share in the
// cycle. A trigger that writes an input ends by handing the kernel the
// input's entry at the event's key (viewlet.Sync) and storing its count.

func kernelField(mi *mapInfo) string { return mi.field + "Kernel" }

// kernelTypes returns the key types X, Y, Z of a triangle kernel.
func (g *gen) kernelTypes(k *viewlet.Kernel) (x, y, z jen.Code) {
	in0, in1 := k.Inputs[0].Keys, k.Inputs[1].Keys
	return g.keyType(in0[:k.Split[0]]), g.keyType(in0[k.Split[0]:]), g.keyType(in1[k.Split[1]:])
}

// kernelFields are the Engine fields of the kernels.
func (g *gen) kernelFields() []jen.Code {
	var fields []jen.Code
	for _, m := range g.p.Maps {
		if m.Kernel == nil {
			continue
		}
		mi := g.maps[m.Name]
		x, y, z := g.kernelTypes(m.Kernel)
		fields = append(fields, jen.Commentf("%s keeps %s: heavy/light triangle counting over its inputs.", kernelField(mi), m.Name))
		fields = append(fields, jen.Id(kernelField(mi)).Qual(runtimePkg, "TriangleCount").Types(x, y, z))
	}
	return fields
}

// kernelSyncs are the calls that end trigger t, after its statements: each
// kernel input entry the event wrote goes to its kernel.
func (g *gen) kernelSyncs(t *viewlet.Trigger, sc scope) []jen.Code {
	var code []jen.Code
	for _, u := range t.Syncs {
		mi := g.maps[u.Map.Name]
		in := g.maps[u.Map.Kernel.Inputs[u.Input].Name]
		// key builds the key of vars from the event's values of u.Keys[from:to].
		key := func(vars []calculus.Var, from, to int) jen.Code {
			vals := make([]jen.Code, 0, to-from)
			for _, k := range u.Keys[from:to] {
				vals = append(vals, sc[k.Name].Clone())
			}
			return g.keyValue(vars, vals)
		}
		split, keys := u.Map.Kernel.Split[u.Input], in.m.Keys
		first := key(keys[:split], 0, split)
		second := key(keys[split:], split, len(keys))
		weight := in.get(key(keys, 0, len(keys)))
		set := []string{"Set1", "Set2", "Set3"}[u.Input]
		code = append(code,
			jen.Id("e").Dot(kernelField(mi)).Dot(set).Call(first, second, weight),
			jen.Id("e").Dot(mi.field).Op("=").Id("e").Dot(kernelField(mi)).Dot("Count").Call())
	}
	return code
}
