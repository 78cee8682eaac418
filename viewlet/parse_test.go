package viewlet_test

import (
	"reflect"
	"testing"

	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// TestParseTupleAgreesWithGenerated checks that the interpreter's ParseTuple
// rejects a field exactly as generated code does: the typed runtime parser
// fails and NewColumnError describes the field. (generated/tpch6's
// TestBadFieldsBothEngines does the same through a real generated package.)
func TestParseTupleAgreesWithGenerated(t *testing.T) {
	rel := runtime.Relation{Name: "R", Columns: []runtime.Column{
		{Name: "I", Type: runtime.Int}, {Name: "F", Type: runtime.Float},
		{Name: "S", Type: runtime.String}, {Name: "D", Type: runtime.DateType},
	}}
	good := []string{"7", "2.5", "x", "2024-02-29"}
	bad := [][]string{
		{"x", "9223372036854775808", "-9223372036854775809", "1.5", ""},
		{"NaN", "Inf", "+Inf", "-inf", "1e400", "1_000", "0x1p-2", "1e", ""},
		nil,
		{"2024-02-30", "2023-02-29", "0000-01-01", "2024-13-01", "2024-1-1"},
	}
	generated := func(c runtime.Column, f []byte) error {
		var err error
		switch c.Type {
		case runtime.Int:
			_, err = runtime.ParseInt(f)
		case runtime.Float:
			_, err = runtime.ParseFloat(f)
		case runtime.DateType:
			_, err = runtime.ParseDate(f)
		}
		if err != nil {
			return runtime.NewColumnError(c.Name, c.Type, f)
		}
		return nil
	}
	for ci, c := range rel.Columns {
		for _, b := range bad[ci] {
			fields := make([][]byte, len(good))
			for i, g := range good {
				fields[i] = []byte(g)
			}
			fields[ci] = []byte(b)
			_, got := viewlet.ParseTuple(rel, fields)
			want := generated(c, fields[ci])
			if got == nil || want == nil || !reflect.DeepEqual(got, want) {
				t.Errorf("column %s = %q: ParseTuple error %v, generated code's %v", c.Name, b, got, want)
			}
		}
	}
	fields := make([][]byte, len(good))
	for i, g := range good {
		fields[i] = []byte(g)
	}
	if tu, err := viewlet.ParseTuple(rel, fields); err != nil || len(tu) != 4 {
		t.Errorf("good tuple: %v, %v", tu, err)
	}
}
