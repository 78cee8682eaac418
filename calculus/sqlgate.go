package calculus

import "github.com/toastgen/toastgen/lang"

// checkSQLDialect rejects, at its position, the first construct of a dialect
// sql query whose NULL semantics the translation does not give yet: a UNION
// of columns that may be NULL. Everything else that may be NULL is spelled
// out two-valued by the presence conditions (nullable.go); outer joins are
// rejected by the front end.
func checkSQLDialect(f *lang.File) error {
	for _, q := range f.Queries {
		var bad lang.Expr
		var why string
		checkUnion(q, &bad, &why)
		if bad != nil {
			return f.Errorf(bad.Pos(), "-dialect sql does not support yet: %s; -dialect dbtoaster has DBToaster's semantics", why)
		}
	}
	return nil
}

// checkUnion finds a UNION column that may be NULL, in q or its subqueries
// in FROM.
func checkUnion(q *lang.Query, bad *lang.Expr, why *string) {
	if len(q.Union) > 0 {
		for _, u := range append([]*lang.Query{q}, q.Union...) {
			for _, it := range u.Items {
				if lang.MayBeNull(it.Expr) && *bad == nil {
					*bad, *why = it.Expr, "a UNION column that may be NULL"
				}
			}
		}
	}
	for _, fi := range q.From {
		if fi.Sub != nil && *bad == nil {
			checkUnion(fi.Sub, bad, why)
		}
	}
}
