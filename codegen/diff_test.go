package codegen_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/internal/numtest"
	"github.com/toastgen/toastgen/internal/testmode"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// TestDiffGenerated is the differential suite for generated code: every
// query of ../viewlet/testdata/diff is compiled (unbounded depth and depth
// 1, and depth 0 where the file asks for it), generated as its own package, and all packages are built into one
// driver binary. Each package replays a random insert/delete stream and
// prints its views every 100 events and at the end; each printout must equal
// SQLite recomputing the query on the base tables at that point. The
// number-rule cases of package numtest share the build.
func TestDiffGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a driver with every generated package; skipped with -short")
	}
	// TOASTGEN_DIFF narrows the suite to the files matching a glob (e.g.
	// "19*"), for iterating on a few queries; the seeds stay those of the
	// full suite (by file index).
	files, err := filepath.Glob("../viewlet/testdata/diff/*.sql")
	pat := os.Getenv("TOASTGEN_DIFF")
	if err != nil || len(files) == 0 {
		t.Fatalf("no diff queries: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type job struct {
		name, path string
		depth      int
		f          *lang.File
		stream     oracle.Stream
		p          *viewlet.Program
		workers    bool // the package is runtime.Partitioned
	}
	var jobs []job
	var cases []string
	// Depths often compile to the same program: each distinct one is
	// built once, and the duplicates' engines are the first package's.
	pkgs := packageSet{byCode: map[string]string{}}
	for i, path := range files {
		if ok, _ := filepath.Match(pat, filepath.Base(path)); pat != "" && !ok {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte("-- KNOWN BUG:")) {
			continue
		}
		c, err := oracle.ReadCase(path, 1000, 0.3)
		if err != nil {
			t.Fatal(err)
		}
		f, err := lang.Config{Dialect: c.Dialect}.Parse(path, src)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		qs, err := calculus.FromSQL(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		stream := oracle.Generate(f, int64(i+1), min(c.Events, 1000), c.DeleteFrac, c.Domain)
		// Every package follows the file's partition plan, so that the
		// "workers" mode can run it on several engines.
		plan := calculus.Partition(f.Relations, qs)
		depths := []int{viewlet.Unbounded, 1}
		if c.Depth0 {
			depths = append(depths, 0)
		}
		for _, depth := range depths {
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			name := fmt.Sprintf("q%02dd%d", i, depth+1)
			pkg, out := pkgs.add(t, p, name, filepath.Base(path), plan)
			if out != nil {
				write(t, filepath.Join(dir, name, name+".go"), out)
			}
			write(t, filepath.Join(dir, name+".events"), encodeStream(f, stream))
			jobs = append(jobs, job{name, path, depth, f, stream, p, viewlet.MergeReason(p, plan) == ""})
			cases = append(cases, fmt.Sprintf("\t%q: func() runtime.Engine { return %s.New() },\n", name, pkg))
		}
	}
	// The number-rule cases (package numtest) share the build.
	type numJob struct {
		name  string
		depth int
		c     numtest.Case
		p     *viewlet.Program
	}
	var numJobs []numJob
	for _, c := range numtest.Cases() {
		f, err := lang.Parse(c.Name+".sql", []byte(c.Query))
		if err != nil {
			t.Fatal(err)
		}
		qs, err := calculus.FromSQL(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, depth := range []int{viewlet.Unbounded, 1, 0} {
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			name := fmt.Sprintf("%sd%d", c.Name, depth+1)
			pkg, out := pkgs.add(t, p, name, c.Name+".sql", nil)
			if out != nil {
				write(t, filepath.Join(dir, name, name+".go"), out)
			}
			write(t, filepath.Join(dir, name+".events"), numtest.EventsFile(c.Events))
			numJobs = append(numJobs, numJob{name, depth, c, p})
			cases = append(cases, fmt.Sprintf("\t%q: func() runtime.Engine { return %s.New() },\n", name, pkg))
		}
	}
	var imports strings.Builder
	for _, name := range pkgs.names {
		fmt.Fprintf(&imports, "\t%q\n", "difftest/"+name)
	}
	t.Logf("%d programs, %d distinct packages", len(jobs)+len(numJobs), len(pkgs.names))
	write(t, filepath.Join(dir, "go.mod"), []byte(fmt.Sprintf("module difftest\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => %s\n", root)))
	write(t, filepath.Join(dir, "main.go"), []byte(fmt.Sprintf(driverSrc, imports.String(), strings.Join(cases, ""))))
	// -trimpath keeps the temporary directory out of the build cache's
	// keys, so a package whose code did not change is not compiled again.
	build := exec.Command("go", "build", "-trimpath", "-o", "driver", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the generated packages: %v\n%s", err, out)
	}
	// Each number case prints one line per event; the lines must equal the
	// interpreter's and pass the case's check.
	for _, j := range numJobs {
		t.Run(fmt.Sprintf("%s/depth%d", j.c.Name, j.depth), func(t *testing.T) {
			t.Parallel()
			run := exec.Command(filepath.Join(dir, "driver"), j.name, filepath.Join(dir, j.name+".events"), "each")
			out, err := run.Output()
			if err != nil {
				t.Fatalf("driver: %v", err)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			want := numtest.Replay(viewlet.NewInterp(j.p), j.c.Events)
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("after event %d (%s), generated code and interpreter differ:\ngo     %s\ninterp %s", i+1, j.c.Events[i], got[i], want[i])
				}
			}
			if len(got) != len(want) {
				t.Fatalf("generated code printed %d lines, the interpreter %d", len(got), len(want))
			}
			if err := j.c.Check(got); err != nil {
				t.Fatal(err)
			}
		})
	}
	for ji, j := range jobs {
		modes := []string{""}
		if ji%4 == 0 {
			modes = append(modes, "changes") // a replica of the change stream, every fourth program
		}
		if ji%3 == 2 || testmode.Soak() {
			// Batches of 20 applied set-at-a-time, every third program.
			modes = append(modes, "set")
		}
		if ji%12 == 1 || ji%12 == 6 || testmode.Soak() && ji%3 == 1 {
			// Restored from snapshots halfway: every sixth program (both
			// depths), every third in soak.
			modes = append(modes, "snapshot")
		}
		if j.workers && (ji%2 == 0 || testmode.Soak()) {
			// Three engines, each event routed by the partition plan,
			// the views merged at each checkpoint: every other program.
			modes = append(modes, "workers")
		}
		for _, mode := range modes {
			t.Run(strings.TrimSuffix(fmt.Sprintf("%s/depth%d/%s", filepath.Base(j.path), j.depth, mode), "/"), func(t *testing.T) {
				t.Parallel()
				args := []string{j.name, filepath.Join(dir, j.name+".events")}
				if mode != "" {
					args = append(args, mode)
				}
				if mode == "snapshot" {
					cut := len(j.stream.Events) / 2
					snap := filepath.Join(dir, j.name+".interp.snap")
					interpSnapshot(t, j.p, j.stream.Events[:cut], snap)
					args = append(args, strconv.Itoa(cut), snap)
				}
				run := exec.Command(filepath.Join(dir, "driver"), args...)
				out, err := run.Output()
				if ee, ok := err.(*exec.ExitError); ok {
					t.Fatalf("driver: %v\n%s", err, ee.Stderr)
				} else if err != nil {
					t.Fatalf("driver: %v", err)
				}
				checkpoints := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
				db, err := oracle.Open(j.f)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				cp := 0
				for i, ev := range j.stream.Events {
					if ev.Insert {
						err = db.Insert(ev.Rel, ev.Tuple)
					} else {
						err = db.Delete(ev.Rel, ev.Tuple)
					}
					if err != nil {
						t.Fatal(err)
					}
					if (i+1)%100 != 0 && i+1 != len(j.stream.Events) {
						continue
					}
					if cp >= len(checkpoints) {
						t.Fatalf("driver printed %d checkpoints, want more", len(checkpoints))
					}
					got, err := oracle.DecodeJSON(checkpoints[cp])
					if err != nil {
						t.Fatalf("driver output: %v", err)
					}
					cp++
					for qi, q := range j.f.Queries {
						want, err := db.View(q)
						if err != nil {
							t.Fatal(err)
						}
						gv, err := oracle.Typed(got[qi], want)
						if err != nil {
							t.Fatal(err)
						}
						if err := oracle.Compare(want, gv, 1e-9); err != nil {
							t.Fatalf("%s (depth %d, seed from file index) after event %d (%s), view %s:\n%v", j.path, j.depth, i+1, ev, q.Name, err)
						}
					}
				}
			})
		}
	}
}

const driverSrc = `package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/runtime"
%s)

var engines = map[string]func() runtime.Engine{
%s}

// main replays an events file (rel|op|fields…) and prints the views as JSON
// every 100 events and at the end; with a third argument "each", after
// every event, or "error: " and the error of an event that fails; with
// "workers", three partitions of the engine run it (runtime.Workers); with
// "changes", it applies the events in batches of four and prints instead
// the views of a replica kept from the engine's change stream alone ("set":
// batches of 20, set-at-a-time); with
// "snapshot CUT FILE", after CUT events the engine is replaced by one
// restored from its snapshot, then by one restored from the interpreter's
// snapshot in FILE (see restore).
func main() {
	e := engines[os.Args[1]]()
	each := len(os.Args) > 3 && os.Args[3] == "each"
	if len(os.Args) > 3 && os.Args[3] == "changes" {
		changes(e, 4, runtime.Auto)
		return
	}
	if len(os.Args) > 3 && os.Args[3] == "set" {
		changes(e, 20, runtime.SetAtATime)
		return
	}
	if len(os.Args) > 3 && os.Args[3] == "workers" {
		w, err := runtime.NewWorkers(e.(runtime.Partitioned), 3)
		if err != nil {
			panic(err)
		}
		e = w
	}
	cut := -1
	if len(os.Args) > 5 && os.Args[3] == "snapshot" {
		cut, _ = strconv.Atoi(os.Args[4])
	}
	index := map[string]int{}
	for i, r := range e.Relations() {
		index[r.Name] = i
	}
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	w := bufio.NewWriter(os.Stdout)
	for n, line := range lines {
		parts := strings.Split(line, "|")
		fields := make([][]byte, len(parts)-2)
		for i, p := range parts[2:] {
			fields[i] = []byte(p)
		}
		if n == cut {
			e = restore(e, os.Args[1], os.Args[5])
		}
		err := e.Apply(index[parts[0]], parts[1] == "1", fields)
		switch {
		case each && err != nil:
			fmt.Fprintln(w, "error: "+err.Error())
			continue
		case each:
			runtime.WriteJSON(w, e.Views())
			continue
		case err != nil:
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if (n+1)%%100 == 0 || n+1 == len(lines) {
			runtime.WriteJSON(w, e.Views())
			checkLens(e, n+1)
		}
	}
	w.Flush()
}

// changes replays the events file in batches of size events into e,
// applied under policy, with a runtime.Replica fed by e's change stream,
// and prints the replica's views every 100 events and at the end. Halfway,
// the subscribed engine is restored in place from its snapshot of a
// quarter of the way: the replica must follow it back (a restore reports
// the changes from the views before to the views restored), and the
// events since are applied again.
func changes(e runtime.Engine, size int, policy runtime.Policy) {
	index := map[string]int{}
	for i, r := range e.Relations() {
		index[r.Name] = i
	}
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	rep := runtime.NewReplica(e.Views())
	e.(runtime.ChangeStreamer).OnChanges(func(c runtime.Change) {
		if err := rep.Apply(c); err != nil {
			panic(err)
		}
	})
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	w := bufio.NewWriter(os.Stdout)
	b := e.NewBatch()
	var snap bytes.Buffer
	mark, rewound, printed := -1, false, 0
	for n := 0; n < len(lines); n++ {
		line := lines[n]
		parts := strings.Split(line, "|")
		fields := make([][]byte, len(parts)-2)
		for i, p := range parts[2:] {
			fields[i] = []byte(p)
		}
		if err := b.Add(index[parts[0]], parts[1] == "1", fields); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if (n+1)%%size != 0 && n+1 != len(lines) {
			continue
		}
		if err := e.ApplyBatch(runtime.WithPolicy(b, policy)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		b = e.NewBatch()
		if ((n+1)%%100 == 0 || n+1 == len(lines)) && n+1 > printed {
			runtime.WriteJSON(w, rep.Views())
			printed = n + 1 // not again when the events are applied again
		}
		s, ok := e.(runtime.Snapshotter)
		switch {
		case !ok || rewound:
		case mark < 0 && n+1 >= len(lines)/4:
			if err := s.WriteSnapshot(&snap); err != nil {
				fail("snapshot: %%v", err)
			}
			mark = n + 1
		case mark >= 0 && n+1 >= len(lines)/2 && n+1 > mark:
			if _, err := s.RestoreSnapshot(&snap); err != nil {
				fail("restore: %%v", err)
			}
			var got, want bytes.Buffer
			runtime.WriteJSON(&got, rep.Views())
			runtime.WriteJSON(&want, e.Views())
			if got.String() != want.String() {
				fail("after a restore in place, the replica differs from the views:\n%%s\nwant\n%%s", got.String(), want.String())
			}
			rewound = true
			n = mark - 1 // the events since the snapshot, again
		}
	}
	w.Flush()
}

// restore checks that an engine restored from a snapshot of e shows e's
// views, and returns the engine of the program name restored from the
// interpreter's snapshot in the file interp, taken at the same point,
// after checking that it shows them too.
func restore(e runtime.Engine, name, interp string) runtime.Engine {
	var snap bytes.Buffer
	if err := e.(runtime.Snapshotter).WriteSnapshot(&snap); err != nil {
		fail("snapshot: %%v", err)
	}
	var want bytes.Buffer
	runtime.WriteJSON(&want, e.Views())
	for _, from := range []string{"own", "interp"} {
		r := engines[name]()
		in := io.Reader(&snap)
		if from == "interp" {
			data, err := os.ReadFile(interp)
			if err != nil {
				fail("%%v", err)
			}
			in = bytes.NewReader(data)
		}
		if _, err := r.(runtime.Snapshotter).RestoreSnapshot(in); err != nil {
			fail("restore from the %%s snapshot: %%v", from, err)
		}
		var got bytes.Buffer
		runtime.WriteJSON(&got, r.Views())
		if got.String() != want.String() {
			fail("restored from the %%s snapshot, the views differ:\n%%s\nwant\n%%s", from, got.String(), want.String())
		}
		e = r
	}
	return e
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

// checkLens compares every view's Len method (XLen beside X, its sorted
// rows) with the number of rows X returns, and exits on a difference.
func checkLens(e runtime.Engine, events int) {
	v := reflect.ValueOf(e)
	for i := range v.NumMethod() {
		name := v.Type().Method(i).Name
		rows := v.MethodByName(strings.TrimSuffix(name, "Len"))
		if !strings.HasSuffix(name, "Len") || !rows.IsValid() || rows.Type().NumIn() != 0 || v.Method(i).Type().NumIn() != 0 {
			continue
		}
		n := v.Method(i).Call(nil)[0].Int()
		if got := rows.Call(nil)[0].Len(); int64(got) != n {
			fmt.Fprintf(os.Stderr, "after event %%d: %%s() = %%d, want %%d rows\n", events, name, n, got)
			os.Exit(1)
		}
	}
}
`

// packageSet names the distinct generated programs of a build.
type packageSet struct {
	byCode map[string]string // the code generated under a fixed name → package
	names  []string          // the packages, in order
}

// add generates p as package name and returns the package that holds its
// code: name, with the source to write, or an earlier package with the
// same code (and nil).
func (s *packageSet) add(t *testing.T, p *viewlet.Program, name, source string, plan *calculus.PartitionPlan) (string, []byte) {
	t.Helper()
	canon, err := codegen.Generate(p, codegen.Options{Package: "p", Source: source, Partition: plan})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if pkg, ok := s.byCode[string(canon)]; ok {
		return pkg, nil
	}
	out, err := codegen.Generate(p, codegen.Options{Package: name, Source: source, Partition: plan})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s.byCode[string(canon)] = name
	s.names = append(s.names, name)
	return name, out
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// encodeStream writes events as rel|op|field|… lines, values formatted so
// that the runtime parsers read them back exactly; NULL is runtime.NullField
// (\N), which a nullable column reads as NULL whatever its type.
func encodeStream(f *lang.File, s oracle.Stream) []byte {
	var b bytes.Buffer
	for _, ev := range s.Events {
		op := "0"
		if ev.Insert {
			op = "1"
		}
		b.WriteString(ev.Rel + "|" + op)
		for _, v := range ev.Tuple {
			b.WriteString("|")
			switch x := v.(type) {
			case nil: // a NULL in a nullable column
				b.WriteString(runtime.NullField)
			case int64:
				b.WriteString(strconv.FormatInt(x, 10))
			case float64:
				b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
			case runtime.Date:
				b.WriteString(x.String())
			case string:
				b.WriteString(x)
			}
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// interpSnapshot writes the snapshot of p's interpreter after events to path.
func interpSnapshot(t *testing.T, p *viewlet.Program, events []oracle.Event, path string) {
	t.Helper()
	in := viewlet.NewInterp(p)
	for i, ev := range events {
		// An event the interpreter rejects (an overflow) is rejected by
		// the generated engine too: both keep the state before it.
		if err := in.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil && in.Err() != nil {
			t.Fatalf("interpreter: event %d: %v", i, err)
		}
	}
	var buf bytes.Buffer
	if err := in.WriteSnapshot(&buf); err != nil {
		t.Fatal(err)
	}
	write(t, path, buf.Bytes())
}
