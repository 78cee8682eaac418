package calculus

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Compound queries: UNION, INTERSECT and EXCEPT, [ALL] (see the package
// doc).

// unionRows translates a UNION [ALL]: each branch's rows, with its items
// lifted to shared output variables, summed (bag union); UNION keeps each
// distinct row once.
func (b *block) unionRows() ([]lang.Expr, []Term, error) {
	q := b.q
	var out []Var
	for i, it := range q.Items {
		out = append(out, b.t.newVar(outputVarName(i, it.Name), it.Expr.Type()))
	}
	type branch struct {
		items []lang.Expr
		rows  []Term
	}
	var bs []branch
	nullable := make([]bool, len(out))
	for _, br := range q.Union {
		inner, err := b.t.newBlock(br, b.up)
		if err != nil {
			return nil, nil, err
		}
		items, rows, err := inner.rowsOf()
		if err != nil {
			return nil, nil, err
		}
		if len(items) != len(out) {
			return nil, nil, errorAt(br.Pos, "UNION branches must have the same number of columns")
		}
		for i, e := range items {
			if b.t.presence(e) == nil {
				continue
			}
			if !b.t.sql {
				if err := b.t.notNullable(e, br.Items[i].Expr.Pos(), "this UNION column"); err != nil {
					return nil, nil, err
				}
			}
			nullable[i] = true
		}
		bs = append(bs, branch{items, rows})
	}
	// A column that may be NULL in some branch (dialect sql) is its value
	// (zero where NULL) and a presence flag, both in the union's group, so
	// that NULL is one value, apart from the zero.
	group := append([]Var{}, out...)
	flags := make([]Var, len(out))
	for i := range out {
		if nullable[i] {
			flags[i] = b.t.newVar(PresenceName(out[i].Name), lang.TInt)
			group = append(group, flags[i])
			b.t.setPresent(out[i], countTest(flags[i], true))
		}
	}
	var branches []Term
	for _, br := range bs {
		rows := br.rows
		if q.SetOp != lang.Union {
			// INTERSECT and EXCEPT read each side's count per row, keyed by
			// the output columns: a column of a relation of the branch is
			// renamed to its output variable, so that an event's tuple
			// binds the row it changes (a lifted copy would hide it).
			rows, br.items = renameOutputs(rows, br.items, out, flags, nullable, b)
		}
		for i, e := range br.items {
			if e == nil {
				continue // renamed
			}
			if !nullable[i] {
				// Never NULL, but it may read NULLs (COALESCE(x, 0)): its
				// value spelled out two-valued.
				rows = append(rows, &Lift{V: out[i], T: &Val{E: b.t.orZero(e)}})
				continue
			}
			var flag lang.Expr = IntLit(1)
			if p := b.t.presence(e); p != nil {
				flag = &lang.Case{Whens: []*lang.When{{Cond: p, Then: IntLit(1)}}, Else: IntLit(0), T: lang.TInt}
			}
			rows = append(rows, &Lift{V: out[i], T: &Val{E: b.t.orZero(e)}}, &Lift{V: flags[i], T: &Val{E: flag}})
		}
		branches = append(branches, prod(rows))
	}
	var t Term
	if q.SetOp == lang.Union {
		t = &AggSum{Group: group, T: &Sum{Terms: branches}}
	} else {
		t = &AggSum{Group: group, T: branches[0]}
		for _, r := range branches[1:] {
			t = b.setOp(q.SetOp, q.UnionAll, group, t, &AggSum{Group: group, T: r})
		}
	}
	if !q.UnionAll {
		t = &Exists{T: t}
	}
	items := make([]lang.Expr, len(out))
	for i, v := range out {
		items[i] = Ref(v)
	}
	return items, []Term{t}, nil
}

// renameOutputs renames, in a branch's rows, each relation variable that
// is an output column as written (and its presence flag, for a column that
// may be NULL) to the output variables, and returns the rows and the items
// still to be lifted (nil where renamed).
func renameOutputs(rows []Term, items []lang.Expr, out, flags []Var, nullable []bool, b *block) ([]Term, []lang.Expr) {
	t := b.t
	// The branch's own variables (not an enclosing query's, which a
	// correlation may have unified with one of its columns).
	bound := map[string]bool{}
	for _, r := range rows {
		for _, f := range flatten(r) {
			if rel, ok := f.(*Rel); ok {
				for _, v := range rel.Vars {
					if t.order[v.Name] >= b.start {
						bound[v.Name] = true
					}
				}
			}
		}
	}
	sub := map[string]lang.Expr{}
	left := append([]lang.Expr(nil), items...)
	for i, e := range items {
		ref, ok := e.(*VarRef)
		if !ok || !bound[ref.V.Name] || sub[ref.V.Name] != nil {
			continue
		}
		var flag *VarRef
		if p := t.presence(e); p != nil {
			if c, ok := p.(*lang.Binary); ok && c.Op == "!=" {
				if f, ok := c.L.(*VarRef); ok && bound[f.V.Name] && sub[f.V.Name] == nil && isZeroLit(c.R) {
					flag = f
				}
			}
			if flag == nil {
				continue
			}
		} else if nullable[i] {
			continue // its flag is 1 here: lifted
		}
		sub[ref.V.Name] = Ref(out[i])
		if flag != nil {
			sub[flag.V.Name] = Ref(flags[i])
		}
		left[i] = nil
	}
	if len(sub) == 0 {
		return rows, items
	}
	renamed := make([]Term, len(rows))
	for i, r := range rows {
		renamed[i] = SubstTerm(r, sub)
	}
	for i, e := range left {
		if e != nil {
			left[i] = SubstExpr(e, sub)
		}
	}
	return renamed, left
}

// flatten returns the factors of nested products.
func flatten(t Term) []Term {
	if p, ok := t.(*Prod); ok {
		var out []Term
		for _, f := range p.Factors {
			out = append(out, flatten(f)...)
		}
		return out
	}
	return []Term{t}
}

func isZeroLit(e lang.Expr) bool {
	c, ok := litValue(e)
	return ok && c == 0
}

// setOp combines the row counts l and r of the two operands of INTERSECT
// or EXCEPT (AggSums over group, the rows' columns) into the counts of the
// result: it reads both counts of each row of l, as a grouped derived
// table does (Exists(l) binds group, one term per row), and derives the row's
// multiplicity from them — min(a, b) for INTERSECT ALL, max(0, a − b) for
// EXCEPT ALL, 1 where a > 0 and b > 0 (INTERSECT) or a > 0 and b = 0
// (EXCEPT). Maintained as nested aggregates, an event on either side
// re-evaluates the rows it touches from their old and new counts.
func (b *block) setOp(op lang.SetOp, all bool, group []Var, l, r Term) Term {
	a, n := b.t.newVar("n_left", lang.TInt), b.t.newVar("n_right", lang.TInt)
	cmp := func(o string, x, y lang.Expr) Term {
		return &Val{E: &lang.Binary{Op: o, L: x, R: y, T: lang.TBool}}
	}
	ra, rn := Ref(a), Ref(n)
	// The rows of l (Exists binds group), then their counts on each side.
	// Each copy of l gets its own local variables (freshCopy).
	fs := []Term{&Exists{T: b.freshCopy(l, group)}, &Lift{V: a, T: b.freshCopy(l, group)}, cmp(">", ra, IntLit(0)), &Lift{V: n, T: r}}
	switch {
	case op == lang.Intersect && all:
		least := &lang.Case{Whens: []*lang.When{{Cond: &lang.Binary{Op: "<", L: ra, R: rn, T: lang.TBool}, Then: ra}}, Else: rn, T: lang.TInt}
		fs = append(fs, cmp(">", rn, IntLit(0)), &Val{E: least})
	case op == lang.Intersect:
		fs = append(fs, cmp(">", rn, IntLit(0)))
	case all:
		fs = append(fs, cmp(">", ra, rn), &Val{E: &lang.Binary{Op: "-", L: ra, R: rn, T: lang.TInt}})
	default:
		fs = append(fs, cmp("=", rn, IntLit(0)))
	}
	return &AggSum{Group: group, T: prod(fs)}
}

// outputVarName names the variable of column i of a compound query after
// the column (they name the generated Get's parameters): its name in lower
// case when it is an identifier, else u<i+1>.
func outputVarName(i int, name string) string {
	n := strings.ToLower(name)
	for j, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || j > 0 && c >= '0' && c <= '9') {
			return fmt.Sprintf("u%d", i+1)
		}
	}
	if n == "" {
		return fmt.Sprintf("u%d", i+1)
	}
	return n
}
