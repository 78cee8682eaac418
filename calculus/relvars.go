package calculus

import (
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// EventVars are the variables of a relation's tuple as the calculus sees
// it, one per column (lower-case column names), then one presence flag per
// nullable column (dialect sql), in column order: no variable ever holds
// NULL. A NULL field binds its column's variable to its type's zero and its
// flag to 0; any other field binds the value and the flag 1. A relation
// without nullable columns has exactly one variable per column.
func EventVars(r *lang.Relation) []Var {
	vars := make([]Var, 0, len(r.Columns))
	for _, c := range r.Columns {
		vars = append(vars, Var{Name: strings.ToLower(c.Name), Type: c.Type})
	}
	for _, c := range r.Columns {
		if c.Nullable {
			vars = append(vars, Var{Name: PresenceName(strings.ToLower(c.Name)), Type: lang.TInt})
		}
	}
	return vars
}

// PresenceName names the presence flag of the variable named v.
func PresenceName(v string) string { return v + "_present" }

// Nullables returns, for each nullable column of r in column order, its
// index: the flag of column Nullables(r)[j] is EventVars(r)[len(r.Columns)+j].
func Nullables(r *lang.Relation) []int {
	var out []int
	for i, c := range r.Columns {
		if c.Nullable {
			out = append(out, i)
		}
	}
	return out
}
