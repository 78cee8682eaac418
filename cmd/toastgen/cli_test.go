package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runCLI runs the toastgen binary in dir with stdin and extra environment
// variables, and returns its output and exit status.
func runCLI(t *testing.T, dir, stdin string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(toastgenBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("toastgen %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), code
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCLIExitCodes checks exit statuses (0 success and help, 2 usage
// errors, 1 failures), that help goes to standard output, and that each
// error is printed once.
func TestCLIExitCodes(t *testing.T) {
	root := repoRoot(t)
	rst := readFile(t, filepath.Join(root, "examples/simple/rst.sql"))
	const noData = "CREATE STREAM R (A INT) FROM FILE 'nowhere/r.csv' LINE DELIMITED CSV;\nSELECT SUM(A) FROM R;\n"
	const unread = "CREATE STREAM R (A INT, B INT) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;\n" +
		"CREATE STREAM S (A INT) FROM FILE 'nowhere/s.csv' LINE DELIMITED CSV;\nSELECT SUM(B) FROM R;\n"
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string // a substring of standard output
		stderr string // a substring of standard error, which must hold it once
	}{
		{name: "no command", args: nil, code: 2, stderr: "usage: toastgen COMMAND"},
		{name: "help", args: []string{"help"}, stdout: "bench    build the generated package"},
		{name: "-h", args: []string{"-h"}, stdout: "version  print toastgen's version"},
		{name: "help gen", args: []string{"help", "gen"}, stdout: "-pkg name"},
		{name: "help unknown", args: []string{"help", "frob"}, code: 2, stderr: `unknown command "frob"`},
		{name: "gen -h", args: []string{"gen", "-h"}, stdout: "toastgen gen: write the Go package"},
		{name: "run -help", args: []string{"run", "-help"}, stdout: "-engine engine"},
		{name: "bench -h", args: []string{"bench", "-h"}, stdout: "-repeat K"},
		{name: "m3 -h", args: []string{"m3", "-h"}, stdout: "-depth N"},
		{name: "version", args: []string{"version"}, stdout: "toastgen (devel)\n"},
		{name: "version -h", args: []string{"version", "-h"}, stdout: "toastgen version: print"},
		{name: "version arg", args: []string{"version", "x"}, code: 2, stderr: "version takes no arguments"},
		{name: "unknown command", args: []string{"frob"}, code: 2, stderr: `unknown command "frob"`},
		{name: "unknown flag", args: []string{"gen", "-x", "q.sql"}, code: 2, stderr: "flag provided but not defined: -x"},
		{name: "bad flag value", args: []string{"run", "-depth", "x", "q.sql"}, code: 2, stderr: `-depth must be auto, -1 (unbounded) or at least 0, got x`},
		{name: "explain auto", args: []string{"m3", "-explain", "-dialect", "dbtoaster", "examples/tpch/q8.sql"}, stdout: "-- depth auto: 1 (first-order IVM did 0."},
		{name: "explain small sample", args: []string{"m3", "-explain", "examples/simple/rst.sql"}, stdout: "-- depth auto: -1 (a sample of 30 events is too small"},
		{name: "explain depth", args: []string{"m3", "-explain", "-depth", "1", "examples/simple/rst.sql"}, stdout: "-- depth 1, as -depth says"},
		{name: "no query", args: []string{"m3"}, code: 2, stderr: "expected one query file, got 0"},
		{name: "two queries", args: []string{"m3", "a.sql", "b.sql"}, code: 2, stderr: "expected one query file, got 2"},
		{name: "depth", args: []string{"run", "-depth", "-5", "examples/simple/rst.sql"}, code: 2, stderr: "-depth must be auto, -1 (unbounded) or at least 0, got -5"},
		{name: "repeat", args: []string{"bench", "-repeat", "0", "examples/simple/rst.sql"}, code: 2, stderr: "-repeat must be at least 1, got 0"},
		{name: "format", args: []string{"run", "-format", "xml", "examples/simple/rst.sql"}, code: 2, stderr: `-format must be table or json, got "xml"`},
		{name: "bench format", args: []string{"bench", "-format", "table", "examples/simple/rst.sql"}, code: 2, stderr: `-format must be text or json, got "table"`},
		{name: "help bench", args: []string{"help", "bench"}, stdout: "event_buffer_bytes"},
		{name: "engine", args: []string{"run", "-engine", "rust", "examples/simple/rst.sql"}, code: 2, stderr: `-engine must be go or interp, got "rust"`},
		{name: "missing query", args: []string{"m3", "nowhere.sql"}, code: 1, stderr: "nowhere.sql: no such file"},
		{name: "dialect", args: []string{"m3", "-dialect", "mysql", "examples/simple/rst.sql"}, code: 2, stderr: `-dialect: unknown dialect "mysql" (want sql or dbtoaster)`},
		{name: "dialect sql", args: []string{"run", "-engine", "interp", "-dialect", "sql", "-"},
			stdin: "CREATE STREAM R (A INT NOT NULL, B INT NOT NULL) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;\nSELECT B, COUNT(*) FROM R WHERE NOT (A < 3) GROUP BY B;\n", stdout: "B  COL2"},
		{name: "dialect sql unsupported", args: []string{"m3", "-dialect", "sql", "-"}, stdin: "CREATE STREAM R (A INT, B INT);\nCREATE STREAM S (A INT, B INT);\nSELECT COUNT(*) FROM R LEFT JOIN S ON R.A IN (SELECT B FROM S);\n",
			code: 1, stderr: "<stdin>:3:43: a subquery in the ON condition of an outer join is not supported yet"},
		{name: "dialect sql nulls interp", args: []string{"run", "-engine", "interp", "-dialect", "sql", "-format", "json", "-"},
			stdin:  "CREATE STREAM R (A INT, B INT) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;\nSELECT SUM(A) AS s, COUNT(B) AS n, MIN(B) AS m FROM R WHERE A > 100;\n",
			stdout: `"rows":[[null,0,null]]`},
		{name: "dialect sql nulls go", args: []string{"run", "-dialect", "sql", "-format", "json", "-"},
			stdin:  "CREATE STREAM R (A INT, B INT) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;\nSELECT SUM(A) AS s, COUNT(B) AS n, MIN(B) AS m FROM R WHERE A > 100;\n",
			stdout: `"rows":[[null,0,null]]`},
		{name: "dialect dbtoaster null", args: []string{"m3", "-dialect", "dbtoaster", "-"}, stdin: "CREATE STREAM R (A INT, B INT);\nSELECT B, COUNT(*) FROM R WHERE A IS NULL GROUP BY B;\n",
			code: 1, stderr: "<stdin>:2:35: IS [NOT] NULL is not supported in the dbtoaster dialect"},
		{name: "stdin", args: []string{"run", "-engine", "interp", "-"}, stdin: rst, stdout: "306"},
		// The change stream: the scalar view's first value, then the views.
		{name: "changes interp", args: []string{"run", "-engine", "interp", "-changes", "-format", "json", "examples/simple/rst.sql"},
			stdout: "{\"event\":17,\"view\":\"QUERY1\",\"key\":[],\"old\":[null],\"new\":[21]}\n{\"event\":18,"},
		{name: "changes go", args: []string{"run", "-changes", "examples/factorized/views.sql"},
			stdout: "{\"event\":5,\"view\":\"Pairs\",\"key\":[1,1,4],\"old\":null,\"new\":[1]}\n"},
		{name: "stdin m3", args: []string{"m3", "-"}, stdin: rst, stdout: "ON +S("},
		{name: "no select", args: []string{"m3", "-"}, stdin: "CREATE STREAM R (A INT);\n", code: 1, stderr: "<stdin>: no SELECT: the file declares relations but no query to maintain"},
		{name: "stdin syntax error", args: []string{"m3", "-"}, stdin: "SELECT", code: 1, stderr: "<stdin>:1:"},
		// A missing data file is reported before any build, at its clause.
		{name: "missing data", args: []string{"run", "-"}, stdin: noData, code: 1, stderr: "<stdin>:1:"},
		{name: "missing data bench", args: []string{"bench", "-"}, stdin: noData, code: 1, stderr: "data file nowhere/r.csv of R: no such file or directory"},
		{name: "-data", args: []string{"run", "-engine", "interp", "-data", "nowhere", "examples/simple/rst.sql"}, code: 1, stderr: "data file nowhere/examples/simple/r.dat of R"},
		// A relation no query reads is not read: its data file may be missing.
		{name: "unread relation interp", args: []string{"run", "-engine", "interp", "-"}, stdin: unread, stdout: "31"},
		{name: "unread relation gen", args: []string{"run", "-"}, stdin: unread, stdout: "31"},
		// An unreachable broker fails at once (a refused connection) or
		// within -kafka-timeout, before any build.
		{name: "produce closed port", args: []string{"produce", "-kafka", "127.0.0.1:1", "-kafka-timeout", "5s", "examples/tpch/q3.sql"}, code: 1, stderr: "no broker of 127.0.0.1:1 answered"},
		{name: "run -kafka closed port", args: []string{"run", "-kafka", "127.0.0.1:1", "-group", "g", "-kafka-timeout", "5s", "examples/tpch/q3.sql"}, code: 1, stderr: "no broker of 127.0.0.1:1 answered"},
		{name: "merge closed port", args: []string{"merge", "-kafka", "127.0.0.1:1", "-kafka-timeout", "5s", "examples/tpch/q3.sql"}, code: 1, stderr: "no broker of 127.0.0.1:1 answered"},
		{name: "kafka timeout", args: []string{"produce", "-kafka", "127.0.0.1:1", "-kafka-timeout", "0s", "examples/tpch/q3.sql"}, code: 2, stderr: "-kafka-timeout must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, root, tt.stdin, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.stdout) {
				t.Errorf("standard output lacks %q:\n%s", tt.stdout, stdout)
			}
			if n := strings.Count(stderr, tt.stderr); tt.stderr != "" && n != 1 {
				t.Errorf("standard error holds %q %d times, want once:\n%s", tt.stderr, n, stderr)
			}
			if tt.code == 0 && stderr != "" {
				t.Errorf("standard error not empty: %s", stderr)
			}
			if tt.code == 2 && tt.args != nil && !strings.Contains(stderr, "run 'toastgen help") && !strings.Contains(stderr, "usage:") {
				t.Errorf("usage error without a hint: %s", stderr)
			}
			if strings.Contains(stderr, "toastgen-") {
				t.Errorf("standard error names a temporary directory: %s", stderr)
			}
		})
	}
}

// TestCLIData runs a query from another directory, its FROM FILE paths
// resolved against -data, with both engines.
func TestCLIData(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "q.sql"), []byte(readFile(t, filepath.Join(root, "examples/simple/rst.sql"))), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"interp", "go"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "go" && testing.Short() {
				t.Skip("-short: not building the generated package")
			}
			stdout, stderr, code := runCLI(t, dir, "", nil, "run", "-engine", engine, "-format", "json", "-data", root, "q.sql")
			if code != 0 || !strings.Contains(stdout, "[[306]]") {
				t.Errorf("exit status %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}

// TestCLIBench runs toastgen bench on the 3-way join in both formats: the
// text lines keep their historical shape, and the JSON object holds the
// same figures under the documented names (help bench lists them).
func TestCLIBench(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building the benchmark binary")
	}
	root := repoRoot(t)
	text, stderr, code := runCLI(t, root, "", nil, "bench", "-repeat", "2", "examples/simple/rst.sql")
	if code != 0 {
		t.Fatalf("bench: exit status %d\n%s", code, stderr)
	}
	formats := []string{
		`triggers: [0-9]+ events/s, [0-9]+\.[0-9] ns/event, [0-9]+\.[0-9]{2} allocs/event`,
		`end-to-end: [0-9]+ events/s`,
		`peak heap: [0-9]+\.[0-9] MiB`,
		`events: 30 per pass, 2 passes, 90 applied, elapsed: [0-9.]+(ms|s|µs)`,
		`state heap: [0-9]+\.[0-9] MiB, event buffer: [0-9]+\.[0-9] MiB`,
		`live state: [0-9]+\.[0-9] MiB, map entries: [0-9]+, [0-9]+ bytes/entry`,
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != len(formats) {
		t.Fatalf("bench printed %d lines, want %d:\n%s", len(lines), len(formats), text)
	}
	for i, f := range formats {
		if !regexp.MustCompile("^" + f + "$").MatchString(lines[i]) {
			t.Errorf("line %d: %q does not match %q", i+1, lines[i], f)
		}
	}

	out, stderr, code := runCLI(t, root, "", nil, "bench", "-repeat", "2", "-format", "json", "examples/simple/rst.sql")
	if code != 0 {
		t.Fatalf("bench -format json: exit status %d\n%s", code, stderr)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("bench -format json printed more than one line:\n%s", out)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("bench -format json: %v\n%s", err, out)
	}
	help, _, _ := runCLI(t, root, "", nil, "help", "bench")
	fields := []string{"trigger_events_per_s", "trigger_ns_per_event", "trigger_allocs_per_event", "trigger_ns", "trigger_allocs",
		"end_to_end_events_per_s", "end_to_end_events", "end_to_end_ns", "peak_heap_bytes",
		"events_per_pass", "passes", "events_applied", "elapsed_ns", "state_heap_bytes", "event_buffer_bytes",
		"live_state_bytes", "map_entries", "partitions"}
	for _, f := range fields {
		v, ok := got[f].(float64)
		if !ok {
			t.Errorf("field %s is %v, want a number", f, got[f])
		}
		if v < 0 {
			t.Errorf("field %s is %v < 0", f, v)
		}
		if !strings.Contains(help, f) {
			t.Errorf("help bench does not document %s", f)
		}
	}
	if len(got) != len(fields) {
		t.Errorf("%d fields, want %d: %s", len(got), len(fields), out)
	}
	for f, want := range map[string]float64{"events_per_pass": 30, "passes": 2, "events_applied": 90, "end_to_end_events": 60, "partitions": 1} {
		if got[f] != want {
			t.Errorf("%s = %v, want %v", f, got[f], want)
		}
	}
	if got["trigger_events_per_s"].(float64) <= 0 || got["peak_heap_bytes"].(float64) <= 0 {
		t.Errorf("no measurement: %s", out)
	}
}

// TestCLIEngineGoError checks that a failing generated program's error is
// printed once, as toastgen's, without temporary paths or a second line.
func TestCLIEngineGoError(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not building the generated package")
	}
	dir := t.TempDir()
	files := map[string]string{
		"q.sql": "CREATE STREAM R (A INT, B INT) FROM FILE 'r.csv' LINE DELIMITED CSV;\nSELECT SUM(A * B) FROM R;\n",
		"r.csv": "1,2\n3,x\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := runCLI(t, dir, "", nil, "run", "q.sql")
	const want = "toastgen: r.csv:2: column B: expected INT, got \"x\"\n"
	if code != 1 || stderr != want {
		t.Errorf("exit status %d, stderr %q; want 1, %q", code, stderr, want)
	}
}

// bigQuery writes a query with a view of n rows (and its data) into dir.
func bigQuery(t *testing.T, dir string, n int) {
	t.Helper()
	var data strings.Builder
	for i := range n {
		fmt.Fprintf(&data, "%d,%d\n", i, i%7)
	}
	files := map[string]string{
		"q.sql": "CREATE STREAM R (A INT, B INT) FROM FILE 'r.csv' LINE DELIMITED CSV;\nSELECT A, SUM(B) FROM R GROUP BY A;\n",
		"r.csv": data.String(),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCLISIGPIPE reads one line of a long output and closes the pipe, as
// `toastgen run … | head -1` does: toastgen must end quietly.
func TestCLISIGPIPE(t *testing.T) {
	dir := t.TempDir()
	bigQuery(t, dir, 50_000)
	for _, engine := range []string{"interp", "go"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "go" && testing.Short() {
				t.Skip("-short: not building the generated package")
			}
			cmd := exec.Command(toastgenBinary(t), "run", "-engine", engine, "q.sql")
			cmd.Dir = dir
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			out.Close()
			err = cmd.Wait()
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				ws := ee.Sys().(syscall.WaitStatus)
				if !(ws.Signaled() && ws.Signal() == syscall.SIGPIPE) && ee.ExitCode() != 141 {
					t.Errorf("exit: %v, want 0, 141 or SIGPIPE", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if stderr.Len() > 0 {
				t.Errorf("standard error not empty: %s", stderr.String())
			}
		})
	}
}

// TestCLISignalCleanup interrupts `toastgen run -engine go` during the
// build: toastgen must remove its temporary module and exit with 130 (143
// for SIGTERM). TMPDIR is private, so that any leftover is toastgen's.
func TestCLISignalCleanup(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts builds of the generated package")
	}
	root := repoRoot(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(toastgenBinary(t), "run", "-engine", "go", "examples/tpch/q3.sql")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GOCACHE="+filepath.Join(tmp, "gocache")) // a cold cache: the build takes a while
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for the temporary module, and a moment for go build.
			deadline := time.Now().Add(30 * time.Second)
			for {
				if m, _ := filepath.Glob(filepath.Join(tmp, "toastgen-*", "go.mod")); len(m) > 0 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("no toastgen-* directory in TMPDIR after 30 s")
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("exit: %v, want exit status %d\n%s", err, 128+int(sig), stderr.String())
			}
			if m, _ := filepath.Glob(filepath.Join(tmp, "toastgen-*")); len(m) > 0 {
				t.Errorf("left behind: %v", m)
			}
			if stderr.Len() > 0 {
				t.Errorf("standard error not empty: %s", stderr.String())
			}
		})
	}
}

// TestCLIOverflow checks that an INT SUM that would leave int64 stops run
// with the data error at its input line, in both engines: the third
// insert of 2^62 − 1 into one group is rejected.
func TestCLIOverflow(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"q.sql": "CREATE STREAM R (A INT, B INT) FROM FILE 'r.csv' LINE DELIMITED CSV;\nSELECT B, SUM(A) AS s FROM R GROUP BY B;\n",
		"r.csv": "4611686018427387903,1\n4611686018427387903,1\n4611686018427387903,1\n5,2\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const want = "toastgen: r.csv:3: integer overflow in an INT SUM, COUNT or product: insert into R (4611686018427387903, 1) rejected\n"
	for _, engine := range []string{"interp", "go"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "go" && testing.Short() {
				t.Skip("-short: not building the generated package")
			}
			stdout, stderr, code := runCLI(t, dir, "", nil, "run", "-engine", engine, "q.sql")
			if code != 1 || stderr != want || stdout != "" {
				t.Errorf("exit status %d, stdout %q, stderr %q; want 1, nothing, %q", code, stdout, stderr, want)
			}
		})
	}
}
