package viewlet_test

import (
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

const validateSrc = `CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(s.C) AS x FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
`

// compileValid compiles validateSrc, whose statements on +R are
//
//	QUERY1_COUNT[a] += QUERY1_COUNT_mS[b]
//	QUERY1_X[a] += QUERY1_X_mS[b]
//	QUERY1_COUNT_mR[a, b] += 1
func compileValid(t *testing.T) *viewlet.Program {
	t.Helper()
	f, err := lang.Parse("v.sql", []byte(validateSrc))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func insertR(p *viewlet.Program) *viewlet.Trigger {
	for _, t := range p.Triggers {
		if t.Event.Rel == "R" && t.Event.Insert {
			return t
		}
	}
	return nil
}

func intVar(name string) calculus.Var { return calculus.Var{Name: name, Type: lang.TInt} }

func cmp(op string, l, r lang.Expr) *calculus.Val {
	return &calculus.Val{E: &lang.Binary{Op: op, L: l, R: r, T: lang.TBool}}
}

// TestValidate breaks a compiled Program in the ways a compiler bug does
// and checks that every entry point reports the inconsistency as an error
// naming the file, the query, the event and the construct, instead of
// panicking: Validate, NewInterp (Err, Fire, Views) and codegen.Generate.
func TestValidate(t *testing.T) {
	if err := compileValid(t).Validate(); err != nil {
		t.Fatalf("a compiled Program fails validation: %v", err)
	}
	x := intVar("x")
	for _, tc := range []struct {
		name   string
		break_ func(p *viewlet.Program, s *viewlet.Stmt)
		want   string
	}{
		{"unbound variable in a comparison", func(p *viewlet.Program, s *viewlet.Stmt) {
			s.RHS[0].Factors = append(s.RHS[0].Factors, cmp("<", calculus.Ref(intVar("a")), calculus.Ref(x)))
		}, "variable x is not bound in {a < x}"},
		{"comparison before the read that binds its variable", func(p *viewlet.Program, s *viewlet.Stmt) {
			r := s.RHS[0].Factors[0].(*calculus.MapRef)
			loop := &calculus.MapRef{Name: "QUERY1_COUNT_mR", Keys: []calculus.Var{x, intVar("b")}, Type: lang.TInt}
			s.RHS[0].Factors = []calculus.Term{cmp(">", calculus.Ref(x), calculus.IntLit(1)), loop, r}
		}, "variable x is not bound in {x > 1}"},
		{"target key not bound", func(p *viewlet.Program, s *viewlet.Stmt) {
			s.Keys = []calculus.Var{x}
		}, "key x of QUERY1_COUNT is not bound"},
		{"undeclared map", func(p *viewlet.Program, s *viewlet.Stmt) {
			s.RHS[0].Factors[0] = &calculus.MapRef{Name: "NOPE", Keys: []calculus.Var{intVar("b")}, Type: lang.TInt}
		}, "map NOPE is not declared"},
		{"map read with the wrong arity", func(p *viewlet.Program, s *viewlet.Stmt) {
			s.RHS[0].Factors[0] = &calculus.MapRef{Name: "QUERY1_COUNT_mS", Keys: []calculus.Var{intVar("a"), intVar("b")}, Type: lang.TInt}
		}, "QUERY1_COUNT_mS read with 2 keys, declared with 1"},
		{"group variable its term does not bind", func(p *viewlet.Program, s *viewlet.Stmt) {
			s.RHS[0].Factors = []calculus.Term{&calculus.Exists{T: &calculus.AggSum{Group: []calculus.Var{x}, T: s.RHS[0].Factors[0]}}}
		}, "group variable x of AggSum([x], QUERY1_COUNT_mS[b]) is not bound by its term"},
		{"MIN argument its term does not bind", func(p *viewlet.Program, s *viewlet.Stmt) {
			ext := &calculus.Extreme{Arg: x, T: s.RHS[0].Factors[0]}
			s.RHS[0].Factors = []calculus.Term{&calculus.Lift{V: intVar("m"), T: ext}}
		}, "the argument x of"},
		{"a variable bound by one term of a sum only", func(p *viewlet.Program, s *viewlet.Stmt) {
			loop := &calculus.MapRef{Name: "QUERY1_COUNT_mR", Keys: []calculus.Var{x, intVar("b")}, Type: lang.TInt}
			sum := &calculus.Sum{Terms: []calculus.Term{loop, s.RHS[0].Factors[0]}}
			s.RHS[0].Factors = []calculus.Term{sum, cmp(">", calculus.Ref(x), calculus.IntLit(1))}
		}, "variable x is not bound in {x > 1}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := compileValid(t)
			tc.break_(p, insertR(p).Stmts[0])
			err := p.Validate()
			if err == nil {
				t.Fatalf("Validate accepts\n%s", p)
			}
			for _, w := range []string{"v.sql: query QUERY1: ", "ON +R(a, b): ", tc.want} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: %v\nwant it to contain %q", err, w)
				}
			}
			in := viewlet.NewInterp(p)
			if in.Err() == nil || in.Err().Error() != err.Error() {
				t.Errorf("NewInterp(…).Err() = %v, want %v", in.Err(), err)
			}
			if ferr := in.Fire("R", true, []any{int64(1), int64(2)}); ferr == nil || ferr.Error() != err.Error() {
				t.Errorf("Fire = %v, want %v", ferr, err)
			}
			if vs := in.Views(); vs != nil {
				t.Errorf("Views of a stopped interpreter = %v, want nil", vs)
			}
			if _, gerr := codegen.Generate(p, codegen.Options{Package: "q"}); gerr == nil || gerr.Error() != err.Error() {
				t.Errorf("codegen.Generate: %v, want %v", gerr, err)
			}
		})
	}
}

// oddExpr is an expression no engine knows.
type oddExpr struct{}

func (oddExpr) Pos() lang.Pos   { return lang.Pos{} }
func (oddExpr) Type() lang.Type { return lang.TInt }

// TestInterpRecovers checks that a failure Validate does not foresee (here
// an expression the interpreter cannot evaluate) stops the interpreter with
// an error naming the file, the event and the statement, not a panic, and
// that it stays stopped: its maps are no longer consistent.
func TestInterpRecovers(t *testing.T) {
	p := compileValid(t)
	s := insertR(p).Stmts[0]
	s.RHS[0].Factors = append(s.RHS[0].Factors, &calculus.Val{E: oddExpr{}})
	in := viewlet.NewInterp(p)
	if err := in.Err(); err != nil {
		t.Fatalf("NewInterp: %v", err)
	}
	if err := in.Fire("S", true, []any{int64(2), int64(3)}); err != nil {
		t.Fatalf("Fire(+S): %v", err)
	}
	err := in.Fire("R", true, []any{int64(1), int64(2)})
	if err == nil {
		t.Fatal("Fire(+R) succeeded")
	}
	for _, w := range []string{"v.sql: interp: ON +R(", "QUERY1_COUNT[a] += ", "cannot evaluate"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("Fire: %v\nwant it to contain %q", err, w)
		}
	}
	if again := in.Fire("S", true, []any{int64(2), int64(3)}); again != err {
		t.Errorf("Fire after a failure = %v, want %v", again, err)
	}
	if in.Err() != err {
		t.Errorf("Err = %v, want %v", in.Err(), err)
	}
	if vs := in.Views(); vs != nil {
		t.Errorf("Views of a stopped interpreter = %v, want nil", vs)
	}
	// A wrong number of values is an error too.
	if err := viewlet.NewInterp(compileValid(t)).Fire("R", true, []any{int64(1)}); err == nil || !strings.Contains(err.Error(), "1 values for 2 columns") {
		t.Errorf("Fire with one value for two columns: %v", err)
	}
}
