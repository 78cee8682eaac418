package calculus

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Partition plans. N engines can share a query file's work when each
// relation is either partitioned — engine i gets the tuples whose
// partition column hashes to i — or broadcast (every engine gets all its
// tuples), and every view of the whole database is the sum of the views
// the engines compute over their slices (Z-set sums: each view's
// aggregates are sums over the joined tuples). That holds for a term of
// an aggregate (a monomial of its body) when
//
//   - it joins at least one partitioned relation (a term over broadcast
//     relations only would be counted by every engine), and
//   - all its partitioned relations are joined on their partition columns
//     (one variable: every combination of tuples it sums lies in one
//     engine's slice), and
//   - each nested aggregate in it (EXISTS, IN, a scalar subquery, a derived
//     table) reads broadcast relations only (every engine sees all of it)
//     or partitioned ones on that same variable (the nested value for an
//     outer tuple is computed from the tuples of its own slice).
//
// Every map an engine keeps is then a function of its slice, and the
// views merge by adding the engines' maps (SUM, COUNT, the multisets of
// MIN/MAX and holistic aggregates, top-K and windows read from them); a
// view whose partition variable is a group key has disjoint rows per
// engine (partition-local). Partition chooses, among the assignments of a
// partition column or broadcast to each relation, one that makes every
// view mergeable with the most stream relations partitioned (static
// tables are broadcast: they are dimension tables), weighing relations by
// their number of columns (fact tables are wide), preferring join columns.

// PartitionPlan says how a query file's relations are split across
// engines and how its views merge.
type PartitionPlan struct {
	// Relations: per relation of the file, in declaration order, its
	// partition column (Column ≥ 0) or broadcast (-1).
	Relations []RelationPartition
	// Views: per query, how its partitions' views merge.
	Views []ViewMerge
	// Reason is why the file is not partitionable ("" when it is): the
	// first view that no assignment makes mergeable, and why.
	Reason string
}

// RelationPartition is the partition column of one relation.
type RelationPartition struct {
	Relation *lang.Relation
	Column   int // -1: broadcast; -2: no query reads it
}

// ViewMerge is how the partitions' views of one query merge.
type ViewMerge struct {
	View string
	// Local: the partition variable is a group key of every aggregate, so
	// that the partitions' rows are disjoint; else the partitions' maps
	// add up.
	Local bool
	// Replicated: the indexes in the query's Aggs of the aggregates over
	// broadcast relations only (SQL's test that a nested set is not
	// empty), the same in every partition: taken from one, not added.
	Replicated []int
}

// Partitionable reports whether the plan splits the work.
func (p *PartitionPlan) Partitionable() bool { return p.Reason == "" }

// String prints the plan as toastgen m3 -partitions does.
func (p *PartitionPlan) String() string {
	var b strings.Builder
	if !p.Partitionable() {
		fmt.Fprintf(&b, "PARTITIONS: not partitionable: %s\n", p.Reason)
		return b.String()
	}
	b.WriteString("PARTITIONS\n")
	for _, r := range p.Relations {
		if r.Column == notRead {
			fmt.Fprintf(&b, "  %s not read\n", r.Relation.Name)
		} else if r.Column < 0 {
			fmt.Fprintf(&b, "  %s broadcast\n", r.Relation.Name)
		} else {
			fmt.Fprintf(&b, "  %s by %s\n", r.Relation.Name, r.Relation.Columns[r.Column].Name)
		}
	}
	for _, v := range p.Views {
		rep := ""
		if len(v.Replicated) > 0 {
			rep = fmt.Sprintf("; %d aggregate(s) over broadcast relations only, from one partition", len(v.Replicated))
		}
		if v.Local {
			fmt.Fprintf(&b, "  %s: partition-local (the partitions' rows are disjoint)%s\n", v.View, rep)
		} else {
			fmt.Fprintf(&b, "  %s: the sum of the partitions' maps%s\n", v.View, rep)
		}
	}
	return b.String()
}

// notRead marks a relation that no query reads.
const notRead = -2

// maxAssignments bounds the assignments Partition tries.
const maxAssignments = 1 << 16

// Partition returns the partition plan of the queries over rels.
func Partition(rels []*lang.Relation, qs []*Query) *PartitionPlan {
	// Candidates per relation: broadcast, or a column whose variable
	// another atom shares (a join column) or that groups a view.
	// (Joins and groups by variable class: dialect sql joins nullable
	// columns by equality conditions, not shared variables.)
	eq := unionFind{}
	for _, q := range qs {
		for _, a := range q.Aggs {
			WalkTermExprs(a, func(e lang.Expr) { equateExpr(e, eq) })
		}
	}
	joins := map[string]int{} // variable class → atoms of one aggregate reading it, at most
	groups := map[string]bool{}
	for _, q := range qs {
		for _, a := range q.Aggs {
			atoms := map[string]int{}
			Walk(a, func(t Term) {
				switch x := t.(type) {
				case *Rel:
					seen := map[string]bool{}
					for _, v := range x.Vars {
						if c := eq.find(v.Name); !seen[c] {
							atoms[c]++
							joins[c] = max(joins[c], atoms[c])
							seen[c] = true
						}
					}
				case *AggSum:
					for _, g := range x.Group {
						groups[eq.find(g.Name)] = true
					}
				}
			})
		}
	}
	read := map[string]bool{}
	for _, q := range qs {
		for _, a := range q.Aggs {
			for _, r := range Relations(a) {
				read[r] = true
			}
		}
	}
	cands := make([][]int, len(rels))
	joined := make([]map[int]bool, len(rels)) // the join columns of each relation
	for i, r := range rels {
		cands[i] = []int{-1}
		if !read[r.Name] {
			cands[i] = []int{notRead}
			continue
		}
		if !r.Stream {
			continue // a static table is a dimension table: broadcast
		}
		cols := map[int]bool{}
		for _, q := range qs {
			for _, a := range q.Aggs {
				Walk(a, func(t Term) {
					if x, ok := t.(*Rel); ok && x.Name == r.Name {
						for c, v := range x.Vars {
							k := eq.find(v.Name)
							if c < len(r.Columns) && (joins[k] > 1 || groups[k]) {
								cols[c] = true
							}
							if c < len(r.Columns) && joins[k] > 1 {
								if joined[i] == nil {
									joined[i] = map[int]bool{}
								}
								joined[i][c] = true
							}
						}
					}
				})
			}
		}
		// The first column too (a key, usually: any column splits a
		// relation joined on nothing).
		cols[0] = len(r.Columns) > 0
		for c := range r.Columns {
			if cols[c] {
				cands[i] = append(cands[i], c)
			}
		}
	}
	plan := &PartitionPlan{}
	best, bestScore := []int(nil), -1
	reason, reasonScore := "", -1 // of the failing assignment that partitions most
	assign := make([]int, len(rels))
	tried := 0
	var try func(i int)
	try = func(i int) {
		if tried >= maxAssignments {
			return
		}
		if i < len(rels) {
			for _, c := range cands[i] {
				assign[i] = c
				try(i + 1)
			}
			return
		}
		tried++
		// The widest relations partitioned (fact tables: no statistics
		// say which are large), on join columns, else on their first
		// (a key, more often than a low-cardinality group column).
		score := 0
		for j, c := range assign {
			if c >= 0 {
				score += 10 * len(rels[j].Columns)
				switch {
				case joined[j][c]:
					score += 2
				case c == 0:
					score++
				}
			}
		}
		if score <= bestScore || score == 0 {
			return
		}
		part := map[string]int{}
		for j, c := range assign {
			part[rels[j].Name] = c
		}
		for _, q := range qs {
			if m := mergeOf(q, part); m.why != "" {
				if score > reasonScore {
					reason, reasonScore = m.why, score
				}
				return
			}
		}
		best, bestScore = append([]int(nil), assign...), score
	}
	try(0)
	if best == nil {
		plan.Reason = reason
		if plan.Reason == "" {
			plan.Reason = "the queries read no stream relation (static tables are broadcast)"
		}
		return plan
	}
	part := map[string]int{}
	for j, r := range rels {
		plan.Relations = append(plan.Relations, RelationPartition{Relation: r, Column: best[j]})
		part[r.Name] = best[j]
	}
	for _, q := range qs {
		m := mergeOf(q, part)
		plan.Views = append(plan.Views, ViewMerge{View: q.Name, Local: m.local, Replicated: m.replicated})
	}
	return plan
}

// merge is how one query's partitions merge, or why they cannot.
type merge struct {
	local      bool
	replicated []int
	why        string
}

// mergeOf checks that every aggregate of q is, under the partition
// columns part (by relation name, -1 for broadcast), a sum over the
// partitions' slices (every term joins partitioned relations on one
// variable) or the same in every partition (every term reads broadcast
// relations only). local: every summed aggregate groups by its partition
// variable.
func mergeOf(q *Query, part map[string]int) merge {
	m := merge{local: true}
	summed := 0
	for ai, a := range q.Aggs {
		body, group := a, []Var(nil)
		if s, ok := a.(*AggSum); ok {
			body, group = s.T, s.Group
		}
		parted, whole := 0, 0
		for _, fs := range flatTerms(body) {
			eq := unionFind{}
			pv, why := termPartition(fs, part, "", eq)
			if why != "" {
				m.why = fmt.Sprintf("%s: %s", q.Name, why)
				return m
			}
			if pv == "" {
				whole++
				continue
			}
			parted++
			in := false
			for _, g := range group {
				in = in || eq.find(g.Name) == pv
			}
			m.local = m.local && in
		}
		switch {
		case parted > 0 && whole > 0:
			m.why = fmt.Sprintf("%s: an aggregate adds a term over broadcast relations only (every partition would count it) to terms over partitioned ones", q.Name)
			return m
		case parted > 0:
			summed++
		case whole > 0:
			m.replicated = append(m.replicated, ai)
		}
	}
	if summed == 0 {
		m.why = fmt.Sprintf("%s: reads broadcast relations only", q.Name)
	}
	return m
}

// flatTerms expands t into monomials' factors, a derived table (an AggSum
// factor: a sum the term multiplies) replaced by its body's monomials.
func flatTerms(t Term) [][]Term {
	var out [][]Term
	for _, m := range Expand(t) {
		combos := [][]Term{nil}
		for _, f := range m.Factors {
			var parts [][]Term
			if s, ok := f.(*AggSum); ok {
				parts = flatTerms(s.T)
			} else {
				parts = [][]Term{{f}}
			}
			var next [][]Term
			for _, c := range combos {
				for _, p := range parts {
					next = append(next, append(append([]Term{}, c...), p...))
				}
			}
			combos = next
		}
		out = append(out, combos...)
	}
	return out
}

// unionFind holds the variables a term equates (v = w conditions, lifts
// of a variable), by name.
type unionFind map[string]string

func (u unionFind) find(v string) string {
	for {
		p, ok := u[v]
		if !ok || p == v {
			return v
		}
		v = p
	}
}

func (u unionFind) union(a, b string) {
	a, b = u.find(a), u.find(b)
	if a != b {
		u[b] = a
	}
}

func (u unionFind) clone() unionFind {
	out := make(unionFind, len(u))
	for k, v := range u {
		out[k] = v
	}
	return out
}

// equate adds the equalities of factors fs to eq.
func equate(fs []Term, eq unionFind) {
	for _, f := range fs {
		switch x := f.(type) {
		case *Val:
			equateExpr(x.E, eq)
		case *Lift:
			if v, ok := x.T.(*Val); ok {
				if r, ok := v.E.(*VarRef); ok {
					eq.union(x.V.Name, r.V.Name)
				}
			}
		}
	}
}

// equateExpr adds the v = w conjuncts of condition e to eq.
func equateExpr(e lang.Expr, eq unionFind) {
	b, ok := e.(*lang.Binary)
	if !ok {
		return
	}
	switch strings.ToUpper(b.Op) {
	case "AND":
		equateExpr(b.L, eq)
		equateExpr(b.R, eq)
	case "=":
		l, lok := b.L.(*VarRef)
		r, rok := b.R.(*VarRef)
		if lok && rok {
			eq.union(l.V.Name, r.V.Name)
		}
	}
}

// termPartition returns the partition variable of a term's factors (the
// representative, in eq, of the variable all its partitioned relations
// are partitioned on; "" for none), which must be outer when outer is set
// (a nested aggregate); why says what breaks the rule.
func termPartition(fs []Term, part map[string]int, outer string, eq unionFind) (pv, why string) {
	equate(fs, eq)
	pv = outer
	if pv != "" {
		pv = eq.find(pv)
	}
	var nested []Term
	for _, f := range fs {
		switch x := f.(type) {
		case *Rel:
			c, ok := part[x.Name]
			if !ok || c < 0 {
				continue
			}
			if c >= len(x.Vars) {
				return "", fmt.Sprintf("%s has no column %d", x.Name, c)
			}
			v := eq.find(x.Vars[c].Name)
			switch {
			case pv == "":
				pv = v
			case pv != v && outer != "":
				return "", fmt.Sprintf("a nested aggregate reads %s on another column than the enclosing query's partition column", x.Name)
			case pv != v:
				return "", fmt.Sprintf("%s is joined on another column than the partition column of the term's other partitioned relations", x.Name)
			}
		default:
			if HasRel(f) {
				nested = append(nested, f)
			}
		}
	}
	for _, f := range nested {
		for _, body := range nestedBodies(f) {
			for _, inner := range flatTerms(body) {
				ipv, why := termPartition(inner, part, pv, eq.clone())
				if why != "" {
					return "", why
				}
				if pv == "" && ipv != "" {
					return "", fmt.Sprintf("a nested aggregate reads partitioned relation(s) %s that the enclosing term does not", strings.Join(partitionedRels(body, part), ", "))
				}
			}
		}
	}
	return pv, ""
}

// nestedBodies returns the bodies of the nested aggregates of factor f.
func nestedBodies(f Term) []Term {
	switch x := f.(type) {
	case *AggSum:
		return []Term{x.T}
	case *Lift:
		return nestedBodies(x.T)
	case *Exists:
		return nestedBodies(x.T)
	case *Extreme:
		return []Term{x.T}
	case *Neg:
		return nestedBodies(x.T)
	}
	return []Term{f}
}

func partitionedRels(t Term, part map[string]int) []string {
	var out []string
	for _, r := range Relations(t) {
		if c, ok := part[r]; ok && c >= 0 {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}
