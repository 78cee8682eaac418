package viewlet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
)

// factorizeViews turns into view trees (calculus.Factorize) the views whose
// flat map some event updates in a loop — one entry per partner of the
// event's tuple — where the tree's factors take one update each. It
// compiles the file again with those queries factorized, and keeps a tree
// only where every statement writing one of its count factors writes the
// one entry the event's variables name (the Touch the engines recount
// from); a view for which that fails stays flat.
func factorizeViews(f *lang.File, queries []*calculus.Query, opts Options, flat *Program) (*Program, error) {
	next := slices.Clone(queries)
	factorized := false
	for i, v := range flat.Views {
		if !loopsOver(flat, v) {
			continue
		}
		if q, ok := calculus.Factorize(queries[i]); ok {
			next[i] = q
			factorized = true
		}
	}
	if !factorized {
		return flat, nil
	}
	for {
		p, err := compileSynced(f, next, opts)
		if err != nil {
			return nil, err
		}
		bad := setTouches(p)
		if len(bad) == 0 {
			return p, nil
		}
		for _, i := range bad {
			next[i] = queries[i]
		}
	}
}

// loopsOver reports whether a trigger updates one of v's maps at keys the
// event does not bind.
func loopsOver(p *Program, v *View) bool {
	for _, t := range p.Triggers {
		for _, s := range t.Stmts {
			if !slices.Contains(v.Aggs, s.Map) {
				continue
			}
			for _, k := range s.Keys {
				if !slices.ContainsFunc(t.Event.Args, func(a calculus.Var) bool { return a.Name == k.Name }) {
					return true
				}
			}
		}
	}
	return false
}

// setTouches records in every trigger the tree nodes whose count factors
// its statements write, and returns the views for which a statement writes
// a count factor at keys the event does not bind, or replaces it.
func setTouches(p *Program) (bad []int) {
	for vi, v := range p.Views {
		if v.Tree == nil {
			continue
		}
		ok := true
		var touches [][]Touch
		for _, t := range p.Triggers {
			var ts []Touch
			for _, s := range t.Stmts {
				node := slices.IndexFunc(v.Tree.Nodes, func(n calculus.TreeNode) bool { return n.Count >= 0 && v.Aggs[n.Count] == s.Map })
				if node < 0 {
					continue
				}
				for _, k := range s.Keys {
					if !slices.ContainsFunc(t.Event.Args, func(a calculus.Var) bool { return a.Name == k.Name }) {
						ok = false
					}
				}
				if s.Replace || len(s.Keys) != len(v.Tree.Path(node)) {
					ok = false
				}
				u := Touch{View: vi, Node: node, Keys: s.Keys}
				if !slices.ContainsFunc(ts, func(x Touch) bool { return x.Node == node && varList(x.Keys) == varList(u.Keys) }) {
					ts = append(ts, u)
				}
			}
			touches = append(touches, ts)
		}
		if !ok {
			bad = append(bad, vi)
			continue
		}
		for i, t := range p.Triggers {
			t.Touches = append(t.Touches, touches[i]...)
		}
	}
	if len(bad) > 0 {
		for _, t := range p.Triggers {
			t.Touches = nil
		}
	}
	return bad
}

// writeTree prints a view's tree: each node's keys and count factor,
// children indented under their parent.
func writeTree(b *strings.Builder, v *View) {
	names := keyVarNames(v)
	var walk func(n, depth int)
	walk = func(n, depth int) {
		nd := v.Tree.Nodes[n]
		keys := make([]string, len(nd.Keys))
		for i, p := range nd.Keys {
			keys[i] = names[p]
		}
		fmt.Fprintf(b, "  %snode %d [%s]", strings.Repeat("  ", depth), n, strings.Join(keys, ", "))
		if nd.Count >= 0 {
			fmt.Fprintf(b, " rows where #%d != 0", nd.Count)
		}
		b.WriteString("\n")
		for _, c := range v.Tree.Children(n) {
			walk(c, depth+1)
		}
	}
	b.WriteString("  TREE (factorized: rows are the key paths whose count factors are all non-zero)\n")
	for _, r := range v.Tree.Children(-1) {
		walk(r, 1)
	}
}
