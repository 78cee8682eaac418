package calculus

import "github.com/toastgen/toastgen/lang"

// SplitConjuncts returns the conjuncts of a condition, a disjunction
// giving up the conjuncts common to all its branches:
// (A AND B AND C) OR (B AND A AND D) is A, B, (C OR D) — distributivity,
// which holds in SQL's three-valued logic as in two-valued logic. A
// disjunction one of whose branches holds once they are out (A OR (A AND
// B)) is dropped. key identifies equal expressions (lang.ExprKey for SQL,
// ExprString for the calculus' own).
func SplitConjuncts(e lang.Expr, key func(lang.Expr) string) []lang.Expr {
	var out []lang.Expr
	for _, c := range conjuncts(e) {
		out = append(out, splitOr(c, key)...)
	}
	return out
}

func disjuncts(e lang.Expr) []lang.Expr {
	if b, ok := e.(*lang.Binary); ok && b.Op == "OR" {
		return append(disjuncts(b.L), disjuncts(b.R)...)
	}
	return []lang.Expr{e}
}

// splitOr factors the conjuncts common to every branch out of a
// disjunction.
func splitOr(e lang.Expr, key func(lang.Expr) string) []lang.Expr {
	branches := disjuncts(e)
	if len(branches) < 2 {
		return []lang.Expr{e}
	}
	terms := make([][]lang.Expr, len(branches))
	for i, b := range branches {
		terms[i] = conjuncts(b)
	}
	var common []lang.Expr
	isCommon := map[string]bool{}
	for _, c := range terms[0] {
		k := key(c)
		if isCommon[k] {
			continue
		}
		inAll := true
		for _, ts := range terms[1:] {
			found := false
			for _, x := range ts {
				if key(x) == k {
					found = true
					break
				}
			}
			inAll = inAll && found
		}
		if inAll {
			common = append(common, c)
			isCommon[k] = true
		}
	}
	if len(common) == 0 {
		return []lang.Expr{e}
	}
	var rest lang.Expr
	for _, ts := range terms {
		var branch lang.Expr
		for _, x := range ts {
			if !isCommon[key(x)] {
				branch = joinBool("AND", branch, x)
			}
		}
		if branch == nil {
			// This branch holds once the common conjuncts do.
			return common
		}
		rest = joinBool("OR", rest, branch)
	}
	return append(common, rest)
}

func joinBool(op string, a, b lang.Expr) lang.Expr {
	if a == nil {
		return b
	}
	return &lang.Binary{Op: op, L: a, R: b, T: lang.TBool}
}
