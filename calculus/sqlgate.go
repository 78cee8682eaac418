package calculus

import "github.com/toastgen/toastgen/lang"

// checkSQLDialect rejects, at its position, the first construct of a dialect
// sql query whose NULL semantics the translation does not give yet: IN,
// NOT IN and quantified (SOME/ALL) subqueries over values that may be NULL
// (their three-valued results need the subquery's NULL count) and a UNION
// of columns that may be NULL. Everything else that may be NULL is spelled out two-valued by the
// presence conditions (nullable.go).
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
	itemNull := func(sq *lang.Query) bool {
		for _, it := range sq.Items {
			if lang.MayBeNull(it.Expr) {
				return true
			}
		}
		return false
	}
	visit := func(e lang.Expr, _ int) bool {
		if bad != nil {
			return false
		}
		switch x := e.(type) {
		case *lang.InQuery:
			if lang.MayBeNull(x.X) || itemNull(x.Q) {
				bad, why = e, "[NOT] IN (SELECT …) over values that may be NULL"
			}
		case *lang.Quantified:
			if lang.MayBeNull(x.X) || itemNull(x.Q) {
				bad, why = e, "a SOME/ALL subquery over values that may be NULL"
			}
		}
		return bad == nil
	}
	lang.WalkQuery(q, visit)
	if bad == nil {
		checkUnion(q, &bad, &why)
	}
	if bad != nil {
		return f.Errorf(bad.Pos(), "-dialect sql does not support yet: %s; -dialect dbtoaster has DBToaster's semantics", why)
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
