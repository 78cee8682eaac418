package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang/oracle"
)

// columnCases are views whose SELECT order differs from their GROUP BY
// order, each with the JSON `toastgen run` must print for it over
// columnData: keys in SELECT order, then unselected GROUP BY keys; values
// in SELECT order; columns the SELECT list with key and value indexes.
var columnCases = []struct {
	name, query, want string
}{
	{"reordered", "SELECT B, A, SUM(C) AS S FROM R GROUP BY A, B",
		`"keys":["B","A"],"values":["S"],"columns":[{"name":"B","key":0},{"name":"A","key":1},{"name":"S","value":0}],` +
			`"rows":[["x",1,11],["x",2,5],["y",1,20]]`},
	{"unselected key", "SELECT B, SUM(C) AS S FROM R GROUP BY A, B",
		`"keys":["B","A"],"values":["S"],"columns":[{"name":"B","key":0},{"name":"S","value":0}],` +
			`"rows":[["x",1,11],["x",2,5],["y",1,20]]`},
	{"interleaved", "SELECT A, SUM(C) AS S, B FROM R GROUP BY B, A",
		`"keys":["A","B"],"values":["S"],"columns":[{"name":"A","key":0},{"name":"S","value":0},{"name":"B","key":1}],` +
			`"rows":[[1,"x",11],[1,"y",20],[2,"x",5]]`},
	{"key expression value", "SELECT B, A * 2 AS A2, COUNT(*) AS N FROM R GROUP BY A, B",
		`"keys":["B","A"],"values":["A2","N"],"columns":[{"name":"B","key":0},{"name":"A2","value":0},{"name":"N","value":1}],` +
			`"rows":[["x",1,2,2],["x",2,4,1],["y",1,2,1]]`},
	{"repeated key", "SELECT A, A AS A2, SUM(C) AS S FROM R GROUP BY A",
		`"keys":["A"],"values":["S"],"columns":[{"name":"A","key":0},{"name":"A2","key":0},{"name":"S","value":0}],` +
			`"rows":[[1,31],[2,5]]`},
	{"bag", "SELECT B, A FROM R",
		`"keys":["B","A"],"values":["COUNT"],"columns":[{"name":"B","key":0},{"name":"A","key":1}],` +
			`"rows":[["x",1,2],["x",2,1],["y",1,1]]`},
	{"scalar", "SELECT COUNT(*) AS N, SUM(C) AS S FROM R",
		`"keys":[],"values":["N","S"],"columns":[{"name":"N","value":0},{"name":"S","value":1}],"rows":[[4,36]]`},
	// Columns carry SQLite's names: an unaliased expression's source
	// text, a bare column's declared name, an alias as written; they may
	// repeat, while keys and values stay unique.
	{"unaliased", "SELECT A, a + 1, COUNT(*), sum( C ) AS total FROM R GROUP BY A",
		`"keys":["A"],"values":["COL2","COL3","TOTAL"],"columns":[{"name":"A","key":0},{"name":"a + 1","value":0},{"name":"COUNT(*)","value":1},{"name":"total","value":2}],` +
			`"rows":[[1,2,3,31],[2,3,1,5]]`},
	{"repeated", "SELECT a, A, C + 1, C + 1 FROM R",
		`"keys":["A","R_A","COL3","COL4"],"values":["COUNT"],"columns":[{"name":"A","key":0},{"name":"A","key":1},{"name":"C + 1","key":2},{"name":"C + 1","key":3}],` +
			`"rows":[[1,1,2,2,1],[1,1,11,11,1],[1,1,21,21,1],[2,2,6,6,1]]`},
	{"constant", "SELECT 13 FROM R GROUP BY R.A",
		`"keys":["A"],"values":["COL1"],"columns":[{"name":"13","value":0}],"rows":[[1,13],[2,13]]`},
}

const columnData = "1,x,10\n1,y,20\n2,x,5\n1,x,1\n"

// TestRunColumns checks the key order and the columns of `toastgen run
// -format json` with both engines, and the key order of -format table.
func TestRunColumns(t *testing.T) {
	dir := t.TempDir()
	src := "CREATE STREAM R (A INT, B STRING, C INT) FROM FILE 'r.csv' LINE DELIMITED CSV;\n"
	want := `{"views":[`
	for i, c := range columnCases {
		src += c.query + ";\n"
		if i > 0 {
			want += ","
		}
		want += `{"name":"QUERY` + strconv.Itoa(i+1) + `",` + c.want + "}"
	}
	want += "]}\n"
	for name, body := range map[string]string{"q.sql": src, "r.csv": columnData} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, engine := range []string{"interp", "go"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "go" && testing.Short() {
				t.Skip("-short: not building the generated package")
			}
			stdout, stderr, code := runCLI(t, dir, "", nil, "run", "-engine", engine, "-format", "json", "q.sql")
			if code != 0 {
				t.Fatalf("exit status %d: %s", code, stderr)
			}
			if _, err := oracle.DecodeJSON([]byte(stdout)); err != nil {
				t.Errorf("not JSON the oracle reads: %v", err)
			}
			if stdout == want {
				return
			}
			missing := false
			for _, c := range columnCases {
				if !strings.Contains(stdout, c.want) {
					missing = true
					t.Errorf("%s: %s: want %s", c.name, c.query, c.want)
				}
			}
			t.Errorf("got %s", stdout)
			if !missing {
				t.Errorf("want %s", want)
			}
		})
	}
	stdout, stderr, code := runCLI(t, dir, "", nil, "run", "-engine", "interp", "q.sql")
	if code != 0 {
		t.Fatalf("exit status %d: %s", code, stderr)
	}
	const table = "QUERY1 (3 rows)\nB  A   S\n-  -  --\nx  1  11\nx  2   5\ny  1  20\n\n"
	if !strings.HasPrefix(stdout, table) {
		t.Errorf("-format table:\n got %s\nwant %s…", stdout, table)
	}
}
