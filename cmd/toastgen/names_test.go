package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRunViewNames checks that toastgen run reports views by the names
// that -- name: comments and CREATE VIEW give, as written, and unnamed
// views as QUERY<n>, in both formats and with both engines.
func TestRunViewNames(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"q.sql": "CREATE STREAM R (A INT, B INT) FROM FILE 'r.csv' LINE DELIMITED CSV;\n" +
			"-- name: topCustomers\n" +
			"SELECT B, SUM(A) AS total FROM R GROUP BY B;\n" +
			"SELECT COUNT(*) FROM R;\n" +
			"CREATE VIEW Grand_Total AS SELECT SUM(A) FROM R;\n",
		"r.csv": "1,10\n2,10\n5,20\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{
		"json": `{"views":[{"name":"topCustomers","keys":["B"],"values":["TOTAL"],"columns":[{"name":"B","key":0},{"name":"total","value":0}],"rows":[[10,3],[20,5]]},` +
			`{"name":"QUERY2","keys":[],"values":["COL1"],"columns":[{"name":"COUNT(*)","value":0}],"rows":[[3]]},` +
			`{"name":"Grand_Total","keys":[],"values":["COL1"],"columns":[{"name":"SUM(A)","value":0}],"rows":[[8]]}]}` + "\n",
		"table": "topCustomers (2 rows)\n B  TOTAL\n--  -----\n10      3\n20      5\n\n" +
			"QUERY2 (1 row)\nCOL1\n----\n   3\n\n" +
			"Grand_Total (1 row)\nCOL1\n----\n   8\n",
	}
	for _, engine := range []string{"interp", "go"} {
		for _, format := range []string{"json", "table"} {
			t.Run(engine+"/"+format, func(t *testing.T) {
				if engine == "go" && testing.Short() {
					t.Skip("-short: not building the generated package")
				}
				stdout, stderr, code := runCLI(t, dir, "", nil, "run", "-engine", engine, "-format", format, "q.sql")
				if code != 0 {
					t.Fatalf("exit status %d: %s", code, stderr)
				}
				if stdout != want[format] {
					t.Errorf("got:\n%s\nwant:\n%s", stdout, want[format])
				}
			})
		}
	}
}
