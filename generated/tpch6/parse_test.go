package tpch6_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/generated/tpch6"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// TestBadFieldsBothEngines feeds the generated package and the interpreter
// (viewlet.ParseTuple) the same malformed fields, one column at a time: both
// must reject each with the same error, by Apply, by Batch.Add and through
// Replay, where the error names the file, the row and the column.
func TestBadFieldsBothEngines(t *testing.T) {
	_, p := gentest.Compile(t)
	engines := map[string]func() runtime.Engine{
		"go":     func() runtime.Engine { return tpch6.New() },
		"interp": func() runtime.Engine { return viewlet.NewInterp(p) },
	}
	const good = "1|156|4|1|17|17954.55|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the"
	bad := map[runtime.ColumnType][]struct {
		in  string
		err error
	}{
		runtime.Int: {
			{"x", runtime.ErrInt}, {"1.0", runtime.ErrInt}, {"1e3", runtime.ErrInt}, {"", runtime.ErrInt},
			{"9223372036854775808", runtime.ErrIntRange}, {"-9223372036854775809", runtime.ErrIntRange},
		},
		runtime.Float: {
			{"NaN", runtime.ErrFloat}, {"nan", runtime.ErrFloat}, {"Inf", runtime.ErrFloat}, {"+Inf", runtime.ErrFloat},
			{"-inf", runtime.ErrFloat}, {"Infinity", runtime.ErrFloat}, {"1_000", runtime.ErrFloat},
			{"0x1p-2", runtime.ErrFloat}, {"abc", runtime.ErrFloat}, {"", runtime.ErrFloat},
			{"1e400", runtime.ErrFloatRange}, {"-1e400", runtime.ErrFloatRange},
		},
		runtime.DateType: {
			{"2024-02-30", runtime.ErrDateInvalid}, {"2023-02-29", runtime.ErrDateInvalid},
			{"0000-01-01", runtime.ErrDateInvalid}, {"1996-13-01", runtime.ErrDateInvalid},
			{"96-03-13", runtime.ErrDate}, {"1996-03-13x", runtime.ErrDate},
		},
	}
	rel := tpch6.New().Relations()[0]
	for name, mk := range engines {
		var raw [][]byte
		for _, f := range strings.Split(good, "|") {
			raw = append(raw, []byte(f))
		}
		if err := mk().Apply(0, true, raw); err != nil {
			t.Fatalf("%s: a good row: %v", name, err)
		}
	}
	dir := t.TempDir()
	checked := 0
	for ci, c := range rel.Columns {
		for _, b := range bad[c.Type] {
			fields := strings.Split(good, "|")
			fields[ci] = b.in
			raw := make([][]byte, len(fields))
			for i, f := range fields {
				raw[i] = []byte(f)
			}
			path := filepath.Join(dir, "lineitem.csv")
			if err := os.WriteFile(path, []byte(good+"\n"+strings.Join(fields, "|")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rels := gentest.Relocate([]runtime.Relation{rel}, dir, false)
			errs := map[string]string{}
			for name, mk := range engines {
				e := mk()
				err := e.Apply(0, true, raw)
				if !errors.Is(err, b.err) {
					t.Errorf("%s: column %s = %q: Apply error %v, want %v", name, c.Name, b.in, err, b.err)
				}
				berr := e.NewBatch().Add(0, false, raw)
				if berr == nil || err == nil || berr.Error() != err.Error() {
					t.Errorf("%s: column %s = %q: Batch.Add error %v, Apply error %v", name, c.Name, b.in, berr, err)
				}
				re, err2 := gentest.WithRelations(mk(), rels)
				if err2 != nil {
					t.Fatal(err2)
				}
				rerr := runtime.Replay(re, runtime.ReplayOptions{})
				var fe *runtime.FieldError
				if !errors.As(rerr, &fe) || fe.Row != 2 || fe.Column != c.Name || !errors.Is(rerr, b.err) {
					t.Errorf("%s: column %s = %q: Replay error %v, want a *FieldError at row 2, column %s", name, c.Name, b.in, rerr, c.Name)
				}
				if err != nil && rerr != nil {
					errs[name] = err.Error() + " | " + rerr.Error()
				}
			}
			if errs["go"] != errs["interp"] {
				t.Errorf("column %s = %q: the engines disagree:\n go:     %s\n interp: %s", c.Name, b.in, errs["go"], errs["interp"])
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d bad fields checked", checked)
	}
}
