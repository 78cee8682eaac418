package sqlcorpus

// The acceptance harness. Environment:
//
//	TOASTGEN_SQLCORPUS=N        queries per variant (default 200; 40 with -short)
//	TOASTGEN_SQLCORPUS_SEED=S   first seed (default 1)
//	TOASTGEN_SQLCORPUS_TRACE=1  print the whole stream up to a failure
//	TOASTGEN_SQLCORPUS_REPORT=f append the summary to file f
//	TOASTGEN_SQLCORPUS_MIN=S    TestMinimize: shrink the stream of seed S
//
// Each seed's query is parsed in dialect sql, translated (calculus.FromSQL)
// and compiled (viewlet.Compile, depths unbounded and 1). A positioned
// error at any stage makes the query "unsupported" (its first line,
// positions dropped, is tallied). Otherwise the query is "accepted" and is
// replayed, in the interpreter at both depths, on a random insert/delete
// stream with NULLs (oracle.Generate), its view compared after every event
// with the view SQLite computes (package oracle): a difference is WRONG.
// Whatever toastgen's front end reads, the same stream also checks the
// oracle's SQL (lang.SQLiteIn) against the query's own text run by SQLite
// as it is (rawDB): a difference is ORACLE. A panic, an internal error
// (calculus.InternalError), an interpreter error or an oracle error are
// failures too, as is a query that SQLite rejects (a generator bug).
// Unsupported queries do not fail the test; every other failure does,
// printing the seed, the query and the first differing event.

import (
	"fmt"
	"os"
	"regexp"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// class is the outcome of one query.
type class int

const (
	accepted    class = iota // compiled, and every view equal to SQLite's
	unsupported              // rejected with a positioned error
	wrong                    // compiled, a view differs from SQLite's
	oracleBad                // the oracle's translation differs from the raw SQL, or errs
	failure                  // a panic, an internal or interpreter error, SQL that SQLite rejects
)

func (c class) String() string {
	return [...]string{"accepted", "unsupported", "WRONG", "ORACLE", "FAILURE"}[c]
}

type result struct {
	q      *Query
	class  class
	reason string // one line: the normalized message
	detail string // the full report of a failure
	dur    time.Duration
	rows   int  // the most rows a view had during the replay
	nulls  bool // a view held a NULL during the replay
}

const (
	streamEvents  = 150 // events per accepted query
	oracleEvents  = 60  // events to check the oracle on for an unsupported query
	nullFrac      = 0.2
	deleteFrac    = 0.3
	ints          = 5
	tol           = 1e-9
	defaultCount  = 200
	shortCount    = 40
	queryDeadline = 10 * time.Second
)

var depths = []int{viewlet.Unbounded, 1}

func env(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

var (
	posRe = regexp.MustCompile(`\S*\.sql:\d+:\d+: `)
	mapRe = regexp.MustCompile(`\(map [^)]*\)+`)
)

// normalize is a message's first line without positions and without the
// sql gate's advice.
func normalize(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	line = posRe.ReplaceAllString(strings.TrimSpace(line), "")
	line, _, _ = strings.Cut(line, "; -dialect dbtoaster has")
	return mapRe.ReplaceAllString(line, "(map …)")
}

// isInternal reports whether err is a recovered panic of the compiler.
func isInternal(err error) bool { return strings.Contains(err.Error(), "internal error in ") }

// run classifies one query. A panic escaping any stage is a failure.
func run(q *Query) (r result) {
	start := time.Now()
	r = result{q: q}
	defer func() {
		if x := recover(); x != nil {
			r.class, r.reason = failure, fmt.Sprintf("panic: %v", x)
			r.detail = fmt.Sprintf("panic: %v\n%s", x, debug.Stack())
		}
		r.dur = time.Since(start)
	}()
	raw, err := openRaw(q)
	if err != nil {
		r.class, r.reason, r.detail = failure, "generator: "+normalize(err.Error()), err.Error()
		return r
	}
	defer raw.Close()
	path := fmt.Sprintf("q%d.sql", q.Seed)
	f, err := lang.Config{Dialect: lang.SQL}.Parse(path, []byte(q.File()))
	if err != nil {
		r.class, r.reason, r.detail = unsupported, "lang: "+normalize(err.Error()), err.Error()
		return r
	}
	stage, err := compile(f)
	var progs []*viewlet.Program
	if err == nil {
		progs = stage
	} else if isInternal(err) {
		r.class, r.reason, r.detail = failure, normalize(err.Error()), err.Error()
		return r
	} else {
		r.class, r.reason, r.detail = unsupported, normalize(err.Error()), err.Error()
	}
	n := streamEvents
	if progs == nil {
		n = oracleEvents
	}
	s := oracle.Generate(f, q.Seed, n, deleteFrac, oracle.Domain{Ints: ints, NullFrac: nullFrac})
	if c, reason, detail := replay(q, f, progs, raw, s, &r); c != accepted {
		r.class, r.reason, r.detail = c, reason, detail
	}
	return r
}

// compile translates f and compiles it at each depth.
func compile(f *lang.File) ([]*viewlet.Program, error) {
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, fmt.Errorf("calculus: %w", err)
	}
	var out []*viewlet.Program
	for _, d := range depths {
		p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: d})
		if err != nil {
			return nil, fmt.Errorf("viewlet depth=%d: %w", d, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// replay drives the oracle, the raw SQLite database and an interpreter per
// program with s, comparing after every event.
// It records in r the largest view and whether a view held a NULL.
func replay(q *Query, f *lang.File, progs []*viewlet.Program, raw *rawDB, s oracle.Stream, r *result) (class, string, string) {
	db, err := oracle.Open(f)
	if err != nil {
		return failure, "oracle: " + normalize(err.Error()), err.Error()
	}
	defer db.Close()
	var ins []*viewlet.Interp
	for _, p := range progs {
		ins = append(ins, viewlet.NewInterp(p))
	}
	lq := f.Queries[0]
	deadline := time.Now().Add(queryDeadline)
	fail := func(c class, i int, reason, msg string) (class, string, string) {
		return c, reason, report(q, s, i, msg)
	}
	for i, ev := range s.Events {
		if time.Now().After(deadline) {
			break // slow: the events so far agreed
		}
		if ev.Insert {
			err = db.Insert(ev.Rel, ev.Tuple)
		} else {
			err = db.Delete(ev.Rel, ev.Tuple)
		}
		if err == nil {
			err = raw.fire(ev.Rel, ev.Insert, ev.Tuple)
		}
		if err != nil {
			return fail(failure, i, "stream: "+normalize(err.Error()), err.Error())
		}
		want, err := db.View(lq)
		if err != nil {
			return fail(oracleBad, i, "oracle view: "+normalize(err.Error()), err.Error())
		}
		wantRows, err := viewRows(lq, want)
		if err != nil {
			return fail(oracleBad, i, "oracle view: "+err.Error(), err.Error())
		}
		r.rows = max(r.rows, len(want.Rows))
		for _, row := range want.Rows {
			r.nulls = r.nulls || slices.Contains(row, nil)
		}
		rawRows, err := raw.rows()
		if err != nil {
			return fail(failure, i, "raw SQLite: "+normalize(err.Error()), err.Error())
		}
		if d := diffRows(rawRows, wantRows); d != "" {
			return fail(oracleBad, i, "lang.SQLiteIn differs from the query text",
				"the oracle (lang.SQLiteIn: "+lang.SQLiteIn(lang.SQL, lq)+") differs from the query run as written (want):\n"+d)
		}
		for j, in := range ins {
			if err := in.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil {
				return fail(failure, i, "interp: "+normalize(err.Error()), fmt.Sprintf("depth=%d: %v", depths[j], err))
			}
			got := in.Views()
			if err := in.Err(); err != nil {
				return fail(failure, i, "interp: "+normalize(err.Error()), fmt.Sprintf("depth=%d: %v", depths[j], err))
			}
			if err := oracle.Compare(want, got[0], tol); err != nil {
				return fail(wrong, i, fmt.Sprintf("wrong view at depth=%d", depths[j]), fmt.Sprintf("depth=%d: %v", depths[j], err))
			}
		}
	}
	return accepted, "", ""
}

// report describes a failure at event i of s: the seed, the query file,
// the event and (with TOASTGEN_SQLCORPUS_TRACE=1, or when short) the
// stream up to it.
func report(q *Query, s oracle.Stream, i int, msg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d, after event %d %v:\n%s\n-- query file --\n%s", q.Seed, i, s.Events[i], msg, q.File())
	if os.Getenv("TOASTGEN_SQLCORPUS_TRACE") == "1" || i < 25 {
		b.WriteString("-- stream --\n")
		for _, e := range s.Events[:i+1] {
			b.WriteString(e.String() + "\n")
		}
	} else {
		fmt.Fprintf(&b, "(TOASTGEN_SQLCORPUS_SEED=%d TOASTGEN_SQLCORPUS=1 TOASTGEN_SQLCORPUS_TRACE=1 prints the %d events)\n", q.Seed, i+1)
	}
	return b.String()
}

// sweep runs the queries of seeds [first, first+n) on GOMAXPROCS workers,
// with every column NOT NULL when notNull is set.
func sweep(first int64, n int, notNull bool) []result {
	out := make([]result, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range goruntime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				q := Generate(first + int64(i))
				if notNull {
					q = q.NotNull()
				}
				out[i] = run(q)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// summary tallies results: the counts, the acceptance percentage, the top
// unsupported reasons.
func summary(rs []result, elapsed time.Duration) string {
	count := map[class]int{}
	reasons := map[string]int{}
	nonEmpty, withNulls := 0, 0
	compound := map[class]int{} // queries with UNION, INTERSECT or EXCEPT
	window := map[class]int{}   // queries with window functions
	limit := map[class]int{}    // queries with ORDER BY … LIMIT
	for _, r := range rs {
		count[r.class]++
		if slices.Contains(r.q.Features, "compound") {
			compound[r.class]++
		}
		if slices.ContainsFunc(r.q.Features, func(f string) bool { return strings.HasPrefix(f, "window") || f == "rank" }) {
			window[r.class]++
		}
		if slices.Contains(r.q.Features, "limit") {
			limit[r.class]++
		}
		if r.class == accepted && r.rows > 0 {
			nonEmpty++
		}
		if r.class == accepted && r.nulls {
			withNulls++
		}
		if r.class == unsupported {
			reasons[r.reason]++
		}
	}
	var b strings.Builder
	pct := 100 * float64(count[accepted]) / float64(max(1, len(rs)))
	fmt.Fprintf(&b, "sqlcorpus: %d queries in %v: %d accepted (%.1f%%), %d unsupported, %d WRONG, %d ORACLE, %d FAILURE\n",
		len(rs), elapsed.Round(time.Millisecond), count[accepted], pct, count[unsupported], count[wrong], count[oracleBad], count[failure])
	fmt.Fprintf(&b, "accepted queries whose view had rows: %d, NULLs: %d\n", nonEmpty, withNulls)
	for _, c := range []struct {
		what string
		n    map[class]int
	}{{"compound queries (UNION, INTERSECT, EXCEPT)", compound}, {"window queries", window}, {"ORDER BY … LIMIT queries", limit}} {
		nc := c.n[accepted] + c.n[unsupported] + c.n[wrong] + c.n[oracleBad] + c.n[failure]
		fmt.Fprintf(&b, "%s: %d, %d accepted (%.1f%%), %d WRONG\n",
			c.what, nc, c.n[accepted], 100*float64(c.n[accepted])/float64(max(1, nc)), c.n[wrong])
	}
	type kv struct {
		k string
		n int
	}
	var top []kv
	for k, n := range reasons {
		top = append(top, kv{k, n})
	}
	slices.SortFunc(top, func(a, b kv) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.k, b.k)
	})
	b.WriteString("unsupported, top reasons:\n")
	for _, x := range top[:min(15, len(top))] {
		fmt.Fprintf(&b, "  %4d  %s\n", x.n, x.k)
	}
	return b.String()
}

// TestCorpus runs the corpus twice: as generated (nullable columns, NULLs
// in the streams), and with every column NOT NULL (what the compiler
// translates in dialect sql before NULL support lands), each with its
// summary.
func TestCorpus(t *testing.T) {
	n := defaultCount
	if testing.Short() {
		n = shortCount
	}
	n = env("TOASTGEN_SQLCORPUS", n)
	first := int64(env("TOASTGEN_SQLCORPUS_SEED", 1))
	for _, notNull := range []bool{false, true} {
		name := map[bool]string{false: "nullable", true: "notnull"}[notNull]
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			rs := sweep(first, n, notNull)
			sum := summary(rs, time.Since(start))
			var slow []string
			for _, r := range rs {
				if r.dur > 3*time.Second {
					slow = append(slow, fmt.Sprintf("seed %d (%v)", r.q.Seed, r.dur.Round(time.Millisecond)))
				}
				if r.class == accepted || r.class == unsupported {
					continue
				}
				d := r.detail
				if !strings.Contains(d, "-- query file --") {
					d = fmt.Sprintf("seed %d:\n%s\n-- query file --\n%s", r.q.Seed, d, r.q.File())
				}
				t.Errorf("%s (%s): %s\n%s", r.class, name, r.reason, d)
			}
			if len(slow) > 0 {
				t.Logf("slow queries: %s", strings.Join(slow, ", "))
			}
			t.Log("\n" + name + " " + sum)
			if path := os.Getenv("TOASTGEN_SQLCORPUS_REPORT"); path != "" {
				w, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(w, "%s, seeds %d..%d\n%s", name, first, first+int64(n)-1, sum)
				w.Close()
			}
		})
	}
}
