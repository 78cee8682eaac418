package lang

// NULLs in the front end (dialect sql). The resolver types the NULL literal
// by its context, records on every column reference, aggregate and scalar
// subquery whether it may be NULL, and pushes NOT down to the atoms, so that
// later stages may turn AND into a product and OR into inclusion–exclusion
// without meeting NOT UNKNOWN (which is UNKNOWN, not 1 − [UNKNOWN]). In
// dialect dbtoaster none of this happens: NULL, IS NULL and the NULL
// functions are rejected, and no expression is NULL.

// MayBeNull reports whether e can evaluate to NULL (a condition: UNKNOWN)
// in dialect sql. It is conservative: false means never NULL, for any data.
// In dialect dbtoaster nothing is NULL and MayBeNull must not be consulted:
// x / 0 is 0 there.
func MayBeNull(e Expr) bool {
	switch x := e.(type) {
	case *Lit:
		return x.Null
	case *ColRef:
		return x.Null
	case *Unary:
		return MayBeNull(x.X)
	case *Binary:
		switch x.Op {
		case "IS", "IS NOT":
			return false
		case "/", "%":
			if l, ok := x.R.(*Lit); !ok || l.Null || (l.T == TInt && l.Int == 0) || (l.T == TFloat && l.Float == 0) {
				return true // x / 0 is NULL
			}
		}
		return MayBeNull(x.L) || MayBeNull(x.R)
	case *Like:
		return MayBeNull(x.X)
	case *InList:
		if MayBeNull(x.X) {
			return true
		}
		for _, y := range x.List {
			if MayBeNull(y) {
				return true
			}
		}
		return false
	case *Case:
		if x.Else == nil || MayBeNull(x.Else) {
			return true
		}
		for _, w := range x.Whens {
			if MayBeNull(w.Then) {
				return true
			}
		}
		return false
	case *Call:
		switch x.Name {
		case "NULLIF":
			return true
		case "COALESCE":
			for _, a := range x.Args {
				if !MayBeNull(a) {
					return false
				}
			}
			return true
		}
		for _, a := range x.Args {
			if MayBeNull(a) {
				return true
			}
		}
		return false
	case *Agg:
		return x.Null
	case *Subquery:
		return x.Null
	case *InQuery:
		return MayBeNull(x.X) || MayBeNull(x.Q.Items[0].Expr)
	case *Quantified:
		return MayBeNull(x.X) || MayBeNull(x.Q.Items[0].Expr)
	}
	return false // Exists, IsNull
}

// nullable resolves a column's NULL / NOT NULL constraint: in dialect sql a
// column is nullable unless declared NOT NULL; dialect dbtoaster has no
// NULLs, so NOT NULL is accepted (it holds) and NULL is an error.
func (r *resolver) nullable(spec *gNullSpec) bool {
	if !r.sql {
		if spec != nil && !spec.Not {
			r.fail(pos(spec.Pos), "a NULL column is not supported in the dbtoaster dialect, which has no NULLs (use -dialect sql)")
		}
		return false
	}
	return spec == nil || !spec.Not
}

// noNulls rejects a construct of NULLs in dialect dbtoaster.
func (r *resolver) noNulls(p Pos, what string) {
	if !r.sql {
		r.fail(p, "%s is not supported in the dbtoaster dialect, which has no NULLs (columns always hold a value; use -dialect sql)", what)
	}
}

// colNull reports whether column c of FROM item f may hold NULL.
func colNull(f *FromItem, c int) bool {
	if f.Padded {
		return true
	}
	if f.Rel != nil {
		return f.Rel.Columns[c].Nullable
	}
	return MayBeNull(f.Sub.Items[c].Expr)
}

// nullLit is the NULL literal, typed TNull until its context types it.
func nullLit(p Pos) *Lit { return &Lit{P: p, T: TNull, Null: true} }

// settle gives a NULL literal among es the type t (TInt if t is TNull).
func settle(t Type, es ...Expr) {
	if t == TNull {
		t = TInt
	}
	for _, e := range es {
		if l, ok := e.(*Lit); ok && l.T == TNull {
			l.T = t
		}
	}
}

// nullAs gives e the type t if it can only be NULL: a CASE whose results
// are all NULL (typed INT by default), nested or not.
func nullAs(t Type, e Expr) {
	var only func(e Expr) bool
	only = func(e Expr) bool {
		switch x := e.(type) {
		case *Lit:
			return x.Null
		case *Case:
			for _, w := range x.Whens {
				if !only(w.Then) {
					return false
				}
			}
			return x.Else == nil || only(x.Else)
		}
		return false
	}
	var set func(e Expr)
	set = func(e Expr) {
		switch x := e.(type) {
		case *Lit:
			x.T = t
		case *Case:
			x.T = t
			for _, w := range x.Whens {
				set(w.Then)
			}
			if x.Else != nil {
				set(x.Else)
			}
		}
	}
	if only(e) {
		set(e)
	}
}

// settleNulls ends the resolution of q in dialect sql: untyped NULL items
// become INT, and each aggregate records whether it may be NULL — SUM, AVG,
// MIN and MAX are NULL over no non-NULL input, which an ungrouped query
// (one row even over no input) or a NULL argument allows; COUNT never is.
func (r *resolver) settleNulls(q *Query) {
	for _, it := range q.Items {
		settle(TInt, it.Expr)
	}
	if !r.sql {
		return
	}
	mark := func(e Expr, depth int) bool {
		switch x := e.(type) {
		case *Agg:
			if depth == 0 && x.Over != nil {
				// A window holds its own row: NULL only for NULL arguments.
				x.Null = x.Arg != nil && x.Fn != "COUNT" && MayBeNull(x.Arg)
			} else if depth == 0 {
				// A statistical aggregate is NULL over one value, too.
				x.Null = x.Fn != "COUNT" && (len(q.GroupBy) == 0 || MayBeNull(x.Arg) || StatAggs[x.Fn])
			}
		case *Subquery, *Exists, *InQuery, *Quantified:
			return false // resolved with their own query
		}
		return true
	}
	for _, it := range q.Items {
		walkExpr(it.Expr, 0, mark)
	}
	if q.Having != nil {
		walkExpr(q.Having, 0, mark)
	}
}

// scalarNull reports whether a scalar subquery over q may be NULL: its
// value may be, or q may yield no row (a grouped subquery whose group is
// empty).
func scalarNull(q *Query) bool {
	return MayBeNull(q.Items[0].Expr) || len(q.GroupBy) > 0 || q.Having != nil || !q.Aggregated()
}

// negate returns NOT e in dialect sql, pushed down to the atoms: De Morgan
// holds in three-valued logic, NOT (a < b) is a >= b (both UNKNOWN when an
// operand is NULL), and the NOT of IS NULL, LIKE, IN and EXISTS is their
// negated form. What has no negated form stays NOT e, which the engines
// evaluate three-valued.
func negate(p Pos, e Expr) Expr {
	switch x := e.(type) {
	case *Binary:
		switch x.Op {
		case "AND", "OR":
			op := "OR"
			if x.Op == "OR" {
				op = "AND"
			}
			return &Binary{P: x.P, Op: op, L: negate(p, x.L), R: negate(p, x.R), T: TBool}
		case "IS":
			return &Binary{P: x.P, Op: "IS NOT", L: x.L, R: x.R, T: TBool}
		case "IS NOT":
			return &Binary{P: x.P, Op: "IS", L: x.L, R: x.R, T: TBool}
		}
		if op, ok := negatedCmp[x.Op]; ok {
			return &Binary{P: x.P, Op: op, L: x.L, R: x.R, T: TBool}
		}
	case *Unary:
		if x.Op == "NOT" {
			return x.X
		}
	case *Like:
		return &Like{P: x.P, X: x.X, Pattern: x.Pattern, Not: !x.Not}
	case *InList:
		return &InList{P: x.P, X: x.X, List: x.List, Not: !x.Not}
	case *IsNull:
		return &IsNull{P: x.P, X: x.X, Not: !x.Not}
	case *Exists:
		return &Exists{P: p, Q: x.Q, Not: !x.Not}
	case *InQuery:
		return &InQuery{P: x.P, X: x.X, Q: x.Q, Not: !x.Not}
	case *Quantified:
		// NOT (x op ALL S) is x NOT-op SOME S, and the converse.
		return &Quantified{P: x.P, Op: negatedCmp[x.Op], X: x.X, All: !x.All, Q: x.Q}
	}
	return &Unary{P: p, Op: "NOT", X: e, T: TBool}
}

var negatedCmp = map[string]string{"=": "!=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}

// isNullPred resolves x IS [NOT] NULL and x IS [NOT] DISTINCT FROM y.
func (r *resolver) isNullPred(x Expr, g *gIsNull, c ctx) Expr {
	p := pos(g.Pos)
	x = r.value(x)
	if g.Distinct == nil {
		r.noNulls(p, "IS [NOT] NULL")
		return &IsNull{P: p, X: x, Not: g.Not}
	}
	r.noNulls(p, "IS [NOT] DISTINCT FROM")
	y := r.add(g.Distinct, c)
	y = r.value(y)
	r.comparable(p, "IS DISTINCT FROM", x.Type(), y.Type())
	settle(x.Type(), y)
	settle(y.Type(), x)
	op := "IS NOT" // IS DISTINCT FROM
	if g.Not {
		op = "IS"
	}
	return &Binary{P: p, Op: op, L: x, R: y, T: TBool}
}

// nullCall resolves COALESCE(a, b, …), IFNULL(a, b) (COALESCE of two) and
// NULLIF(a, b).
func (r *resolver) nullCall(p Pos, name string, args []Expr) Expr {
	r.noNulls(p, name)
	switch name {
	case "COALESCE", "IFNULL":
		if len(args) < 2 || (name == "IFNULL" && len(args) != 2) {
			r.fail(p, "%s needs at least two arguments, got %d", name, len(args))
		}
		t := r.unify(p, name, args)
		settle(t, args...)
		return &Call{P: p, Name: "COALESCE", Args: args, T: settledType(t)}
	}
	if len(args) != 2 {
		r.fail(p, "NULLIF takes 2 arguments, got %d", len(args))
	}
	r.comparable(p, "NULLIF", args[0].Type(), args[1].Type())
	settle(args[1].Type(), args[0])
	settle(args[0].Type(), args[1])
	return &Call{P: p, Name: "NULLIF", Args: args, T: settledType(args[0].Type())}
}

func settledType(t Type) Type {
	if t == TNull {
		return TInt
	}
	return t
}
