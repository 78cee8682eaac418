package codegen

import (
	"errors"
	"fmt"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// ErrNulls is the error (errors.Is) of a dialect sql program whose
// generated code would need NULLs (see CheckNulls).
var ErrNulls = errors.New("the generated code does not hold NULLs yet (use -engine interp, or declare the column NOT NULL)")

// CheckNulls rejects a dialect sql program whose generated code would need
// NULLs, which the generated API does not represent yet (runtime.Null[T] in
// trigger parameters and rows): a nullable column, a view column that may be
// NULL, and SQL's division and modulo (INT / INT truncates, x / 0 is NULL),
// which the generated expressions do not evaluate yet. The interpreter
// (run -engine interp) evaluates all of them.
func CheckNulls(p *viewlet.Program) error {
	if p.Dialect != lang.SQL {
		return nil
	}
	for _, r := range p.Relations {
		for _, c := range r.Columns {
			if c.Nullable {
				return fmt.Errorf("%s: column %s.%s may be NULL: %w", c.Pos, r.Name, c.Label, ErrNulls)
			}
		}
	}
	for _, v := range p.Views {
		for _, k := range v.Keys {
			if k.Present.Name != "" {
				return fmt.Errorf("%s: view %s: column %s may be NULL: %w", p.Source, v.Name, k.Name, ErrNulls)
			}
		}
		for _, val := range v.Values {
			if val.Present != nil {
				return fmt.Errorf("%s: view %s: column %s may be NULL: %w", p.Source, v.Name, val.Name, ErrNulls)
			}
		}
	}
	var bad string
	check := func(e lang.Expr) {
		calculus.WalkExpr(e, func(x lang.Expr) {
			if b, ok := x.(*lang.Binary); ok && (b.Op == "/" || b.Op == "%") && bad == "" {
				bad = b.Op
			}
		})
	}
	for _, m := range p.Maps {
		calculus.WalkTermExprs(m.Def, check)
	}
	for _, v := range p.Views {
		for _, val := range v.Values {
			check(val.E)
		}
		if v.Having != nil {
			check(v.Having)
		}
	}
	if bad != "" {
		return fmt.Errorf("%s: dialect sql's %q (INT / INT truncates, x / 0 is NULL): %w", p.Source, bad, ErrNulls)
	}
	return nil
}
