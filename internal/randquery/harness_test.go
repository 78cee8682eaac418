package randquery

// The differential harness. Environment:
//
//	TOASTGEN_RANDQ=N       interpreter queries (default 40; 12 with -short)
//	TOASTGEN_RANDQ_GEN=N   generated-code queries (default 8; none with -short)
//	TOASTGEN_RANDQ_SEED=S  first seed (default 1)
//	TOASTGEN_RANDQ_OFF=f,… features switched off (see Features)
//	TOASTGEN_RANDQ_REPORT=file  append the tallies to file
//	TOASTGEN_RANDQ_MIN=S   TestMinimize: shrink the failure of seed S
//
// A query passes, is rejected (a positioned lang.Error from the front end,
// the calculus or the viewlet compiler: counted, messages tallied) or fails
// (a wrong view against either SQLite reference, a panic, an internal error,
// a generated package that does not build); the test fails if any query
// fails, printing its seed and text.

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// The outcome of one query on one engine.
type class int

const (
	passed class = iota
	rejected
	failed
)

func (c class) String() string { return [...]string{"passed", "rejected", "failed"}[c] }

type result struct {
	seed    int64
	class   class
	symptom string // normalized one-line reason (rejections and failures)
	detail  string // the full message
	event   int    // index of the first wrong event, -1 if none
	depth   int
	slow    bool // stopped at the time budget without a difference
}

// env reads an int environment variable.
func env(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// config is the generator Config of the environment: TOASTGEN_RANDQ_OFF is
// a comma-separated list of features to switch off.
func config() Config {
	var c Config
	if off := os.Getenv("TOASTGEN_RANDQ_OFF"); off != "" {
		c = c.Without(strings.Split(off, ",")...)
	}
	return c
}

const (
	streamEvents = 120
	queryBudget  = 8 * time.Second
	tol          = 1e-9
)

var normRe = regexp.MustCompile(`\b[A-Za-z]*[_0-9][A-Za-z0-9_]*\b`)

// normalize turns a message into a symptom: its first line, positions
// dropped, names with digits or underscores (map keys, variables) blurred.
func normalize(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	if i := strings.Index(line, ".sql:"); i >= 0 {
		if j := strings.Index(line[i:], ": "); j >= 0 {
			line = line[i+j+2:]
		}
	}
	line = normRe.ReplaceAllString(line, "_")
	if len(line) > 110 {
		line = line[:110]
	}
	return line
}

// classify turns a compile-stage error into a result: a positioned error
// (lang.Error) is a rejection, anything else an internal failure.
func classify(stage string, err error) (class, string) {
	var le *lang.Error
	if errors.As(err, &le) {
		return rejected, stage + ": " + normalize(le.Msg)
	}
	return failed, stage + " error: " + normalize(err.Error())
}

// compiled is a query compiled at one depth.
type compiled struct {
	depth int
	p     *viewlet.Program
}

// compile parses q and compiles it at each depth, recovering panics. A
// non-nil result means it did not get that far.
func compile(q *Query, depths []int) (*lang.File, []compiled, *result) {
	r := &result{seed: q.Seed, event: -1}
	var f *lang.File
	var out []compiled
	stage := "parse"
	err := func() (err error) {
		defer func() {
			if x := recover(); x != nil {
				err = fmt.Errorf("panic: %v\n%s", x, frames())
			}
		}()
		if f, err = lang.Parse(fmt.Sprintf("q%d.sql", q.Seed), []byte(q.Text)); err != nil {
			return err
		}
		stage = "calculus"
		qs, err := calculus.FromSQL(f)
		if err != nil {
			return err
		}
		stage = "viewlet"
		for _, d := range depths {
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: d})
			if err != nil {
				return err
			}
			out = append(out, compiled{d, p})
		}
		return nil
	}()
	if err != nil {
		r.detail = err.Error()
		if strings.HasPrefix(r.detail, "panic: ") {
			r.class, r.symptom = failed, stage+" "+normalize(r.detail)
		} else {
			r.class, r.symptom = classify(stage, err)
		}
		return f, nil, r
	}
	return f, out, nil
}

// stream is the random event stream of q.
func stream(q *Query, f *lang.File, n int) oracle.Stream {
	return oracle.Generate(f, q.Seed, n, q.DeleteFrac, oracle.Domain{Ints: q.Ints})
}

// oracles holds the two references: lang.SQLite's translation (the
// project's oracle) and the generator's own SQLite text, on two databases
// fed the same events.
type oracles struct {
	q   *Query
	f   *lang.File
	db  *oracle.DB
	raw *sql.DB
	ins map[string]*sql.Stmt
	del map[string]*sql.Stmt
}

func openOracles(q *Query, f *lang.File) (*oracles, error) {
	db, err := oracle.Open(f) // also registers the "sqlite" driver
	if err != nil {
		return nil, err
	}
	raw, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		db.Close()
		return nil, err
	}
	raw.SetMaxOpenConns(1)
	raw.SetMaxIdleConns(1)
	raw.SetConnMaxLifetime(0)
	o := &oracles{q: q, f: f, db: db, raw: raw, ins: map[string]*sql.Stmt{}, del: map[string]*sql.Stmt{}}
	for _, r := range q.Rels {
		c := schema[r]
		stmts := []string{
			fmt.Sprintf("CREATE TABLE %s (%s INTEGER, %s INTEGER)", r, c[0], c[1]),
			fmt.Sprintf("CREATE INDEX %s_0 ON %s (%s, %s)", r, r, c[0], c[1]),
			fmt.Sprintf("CREATE INDEX %s_1 ON %s (%s, %s)", r, r, c[1], c[0]),
		}
		for _, s := range stmts {
			if _, err := raw.Exec(s); err != nil {
				o.close()
				return nil, err
			}
		}
		if o.ins[r], err = raw.Prepare(fmt.Sprintf("INSERT INTO %s VALUES (?, ?)", r)); err != nil {
			o.close()
			return nil, err
		}
		if o.del[r], err = raw.Prepare(fmt.Sprintf("DELETE FROM %s WHERE rowid IN (SELECT rowid FROM %s WHERE %s = ? AND %s = ? LIMIT 1)", r, r, c[0], c[1])); err != nil {
			o.close()
			return nil, err
		}
	}
	return o, nil
}

func (o *oracles) close() {
	o.db.Close()
	o.raw.Close()
}

func (o *oracles) apply(ev oracle.Event) error {
	var err error
	if ev.Insert {
		err = o.db.Insert(ev.Rel, ev.Tuple)
		if err == nil {
			_, err = o.ins[ev.Rel].Exec(ev.Tuple...)
		}
	} else {
		err = o.db.Delete(ev.Rel, ev.Tuple)
		if err == nil {
			_, err = o.del[ev.Rel].Exec(ev.Tuple...)
		}
	}
	return err
}

// views returns both references of the query's view.
func (o *oracles) views() (want, raw runtime.View, err error) {
	q := o.f.Queries[0]
	if want, err = o.db.View(q); err != nil {
		return want, raw, err
	}
	raw = runtime.View{Name: want.Name, Keys: want.Keys, Values: want.Values}
	cols := append(slices.Clone(want.Keys), want.Values...)
	rows, err := o.raw.Query(o.q.SQLite)
	if err != nil {
		return want, raw, fmt.Errorf("raw SQLite: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		cells := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return want, raw, fmt.Errorf("raw SQLite (%d columns expected): %w", len(cols), err)
		}
		row := make([]any, len(cols))
		for i, x := range cells {
			v, err := rawValue(x, cols[i].Type)
			if err != nil {
				return want, raw, fmt.Errorf("raw SQLite column %d: %w", i, err)
			}
			row[i] = v
		}
		raw.Rows = append(raw.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return want, raw, err
	}
	runtime.SortRows(raw.Rows, len(want.Keys))
	return want, raw, nil
}

func rawValue(x any, t runtime.ColumnType) (any, error) {
	switch t {
	case runtime.Int:
		switch x := x.(type) {
		case nil:
			return int64(0), nil
		case int64:
			return x, nil
		case float64:
			if x == math.Trunc(x) {
				return int64(x), nil
			}
		}
	case runtime.Float:
		switch x := x.(type) {
		case nil:
			return 0.0, nil
		case int64:
			return float64(x), nil
		case float64:
			return x, nil
		}
	}
	return nil, fmt.Errorf("%T %v for a %s column", x, x, t)
}

// runInterp runs q on the interpreter at unbounded depth and depth 1 against
// both references after every event.
func runInterp(q *Query, events int) (res result) {
	f, progs, r := compile(q, []int{viewlet.Unbounded, 1})
	if r != nil {
		return *r
	}
	return runEvents(q, f, progs, stream(q, f, events).Events, queryBudget)
}

// runEvents replays evs into the interpreters of progs; a panic is a failure.
func runEvents(q *Query, f *lang.File, progs []compiled, evs []oracle.Event, budget time.Duration) (res result) {
	res = result{seed: q.Seed, event: -1}
	o, err := openOracles(q, f)
	if err != nil {
		return result{seed: q.Seed, class: failed, symptom: "harness: " + normalize(err.Error()), detail: err.Error(), event: -1}
	}
	defer o.close()
	var ins []*viewlet.Interp
	depth, at := 0, -1
	defer func() {
		if x := recover(); x != nil {
			msg := fmt.Sprint(x)
			res = result{seed: q.Seed, class: failed, symptom: "interp panic: " + normalize(msg),
				detail: fmt.Sprintf("panic at depth %d, event %d: %s\n%s", depth, at, msg, frames()), event: at, depth: depth}
		}
	}()
	for _, c := range progs {
		depth = c.depth
		ins = append(ins, viewlet.NewInterp(c.p))
	}
	start := time.Now()
	for i, ev := range evs {
		at = i
		if budget > 0 && time.Since(start) > budget {
			res.slow = true
			return res
		}
		if err := o.apply(ev); err != nil {
			return result{seed: q.Seed, class: failed, symptom: "harness: " + normalize(err.Error()), detail: err.Error(), event: i}
		}
		want, raw, err := o.views()
		if err != nil {
			return result{seed: q.Seed, class: failed, symptom: "harness: " + normalize(err.Error()), detail: err.Error(), event: i}
		}
		for k, in := range ins {
			depth = progs[k].depth
			in.Fire(ev.Rel, ev.Insert, ev.Tuple)
			got := in.Views()
			if sym, det := checkq(f, want, raw, got[0]); sym != "" {
				return result{seed: q.Seed, class: failed, symptom: sym, event: i, depth: depth,
					detail: fmt.Sprintf("depth %d, after event %d %v:\n%s", depth, i, ev, det)}
			}
		}
	}
	return res
}

// checkq is check with lang.SQLite's text in the front-end case.
func checkq(f *lang.File, want, raw, got runtime.View) (string, string) {
	e1 := oracle.Compare(want, got, tol)
	e2 := oracle.Compare(raw, got, tol)
	switch {
	case e1 == nil && e2 == nil:
		return "", ""
	case e1 != nil && e2 != nil:
		return "wrong view", e1.Error()
	case e1 != nil:
		return "wrong view per lang.SQLite only (the engine agrees with the generator's SQL)", e1.Error()
	}
	return "wrong view per the generator's SQL only (lang.SQLite agrees with the engine)", e2.Error() +
		"\n  lang.SQLite: " + lang.SQLite(f.Queries[0])
}

// tally counts results and prints failures.
type tally struct {
	engine string
	n      [3]int
	slow   int
	by     map[string][]int64 // symptom → seeds (rejections and failures)
}

func newTally(engine string) *tally { return &tally{engine: engine, by: map[string][]int64{}} }

func (t *tally) add(tb testing.TB, q *Query, r result) {
	t.n[r.class]++
	if r.slow {
		t.slow++
	}
	if r.class == passed {
		return
	}
	key := r.class.String() + ": " + r.symptom
	t.by[key] = append(t.by[key], r.seed)
	if r.class == failed {
		detail := r.detail
		if len(detail) > 1500 {
			detail = detail[:1500] + "…"
		}
		tb.Errorf("%s: seed %d FAILED: %s\n%s\n-- query (TOASTGEN_RANDQ_SEED=%d TOASTGEN_RANDQ=1; features %v) --\n%s", t.engine, r.seed, r.symptom, detail, r.seed, q.Used, q.Text)
	}
}

func (t *tally) report(tb testing.TB) {
	var keys []string
	for k := range t.by {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return len(t.by[b]) - len(t.by[a]) })
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d queries: %d passed, %d rejected, %d failed (%d stopped at the time budget)\n",
		t.engine, t.n[0]+t.n[1]+t.n[2], t.n[0], t.n[1], t.n[2], t.slow)
	for _, k := range keys {
		s := t.by[k]
		fmt.Fprintf(&b, "  %4d  %s   seeds %v\n", len(s), k, s[:min(len(s), 8)])
	}
	tb.Log(b.String())
	if os.Getenv("TOASTGEN_RANDQ_REPORT") != "" {
		f, err := os.OpenFile(os.Getenv("TOASTGEN_RANDQ_REPORT"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			f.WriteString(b.String())
			f.Close()
		}
	}
}

// seeds returns the seeds to run: TOASTGEN_RANDQ_SEED (default 1) and on.
func seeds(n int) []int64 {
	first := int64(env("TOASTGEN_RANDQ_SEED", 1))
	var out []int64
	for i := range n {
		out = append(out, first+int64(i))
	}
	return out
}

// TestRandomInterp runs TOASTGEN_RANDQ random queries (default 40, 12 with
// -short) on the interpreter at unbounded depth and depth 1, comparing the
// view after every event with SQLite (both translations).
func TestRandomInterp(t *testing.T) {
	n := env("TOASTGEN_RANDQ", 40)
	if testing.Short() {
		n = min(n, 12)
	}
	c := config()
	tl := newTally("interp")
	for _, s := range seeds(n) {
		q := New(s, c)
		tl.add(t, q, runInterp(q, streamEvents))
	}
	tl.report(t)
}

// frames is the panicking goroutine's innermost toastgen frames.
func frames() string {
	var out []string
	lines := strings.Split(string(debug.Stack()), "\n")
	for i := 0; i+1 < len(lines) && len(out) < 8; i++ {
		l := lines[i]
		if strings.HasPrefix(l, "github.com/toastgen/toastgen/") && !strings.Contains(l, "internal/randquery") {
			out = append(out, "  "+l, "  "+strings.TrimSpace(lines[i+1]))
		}
	}
	return strings.Join(out, "\n")
}
