package codegen

import (
	"fmt"
	"go/token"
	"strings"
	"unicode"

	"github.com/toastgen/toastgen/viewlet"
)

// exportedName turns QUERY1_TOTAL_mST into Query1TotalMst.
func exportedName(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		part = strings.ToLower(part)
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	n := b.String()
	if n == "" || unicode.IsDigit(rune(n[0])) {
		n = "X" + n
	}
	return n
}

// reserved names are used by generated code itself; variables that would
// shadow them get a trailing underscore.
var reserved = map[string]bool{
	"e": true, "m": true, "k": true, "v": true, "i": true, "ok": true, "err": true, "f": true,
	"insert": true, "rel": true, "runtime": true, "fmt": true, "cmp": true, "slices": true, "iter": true,
	"len": true, "append": true, "delete": true, "clear": true, "int64": true, "float64": true, "string": true,
	"true": true, "false": true, "nil": true, "min": true, "max": true, "new": true, "make": true,
}

// varName turns a calculus variable into a Go local name.
func varName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteString("_")
		}
	}
	n := b.String()
	if n == "" || unicode.IsDigit(rune(n[0])) {
		n = "v" + n
	}
	if token.IsKeyword(n) || reserved[n] || isTemp(n) {
		n += "_"
	}
	return n
}

// isTemp reports names of the form accN, entN, valN, bufN used for temporaries.
func isTemp(n string) bool {
	for _, p := range []string{"acc", "ent", "val", "buf", "idx", "agg", "row"} {
		if strings.HasPrefix(n, p) && len(n) > len(p) && strings.Trim(n[len(p):], "0123456789") == "" {
			return true
		}
	}
	return false
}

// lowerFirst lower-cases the first letter of an identifier, with a
// trailing underscore for a Go keyword.
func lowerFirst(n string) string {
	n = strings.ToLower(n[:1]) + n[1:]
	if token.IsKeyword(n) {
		n += "_"
	}
	return n
}

// rowMethod is the unexported Engine method that computes a row of view
// v (query1Row).
func rowMethod(v *viewlet.View) string { return lowerFirst(viewStem(v.Name, v.Named)) + "Row" }

// planNames gives every map its storage plan (on the first pass) and the
// stem of its identifiers: exportedName of its name (QUERY1_TOTAL_mST →
// Query1TotalMst; field query1TotalMst, type mapQuery1TotalMst), with a
// suffix _2, _3, … where two maps' stems would coincide (views Q_1 and Q1
// both give Q1Count) or the field would be a view's row method (a map
// QUERY1_ROW of a column named ROW, and query1Row).
func (g *gen) planNames() {
	taken := map[string]bool{} // stems and Engine members
	for _, v := range g.p.Views {
		taken[rowMethod(v)] = true
		if v.Tree != nil {
			for n := range v.Tree.Nodes {
				taken[treeLevel(v, n)], taken[treeTouch(v, n)] = true, true
			}
		}
		if topIndexed(v) {
			n := topNamesOf(v)
			taken[n.touched], taken[n.set], taken[n.placed], taken[n.reorder] = true, true, true, true
		}
	}
	// The Engine's other unexported members (events.go, numbers.go).
	for _, id := range []string{"overflow", "undoing", "addInt", "subInt", "mulInt", "changes", "shown", "flushChanges", "subs", "resubscribe", "dispatch", "dirty"} {
		taken[id] = true
	}
	for vi := range g.p.Views {
		taken[snapshotName(vi)] = true
		// A keyed view's change state and methods (keyedchanges.go).
		taken[fmt.Sprintf("watch%d", vi)], taken[fmt.Sprintf("flush%d", vi)] = true, true
		for _, what := range []string{"Touched", "Rows", "Pending", "Old", "New"} {
			taken[chName(what, vi)] = true
		}
	}
	for _, r := range g.p.Relations {
		for _, verb := range []string{"Insert", "Delete"} {
			name := verb + exportedName(r.Name)
			taken[bodyName(name)], taken["reject"+name] = true, true
		}
	}
	for _, m := range g.p.Maps {
		if g.maps[m.Name] != nil {
			continue // planned by the first pass
		}
		base := exportedName(m.Name)
		stem := base
		for n := 2; taken[stem] || taken[lowerFirst(stem)]; n++ {
			stem = fmt.Sprintf("%s_%d", base, n)
		}
		taken[stem], taken[lowerFirst(stem)] = true, true
		if m.Kernel != nil {
			taken[lowerFirst(stem)+"Kernel"] = true
		}
		mi := &mapInfo{m: m, stem: stem, field: lowerFirst(stem), typ: "map" + stem, keyed: len(m.Keys) > 0}
		g.maps[m.Name] = mi
	}
}
