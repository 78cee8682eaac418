package calculus

import "github.com/toastgen/toastgen/lang"

// checkSQLDialect rejects, at its position, the first construct of a dialect
// sql query that the translation does not give SQL's semantics yet: anything
// that may be NULL (a nullable column, the NULL literal, x / 0, an aggregate
// over no input, a scalar subquery), the NULL predicates and functions, and
// INT / INT and %, which the engines do not evaluate yet. The gate shrinks as
// the design in the package doc lands; what passes it means the same in both
// dialects (NOT NULL columns, comparisons, grouped aggregates, COUNT).
func checkSQLDialect(f *lang.File) error {
	for _, q := range f.Queries {
		if err := sqlGateQuery(f, q); err != nil {
			return err
		}
	}
	return nil
}

func sqlGateQuery(f *lang.File, q *lang.Query) error {
	var bad lang.Expr
	var why string
	visit := func(e lang.Expr, _ int) bool {
		if bad != nil {
			return false
		}
		switch x := e.(type) {
		case *lang.IsNull:
			bad, why = e, "IS [NOT] NULL"
		case *lang.Binary:
			switch {
			case x.Op == "IS" || x.Op == "IS NOT":
				bad, why = e, "IS [NOT] DISTINCT FROM"
			case x.Op == "%":
				bad, why = e, "%"
			case x.Op == "/":
				bad, why = e, "division (x / 0 is NULL, INT / INT truncates)"
			}
		case *lang.Call:
			if x.Name == "COALESCE" || x.Name == "NULLIF" {
				bad, why = e, x.Name
			}
		case *lang.Agg:
			if x.Null {
				bad, why = e, x.Fn+" that may be NULL (over no non-NULL input)"
			}
		case *lang.Subquery:
			if x.Null {
				bad, why = e, "a scalar subquery that may be NULL"
			}
		}
		if bad == nil && lang.MayBeNull(e) {
			bad, why = e, "an expression that may be NULL (it reads a nullable column: declare it NOT NULL)"
		}
		return bad == nil
	}
	lang.WalkQuery(q, visit)
	if bad != nil {
		return f.Errorf(bad.Pos(), "-dialect sql does not support yet: %s; -dialect dbtoaster has DBToaster's semantics", why)
	}
	return nil
}
