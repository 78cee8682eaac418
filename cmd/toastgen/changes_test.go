package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChangesBothEngines checks that run -changes prints the same change
// lines, then the same views, with the generated package as with the
// interpreter: queries whose triggers cannot overflow (Apply fires their
// statements' method, not the exported trigger, and must flush the
// changes itself), a windowed bag whose ROW_NUMBER numbers duplicate rows
// (a row per copy) and a top-K per partition.
func TestChangesBothEngines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := filepath.Join(repoRoot(t), "examples/simple/r.dat")
	queries := map[string]string{
		"grouped":   "SELECT A, COUNT(*) AS N FROM R GROUP BY A;",
		"bag":       "SELECT A FROM R WHERE B > 1;",
		"numbered":  "SELECT A, ROW_NUMBER() OVER (PARTITION BY A ORDER BY A) AS RN FROM R;",
		"numbered2": "SELECT A, ROW_NUMBER() OVER (ORDER BY A) AS N, COUNT(*) OVER (PARTITION BY A) AS C FROM R;",
		"top2":      "SELECT A, N FROM (SELECT A, ROW_NUMBER() OVER (PARTITION BY A ORDER BY B DESC) AS N FROM R) AS T WHERE N <= 2;",
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, name+".sql")
			src := "CREATE STREAM R(A int, B int) FROM FILE '" + r + "' LINE DELIMITED CSV;\n" + q + "\n"
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			interp := toastgen(t, "run", "-engine", "interp", "-changes", "-format", "json", path)
			gen := toastgen(t, "run", "-changes", "-format", "json", path)
			if interp != gen {
				t.Errorf("%s: run -changes differs\ninterp:\n%s\ngo:\n%s", q, interp, gen)
			}
			if len(interp) == 0 || interp[0] != '{' {
				t.Errorf("%s: no change lines:\n%s", q, interp)
			}
		})
	}
}
