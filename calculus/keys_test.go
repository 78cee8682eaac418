package calculus

import (
	"slices"
	"testing"

	"github.com/toastgen/toastgen/lang"
)

func TestDeterminant(t *testing.T) {
	v := func(name string, typ lang.Type) Var { return Var{Name: name, Type: typ} }
	ok, ck, ck2, name, price := v("ok", lang.TInt), v("ck", lang.TInt), v("ck2", lang.TInt), v("name", lang.TString), v("price", lang.TFloat)
	orders := &Rel{Name: "O", Vars: []Var{ok, ck, price}}
	cust := &Rel{Name: "C", Vars: []Var{ck, name}}
	eq := &Val{E: &lang.Binary{Op: "=", L: Ref(ck), R: Ref(ck2)}}
	keys := map[string][]int{"O": {0}, "C": {0}}
	for _, tc := range []struct {
		name  string
		group []Var
		t     Term
		keys  map[string][]int
		want  []int
	}{
		{"no keys", []Var{ok, ck, name}, &Prod{Factors: []Term{orders, cust}}, nil, []int{0, 1, 2}},
		{"through two keys", []Var{name, ck, ok, price}, &Prod{Factors: []Term{orders, cust}}, keys, []int{2}},
		{"customer key only", []Var{ck, name}, cust, keys, []int{0}},
		{"through an equality", []Var{ok, name}, &Prod{Factors: []Term{&Rel{Name: "O", Vars: []Var{ok, ck2, price}}, eq, cust}}, keys, []int{0}},
		{"a lifted sum", []Var{ck, v("agg", lang.TInt)}, &Prod{Factors: []Term{cust, &Lift{V: v("agg", lang.TInt), T: &AggSum{Group: []Var{ck}, T: orders}}}}, keys, []int{0}},
		{"one monomial without the key", []Var{ok, ck}, &Sum{Terms: []Term{orders, &Rel{Name: "X", Vars: []Var{ok, ck}}}}, keys, []int{0, 1}},
	} {
		got := Determinant(&AggSum{Group: tc.group, T: tc.t}, tc.keys)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
