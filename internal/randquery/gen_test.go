package randquery

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// genJob is one generated package: a query at one depth.
type genJob struct {
	name  string
	q     *Query
	f     *lang.File
	depth int
	evs   []oracle.Event
}

// TestRandomGenerated runs TOASTGEN_RANDQ_GEN random queries (default 8;
// skipped with -short) as generated code: each query at unbounded depth and
// depth 1 becomes a package, all packages are built into one driver binary
// (a package that does not build is a failure and is left out of the next
// build), and each replays its stream printing its view after every event,
// compared with both SQLite translations.
func TestRandomGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a driver of generated packages; skipped with -short")
	}
	n := env("TOASTGEN_RANDQ_GEN", 8)
	c := config()
	tl := newTally("generated")
	results := map[int64]*result{}
	var order []*Query
	// record keeps the worst result of a query over its depths.
	record := func(q *Query, r result) {
		old := results[q.Seed]
		if old == nil || r.class > old.class {
			results[q.Seed] = &r
		}
	}
	dir := t.TempDir()
	var jobs []*genJob
	for _, s := range seeds(n) {
		q := New(s, c)
		order = append(order, q)
		f, progs, r := compile(q, []int{viewlet.Unbounded, 1})
		if r != nil {
			record(q, *r)
			continue
		}
		evs := stream(q, f, streamEvents).Events
		for _, p := range progs {
			name := fmt.Sprintf("q%05dd%d", s, p.depth+1)
			out, err := generate(p.p, name)
			if err != nil {
				cl, sym := classify("codegen", err)
				record(q, result{seed: s, class: cl, symptom: sym, detail: fmt.Sprintf("depth %d: %v", p.depth, err), event: -1, depth: p.depth})
				continue
			}
			writeFile(t, filepath.Join(dir, name, name+".go"), out)
			writeFile(t, filepath.Join(dir, name+".events"), encode(evs))
			jobs = append(jobs, &genJob{name, q, f, p.depth, evs})
			record(q, result{seed: s, event: -1})
		}
	}
	jobs = buildDriver(t, dir, jobs, func(j *genJob, msg string) {
		record(j.q, result{seed: j.q.Seed, class: failed, symptom: "build: " + normalize(msg), detail: fmt.Sprintf("depth %d: %s", j.depth, msg), event: -1, depth: j.depth})
	})
	for _, j := range jobs {
		record(j.q, runJob(dir, j))
	}
	for _, q := range order {
		tl.add(t, q, *results[q.Seed])
	}
	tl.report(t)
}

// generate runs codegen, recovering a panic as an error.
func generate(p *viewlet.Program, name string) (out []byte, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("codegen panic: %v\n%s", x, frames())
		}
	}()
	return codegen.Generate(p, codegen.Options{Package: name, Source: name + ".sql"})
}

var buildErrRe = regexp.MustCompile(`(?m)^(?:\./)?(q\d+d\d)/[^:]+:\d+:\d+: (.*)$`)

// buildDriver builds the packages of jobs into one driver, leaving out (and
// reporting through bad) each package that does not build; it returns the
// jobs that built.
func buildDriver(t *testing.T, dir string, jobs []*genJob, bad func(*genJob, string)) []*genJob {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf("module difftest\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)))
	for len(jobs) > 0 {
		var imports, cases strings.Builder
		for _, j := range jobs {
			fmt.Fprintf(&imports, "\t%q\n", "difftest/"+j.name)
			fmt.Fprintf(&cases, "\t%q: func() runtime.Engine { return %s.New() },\n", j.name, j.name)
		}
		writeFile(t, filepath.Join(dir, "main.go"), []byte(fmt.Sprintf(driverSrc, imports.String(), cases.String())))
		build := exec.Command("go", "build", "-trimpath", "-o", "driver", ".")
		build.Dir = dir
		build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := build.CombinedOutput()
		if err == nil {
			return jobs
		}
		first := map[string]string{}
		for _, m := range buildErrRe.FindAllStringSubmatch(string(out), -1) {
			if _, ok := first[m[1]]; !ok {
				first[m[1]] = m[2]
			}
		}
		if len(first) == 0 {
			t.Fatalf("building the driver: %v\n%s", err, out)
		}
		var keep []*genJob
		for _, j := range jobs {
			if msg, ok := first[j.name]; ok {
				bad(j, msg)
				os.RemoveAll(filepath.Join(dir, j.name))
				continue
			}
			keep = append(keep, j)
		}
		jobs = keep
	}
	return nil
}

// runJob replays a job's events in the driver and checks every printout.
func runJob(dir string, j *genJob) result {
	r := result{seed: j.q.Seed, event: -1, depth: j.depth}
	run := exec.Command(filepath.Join(dir, "driver"), j.name, filepath.Join(dir, j.name+".events"))
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(out) == 0 {
		lines = nil
	}
	o, oerr := openOracles(j.q, j.f)
	if oerr != nil {
		return result{seed: j.q.Seed, class: failed, symptom: "harness: " + normalize(oerr.Error()), detail: oerr.Error(), event: -1}
	}
	defer o.close()
	for i, ev := range j.evs {
		if err := o.apply(ev); err != nil {
			return result{seed: j.q.Seed, class: failed, symptom: "harness: " + normalize(err.Error()), detail: err.Error(), event: i}
		}
		if i >= len(lines) {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" && err != nil {
				msg = err.Error()
			}
			if i := strings.Index(msg, "panic: "); i >= 0 {
				msg = msg[i:]
			}
			r.class, r.symptom, r.event = failed, "generated code died: "+normalize(msg), i
			r.detail = fmt.Sprintf("depth %d, at event %d %v: %s", j.depth, i, ev, firstLines(msg, 12))
			return r
		}
		want, raw, err := o.views()
		if err != nil {
			return result{seed: j.q.Seed, class: failed, symptom: "harness: " + normalize(err.Error()), detail: err.Error(), event: i}
		}
		views, err := oracle.DecodeJSON(lines[i])
		if err == nil && len(views) != 1 {
			err = fmt.Errorf("%d views", len(views))
		}
		if err != nil {
			r.class, r.symptom, r.event, r.detail = failed, "driver output: "+normalize(err.Error()), i, err.Error()
			return r
		}
		got, err := oracle.Typed(views[0], want)
		if err != nil {
			r.class, r.symptom, r.event, r.detail = failed, "driver output: "+normalize(err.Error()), i, err.Error()
			return r
		}
		if sym, det := checkq(j.f, want, raw, got); sym != "" {
			r.class, r.symptom, r.event = failed, sym, i
			r.detail = fmt.Sprintf("generated code, depth %d, after event %d %v:\n%s", j.depth, i, ev, det)
			return r
		}
	}
	return r
}

func firstLines(s string, n int) string {
	ls := strings.Split(s, "\n")
	return strings.Join(ls[:min(n, len(ls))], "\n")
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// encode writes events as rel|op|field|… lines (all columns are ints).
func encode(evs []oracle.Event) []byte {
	var b bytes.Buffer
	for _, ev := range evs {
		op := "0"
		if ev.Insert {
			op = "1"
		}
		b.WriteString(ev.Rel + "|" + op)
		for _, v := range ev.Tuple {
			fmt.Fprintf(&b, "|%d", v.(int64))
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// driverSrc replays an events file and prints the views as JSON after every
// event (the streams are short).
const driverSrc = `package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/toastgen/toastgen/runtime"
%s)

var engines = map[string]func() runtime.Engine{
%s}

func main() {
	e := engines[os.Args[1]]()
	index := map[string]int{}
	for i, r := range e.Relations() {
		index[r.Name] = i
	}
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		parts := strings.Split(line, "|")
		fields := make([][]byte, len(parts)-2)
		for i, p := range parts[2:] {
			fields[i] = []byte(p)
		}
		if err := e.Apply(index[parts[0]], parts[1] == "1", fields); err != nil {
			w.Flush()
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		runtime.WriteJSON(w, e.Views())
	}
}
`
