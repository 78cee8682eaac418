package viewlet

import (
	"cmp"
	"fmt"
	"math"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// evalExpr evaluates a scalar expression over bound variables. Booleans are
// int64 1 or 0. NULL is nil (a condition: UNKNOWN), with three-valued logic;
// it only occurs in dialect sql, where nullable columns, NULL literals and
// x / 0 make it.
func (in *Interp) evalExpr(e lang.Expr, env *env) any {
	switch x := e.(type) {
	case *calculus.VarRef:
		v, ok := env.get(x.V.Name)
		if !ok {
			panic("interp: unbound variable " + x.V.Name)
		}
		return v
	case *calculus.AggRef:
		v := in.aggs[x.Index]
		if v == nil {
			v = int64(0)
		}
		return coerce(v, x.T)
	case *calculus.RangeRef:
		// A running sum: the entries of the row's partition (its keys at
		// AggKeys but the ORDER BY value) up to the row's ORDER BY value.
		am := in.view_.Aggs[x.Index]
		m := in.maps[am.Name]
		pos := x.Keys
		// slot is the row's value for key j of the aggregate: a view key,
		// or the value of an expression of the row (RangeRef.Exprs).
		slot := func(j int) any {
			if pos[j] >= 0 {
				return in.group[pos[j]]
			}
			return coerce(in.evalExpr(x.Exprs[j], env), am.Keys[j].Type)
		}
		var mask uint64
		var vals []any
		for j := range pos {
			if j != x.Order && j != x.Flag {
				mask |= 1 << j
				vals = append(vals, slot(j))
			}
		}
		at := slot(x.Order)
		atNull := x.Flag >= 0 && toFloat(slot(x.Flag)) == 0
		var isum int64
		var fsum float64
		m.each(mask, vals, func(e *ientry) {
			var c int
			switch eNull := x.Flag >= 0 && e.keys[x.Flag] == int64(0); {
			case eNull && atNull:
				c = 0 // NULLs are peers
			case eNull:
				c = -1 // NULL first (ascending)
			case atNull:
				c = 1
			default:
				c = compareNum(e.keys[x.Order], at)
			}
			if x.Desc {
				c = -c
			}
			if c < 0 || c == 0 && !x.Strict {
				isum += e.i
				fsum += e.f.Value()
			}
		})
		if am.Type == lang.TInt {
			return coerce(isum, x.T)
		}
		return coerce(fsum, x.T)
	case *calculus.ExtremeRef:
		// The least or greatest last key among the group's entries: those
		// whose other keys are the group's (or, for a subquery's MIN/MAX,
		// the group keys it is correlated with; none when uncorrelated).
		am := in.view_.Aggs[x.Index]
		m := in.maps[am.Name]
		found := false
		var best any
		prefix := in.group
		if pos, ok := in.view_.AggKeys[x.Index]; ok {
			prefix = make([]any, len(pos))
			for j, p := range pos {
				prefix[j] = in.group[p]
			}
		} else if len(am.Keys) == 1 {
			prefix = nil
		}
		if x.Hol != nil {
			var c counted
			m.each(1<<len(prefix)-1, prefix, func(e *ientry) {
				c.add(e.keys[len(e.keys)-1], e.i)
			})
			return c.holistic(x.Hol, x.T)
		}
		m.each(1<<len(prefix)-1, prefix, func(e *ientry) {
			n := len(e.keys) - 1
			c := 0
			if found {
				c = compareNum(e.keys[n], best)
			}
			if !found || (x.Max && c > 0) || (!x.Max && c < 0) {
				best, found = e.keys[n], true
			}
		})
		if !found {
			return zeroOf(x.T)
		}
		return coerce(best, x.T)
	case *lang.Lit:
		if x.Null {
			return nil
		}
		switch x.T {
		case lang.TInt:
			return x.Int
		case lang.TFloat:
			return x.Float
		case lang.TString:
			return x.Str
		case lang.TDate:
			return x.Date
		}
	case *lang.Unary:
		v := in.evalExpr(x.X, env)
		if v == nil {
			return nil
		}
		if x.Op == "NOT" {
			return b2i(toFloat(v) == 0)
		}
		if i, ok := v.(int64); ok {
			return in.checked(runtime.SubInt(0, i))
		}
		return -toFloat(v)
	case *lang.Binary:
		switch x.Op {
		case "AND", "OR":
			return kleene(x.Op == "AND", in.evalExpr(x.L, env), in.evalExpr(x.R, env))
		}
		l, r := in.evalExpr(x.L, env), in.evalExpr(x.R, env)
		switch x.Op {
		case "IS", "IS NOT": // IS NOT DISTINCT FROM, IS DISTINCT FROM
			same := (l == nil && r == nil) || (l != nil && r != nil && equalValues(l, r))
			return b2i(same == (x.Op == "IS"))
		}
		if l == nil || r == nil {
			return nil
		}
		switch x.Op {
		case "=":
			return b2i(compareNum(l, r) == 0)
		case "!=":
			return b2i(compareNum(l, r) != 0)
		case "<":
			return b2i(compareNum(l, r) < 0)
		case "<=":
			return b2i(compareNum(l, r) <= 0)
		case ">":
			return b2i(compareNum(l, r) > 0)
		case ">=":
			return b2i(compareNum(l, r) >= 0)
		case "/":
			if in.sql {
				return sqlDiv(l, r, x.T)
			}
			return runtime.Div(toFloat(l), toFloat(r))
		case "%":
			return sqlMod(l, r)
		}
		li, lok := l.(int64)
		ri, rok := r.(int64)
		if lok && rok {
			switch x.Op {
			case "+":
				return in.checked(runtime.AddInt(li, ri))
			case "-":
				return in.checked(runtime.SubInt(li, ri))
			case "*":
				return in.checked(runtime.MulInt(li, ri))
			}
		}
		lf, rf := toFloat(l), toFloat(r)
		switch x.Op {
		case "+":
			return lf + rf
		case "-":
			return lf - rf
		case "*":
			return lf * rf
		}
	case *lang.Like:
		p := in.likes[x.Pattern]
		if p == nil {
			p = runtime.CompileLike(x.Pattern)
			in.likes[x.Pattern] = p
		}
		v := in.evalExpr(x.X, env)
		if v == nil {
			return nil
		}
		return b2i(p.Match(v.(string)) != x.Not)
	case *lang.InList:
		v := in.evalExpr(x.X, env)
		if v == nil {
			return nil
		}
		found, unknown := false, false
		for _, l := range x.List {
			y := in.evalExpr(l, env)
			if y == nil {
				unknown = true // x IN (…, NULL) is UNKNOWN unless x is found
				continue
			}
			if compareNum(v, y) == 0 {
				found = true
				break
			}
		}
		if !found && unknown {
			return nil
		}
		return b2i(found != x.Not)
	case *lang.IsNull:
		return b2i((in.evalExpr(x.X, env) == nil) != x.Not)
	case *lang.Case:
		for _, w := range x.Whens {
			if toFloat(in.evalExpr(w.Cond, env)) != 0 {
				return coerce(in.evalExpr(w.Then, env), x.T)
			}
		}
		if x.Else != nil {
			return coerce(in.evalExpr(x.Else, env), x.T)
		}
		return coerce(int64(0), x.T)
	case *lang.Call:
		return in.call(x, env)
	}
	panic(fmt.Sprintf("interp: cannot evaluate %T", e))
}

func (in *Interp) call(x *lang.Call, env *env) any {
	switch x.Name {
	case "COALESCE":
		for _, a := range x.Args {
			if v := in.evalExpr(a, env); v != nil {
				return coerce(v, x.T)
			}
		}
		return nil
	case "NULLIF":
		a, b := in.evalExpr(x.Args[0], env), in.evalExpr(x.Args[1], env)
		if a != nil && b != nil && equalValues(a, b) {
			return nil
		}
		return a
	}
	args := make([]any, len(x.Args))
	for i, a := range x.Args {
		args[i] = in.evalExpr(a, env)
		if args[i] == nil {
			return nil // NULL in, NULL out
		}
	}
	if v, ok := plainCall(x, args); ok {
		return v
	}
	switch x.Name {
	case "SUBSTRING":
		return runtime.Substring(args[0].(string), toInt(args[1]), toInt(args[2]))
	case "DATE_PART":
		return runtime.DatePart(args[0].(string), args[1].(runtime.Date))
	case "DATE_ADD":
		return runtime.DateAdd(args[0].(runtime.Date), toInt(args[1]), args[2].(string))
	case "CAST_INT":
		switch v := args[0].(type) {
		case string:
			return runtime.CastIntFromString(v)
		case runtime.Date:
			return int64(v)
		}
		return runtime.CastIntFromFloat(toFloat(args[0]))
	case "INT_LIMB", "SQUARE_LIMB", "EXACT_VARIANCE":
		// Exact INT variance (calculus' stats.go).
		is := make([]int64, len(args))
		for i, a := range args {
			v, ok := a.(int64)
			if !ok {
				return nil // NULL: no value (never, under the view's count test)
			}
			is[i] = v
		}
		switch x.Name {
		case "INT_LIMB":
			return runtime.IntLimb(is[0], is[1])
		case "SQUARE_LIMB":
			return runtime.SquareLimb(is[0], is[1])
		}
		return runtime.ExactVariance(is[0], is[1], is[2], is[3], is[4], is[5], is[6], is[7])
	case "CAST_FLOAT":
		if s, ok := args[0].(string); ok {
			return runtime.CastFloatFromString(s)
		}
		return toFloat(args[0])
	case "CAST_STRING":
		switch v := args[0].(type) {
		case int64:
			return runtime.CastStringFromInt(v)
		case float64:
			return runtime.CastStringFromFloat(v)
		case runtime.Date:
			return runtime.CastStringFromDate(v)
		}
		return args[0]
	case "CAST_DATE":
		if s, ok := args[0].(string); ok {
			return runtime.CastDate(s)
		}
		return args[0]
	case "LISTMIN", "LISTMAX":
		best := args[0]
		for _, a := range args[1:] {
			c := compareNum(a, best)
			if (x.Name == "LISTMIN" && c < 0) || (x.Name == "LISTMAX" && c > 0) {
				best = a
			}
		}
		return coerce(best, x.T)
	case "REGEXP_MATCH":
		re := args[0].(string)
		r := in.res[re]
		if r == nil {
			r = runtime.CompileRegexp(re)
			in.res[re] = r
		}
		return runtime.RegexpMatch(r, args[1].(string))
	case "HASH":
		switch v := args[0].(type) {
		case float64:
			return runtime.HashFloat(v)
		case string:
			return runtime.HashString(v)
		case runtime.Date:
			return runtime.Hash(int64(v))
		}
		return runtime.Hash(toInt(args[0]))
	}
	if m, ok := runtime.MathFuncs[x.Name]; ok {
		fs := make([]float64, len(args))
		for i, a := range args {
			fs[i] = toFloat(a)
		}
		return m.Eval(fs)
	}
	panic("interp: unknown function " + x.Name)
}

// kleene is AND (and true) or OR of two conditions in three-valued logic:
// FALSE AND UNKNOWN is FALSE, TRUE OR UNKNOWN is TRUE, otherwise UNKNOWN
// (nil) wins.
func kleene(and bool, l, r any) any {
	dominant := int64(0) // FALSE decides an AND, TRUE an OR
	if !and {
		dominant = 1
	}
	if (l != nil && b2i(toFloat(l) != 0) == dominant) || (r != nil && b2i(toFloat(r) != 0) == dominant) {
		return dominant
	}
	if l == nil || r == nil {
		return nil
	}
	return 1 - dominant
}

// sqlDiv is / in dialect sql: INT / INT truncates toward zero (t is INT),
// and x / 0 is NULL, as in SQLite.
func sqlDiv(l, r any, t lang.Type) any {
	if t == lang.TInt {
		a, b := l.(int64), r.(int64)
		if b == 0 {
			return nil
		}
		return a / b
	}
	b := toFloat(r)
	if b == 0 {
		return nil
	}
	return toFloat(l) / b
}

// sqlMod is % as SQLite computes it: on the operands truncated to integers,
// with the sign of the dividend; NULL for a zero divisor; a REAL result when
// an operand is REAL.
func sqlMod(l, r any) any {
	a, b := toInt(l), toInt(r)
	if b == 0 {
		return nil
	}
	m := a % b
	_, lf := l.(float64)
	_, rf := r.(float64)
	if lf || rf {
		return float64(m)
	}
	return m
}

// checked returns the result of checked integer arithmetic, recording an
// overflow (see Fire).
func (in *Interp) checked(r int64, overflow bool) int64 {
	if overflow {
		in.overflow = true
	}
	return r
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// compareNum compares two values as generated code does: two int64
// exactly, an int64 with a float64 as floats, other values as
// runtime.CompareValues does.
func compareNum(a, b any) int {
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	}
	return runtime.CompareValues(numify(a), numify(b))
}

// numify makes int64 comparable with float64.
func numify(v any) any {
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	return v
}

// toFloat converts a number to float64; NULL is 0 (a condition that is
// UNKNOWN does not hold; a NULL value never reaches a ring position, which
// its aggregate's non-NULL guard keeps away).
func toFloat(v any) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case int64:
		return float64(x)
	case float64:
		return x
	case runtime.Date:
		return float64(x)
	}
	panic(fmt.Sprintf("interp: not a number: %v (%T)", v, v))
}

func toInt(v any) int64 {
	if i, ok := v.(int64); ok {
		return i
	}
	return int64(toFloat(v))
}

// coerce converts a numeric value to type t.
func coerce(v any, t lang.Type) any {
	switch t {
	case lang.TInt:
		switch x := v.(type) {
		case float64:
			return int64(math.Round(x))
		}
	case lang.TFloat:
		switch x := v.(type) {
		case int64:
			return float64(x)
		}
	}
	return v
}

func equalValues(a, b any) bool {
	return compareNum(a, b) == 0
}
