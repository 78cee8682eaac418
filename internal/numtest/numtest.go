// Package numtest holds the tests of the number rules that both engines
// run, the interpreter in package viewlet and the generated code in
// package codegen, and whose outputs must be identical:
//
//   - Overflow: an INT SUM, COUNT or product that leaves int64 rejects its
//     event whole (a *runtime.EventError), the views stay what they were,
//     and later events run as usual.
//   - Float: a float SUM comes back exactly under the delete of values
//     inserted before (0.1 + 1e16 − 1e16 reads 0.1, and deleting every
//     value returns the sums to exactly 0).
//
// Each case is a query file and a list of events; Replay applies them to
// an engine through Apply and returns one line per event: the views as
// runtime.WriteJSON writes them, or "error: " and the event's error. The
// Check functions check those lines against a model of the case.
package numtest

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/runtime"
)

// Event is one insert or delete, its fields as the CSV reader would give them.
type Event struct {
	Rel    string
	Insert bool
	Fields []string
}

// String is the event in the rel|op|field… form of an events file.
func (e Event) String() string {
	op := "0"
	if e.Insert {
		op = "1"
	}
	return e.Rel + "|" + op + "|" + strings.Join(e.Fields, "|")
}

// Case is a query file and its events.
type Case struct {
	Name   string // a package name
	Query  string
	Events []Event
	// Check checks the lines Replay returned for the events.
	Check func(lines []string) error
}

// Cases are the cases both engines run.
func Cases() []Case {
	return []Case{overflowCase(), nestedCase(), floatCase(), varianceCase()}
}

// Replay applies c's events to e, in order, and returns one line per
// event: the views as JSON (without the newline), or "error: " and the
// error of Apply.
func Replay(e runtime.Engine, events []Event) []string {
	index := map[string]int{}
	for i, r := range e.Relations() {
		index[r.Name] = i
	}
	var lines []string
	for _, ev := range events {
		fields := make([][]byte, len(ev.Fields))
		for i, f := range ev.Fields {
			fields[i] = []byte(f)
		}
		if err := e.Apply(index[ev.Rel], ev.Insert, fields); err != nil {
			lines = append(lines, "error: "+err.Error())
			continue
		}
		lines = append(lines, viewsJSON(e.Views()))
	}
	return lines
}

func viewsJSON(vs []runtime.View) string {
	var b bytes.Buffer
	if err := runtime.WriteJSON(&b, vs); err != nil {
		return "error: " + err.Error()
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// EventsFile encodes events as rel|op|field… lines.
func EventsFile(events []Event) []byte {
	var b bytes.Buffer
	for _, e := range events {
		b.WriteString(e.String() + "\n")
	}
	return b.Bytes()
}

// selectList gives a model view the SELECT list its query names (keys
// first, then values, as the queries here select them), as SQLite names it.
func selectList(v runtime.View, names ...string) runtime.View {
	for i, n := range names {
		if i < len(v.Keys) {
			v.Columns = append(v.Columns, runtime.OutputColumn{Name: n, Key: true, Index: i})
		} else {
			v.Columns = append(v.Columns, runtime.OutputColumn{Name: n, Index: i - len(v.Keys)})
		}
	}
	return v
}

// compare checks lines against the wanted ones.
func compare(events []Event, got, want []string) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d lines for %d events", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("after event %d (%s):\ngot  %s\nwant %s", i+1, events[i], got[i], want[i])
		}
	}
	return nil
}

// The overflow case. H is half of MaxInt64: two of them sum to
// MaxInt64 − 1.
const H = math.MaxInt64 / 2

const overflowQuery = `CREATE STREAM R(A int, B int);
CREATE STREAM S(C int, D int);
SELECT B, SUM(A) AS s, COUNT(*) AS n, MIN(A) AS lo, MAX(A) AS hi FROM R GROUP BY B;
SELECT COUNT(DISTINCT A) AS d FROM R;
SELECT SUM(C * D) AS p FROM S;
`

func overflowCase() Case {
	r := func(insert bool, a, b int64) Event {
		return Event{"R", insert, []string{strconv.FormatInt(a, 10), strconv.FormatInt(b, 10)}}
	}
	s := func(insert bool, c, d int64) Event {
		return Event{"S", insert, []string{strconv.FormatInt(c, 10), strconv.FormatInt(d, 10)}}
	}
	events := []Event{
		r(true, H, 1),
		r(true, H, 1),   // SUM = MaxInt64 − 1
		r(true, H+2, 1), // rejected: the SUM overflows (and MAX, COUNT(DISTINCT) would change)
		r(true, 5, 2),   // a new group
		r(true, -H, 3),  //
		r(true, -H, 3),  // SUM = MinInt64 + 2
		r(true, -H, 3),  // rejected: the SUM underflows
		r(false, H, 1),  // SUM = H
		r(true, H+1, 1), // SUM = MaxInt64
		r(true, 1, 1),   // rejected: MaxInt64 + 1
		r(false, H, 3),  // rejected: the delete of an absent tuple underflows the SUM
		r(false, -H, 3),
		s(true, 1<<32, 1<<31-1), // SUM(C * D) = 2^63 − 2^32
		s(true, 1<<40, 1<<30),   // rejected: the product overflows
		s(true, 1<<32, 1),       // rejected: the SUM reaches 2^63
		s(true, -1<<32, 1),
		s(false, 1<<32, 1<<31-1),
	}
	c := Case{Name: "numoverflow", Query: overflowQuery, Events: events}
	c.Check = func(lines []string) error { return compare(events, lines, overflowModel(events)) }
	return c
}

// overflowModel computes the lines of the overflow case exactly (big
// integers): an event is rejected when a group's SUM, a product C * D or
// SUM(C * D) leaves int64, or when it deletes a value −2^63 (whose
// negation is not an int64; the events do not hold one, since at depth 0,
// which sums the base tuples again, the delete goes through).
func overflowModel(events []Event) []string {
	live := map[string]map[pair]int64{"R": {}, "S": {}}
	fits := func(x *big.Int) bool { return x.IsInt64() }
	var lines []string
	for _, ev := range events {
		x, _ := strconv.ParseInt(ev.Fields[0], 10, 64)
		y, _ := strconv.ParseInt(ev.Fields[1], 10, 64)
		d := int64(1)
		if !ev.Insert {
			d = -1
		}
		next := maps.Clone(live[ev.Rel])
		next[pair{x, y}] += d
		if next[pair{x, y}] == 0 {
			delete(next, pair{x, y})
		}
		var ok bool
		if ev.Rel == "R" {
			ok = ev.Insert || x != math.MinInt64
			sum := new(big.Int)
			for t, n := range next {
				if t.y == y {
					sum.Add(sum, new(big.Int).Mul(big.NewInt(t.x), big.NewInt(n)))
				}
			}
			ok = ok && fits(sum)
		} else {
			p := new(big.Int).Mul(big.NewInt(x), big.NewInt(y))
			total := new(big.Int)
			for t, n := range next {
				total.Add(total, new(big.Int).Mul(new(big.Int).Mul(big.NewInt(t.x), big.NewInt(t.y)), big.NewInt(n)))
			}
			ok = fits(p) && fits(total) && (ev.Insert || p.Int64() != math.MinInt64)
		}
		if !ok {
			var vals []any
			for _, f := range ev.Fields {
				v, _ := strconv.ParseInt(f, 10, 64)
				vals = append(vals, v)
			}
			lines = append(lines, "error: "+runtime.OverflowError(ev.Rel, ev.Insert, vals...).Error())
			continue
		}
		live[ev.Rel] = next
		lines = append(lines, viewsJSON(overflowViews(live["R"], live["S"])))
	}
	return lines
}

// pair is a tuple of R (A, B) or S (C, D).
type pair struct{ x, y int64 }

func overflowViews(rs, ss map[pair]int64) []runtime.View {
	type group struct{ sum, n, lo, hi int64 }
	groups := map[int64]*group{}
	distinct := map[int64]int64{}
	for t, n := range rs {
		g := groups[t.y]
		if g == nil {
			g = &group{lo: t.x, hi: t.x}
			groups[t.y] = g
		}
		g.sum += t.x * n
		g.n += n
		g.lo, g.hi = min(g.lo, t.x), max(g.hi, t.x)
		distinct[t.x] += n
	}
	cols := func(names ...string) []runtime.Column {
		var cs []runtime.Column
		for _, n := range names {
			cs = append(cs, runtime.Column{Name: n, Type: runtime.Int})
		}
		return cs
	}
	q1 := runtime.View{Name: "QUERY1", Keys: cols("B"), Values: cols("S", "N", "LO", "HI")}
	for _, b := range slices.Sorted(maps.Keys(groups)) {
		g := groups[b]
		if g.n != 0 {
			q1.Rows = append(q1.Rows, []any{b, g.sum, g.n, g.lo, g.hi})
		}
	}
	d := int64(0)
	for _, n := range distinct {
		if n != 0 {
			d++
		}
	}
	p := int64(0)
	for t, n := range ss {
		p += t.x * t.y * n
	}
	return []runtime.View{selectList(q1, "B", "s", "n", "lo", "hi"),
		selectList(runtime.View{Name: "QUERY2", Values: cols("D"), Rows: [][]any{{d}}}, "d"),
		selectList(runtime.View{Name: "QUERY3", Values: cols("P"), Rows: [][]any{{p}}}, "p")}
}

// The nested case: an INT SUM under a comparison with a nested INT SUM,
// whose events on S replace the view's sum (:= statements): an overflow of
// the nested sum, or of the view's, rejects the event.
const nestedQuery = `CREATE STREAM R(A int, B int);
CREATE STREAM S(C int);
SELECT SUM(r.A) AS t FROM R r WHERE r.B < (SELECT SUM(s.C) FROM S s);
`

func nestedCase() Case {
	r := func(insert bool, a, b int64) Event {
		return Event{"R", insert, []string{strconv.FormatInt(a, 10), strconv.FormatInt(b, 10)}}
	}
	s := func(insert bool, c int64) Event {
		return Event{"S", insert, []string{strconv.FormatInt(c, 10)}}
	}
	events := []Event{
		r(true, 5, 1),
		r(true, H, 10),
		s(true, H), // t = H + 5
		s(true, H),
		s(true, H),       // rejected: the nested SUM overflows
		r(true, H, 2),    // rejected: t would be 2H + 5
		r(true, H-10, 3), // t = 2H − 5
		s(false, H),
		s(false, H), // t = 0
		s(true, 4),  // t = H − 5
		r(false, 5, 1),
	}
	c := Case{Name: "numnested", Query: nestedQuery, Events: events}
	c.Check = func(lines []string) error { return compare(events, lines, nestedModel(events)) }
	return c
}

// nestedModel computes the lines of the nested case exactly: an event is
// rejected when SUM(C), the view's sum or a sum of A per B leaves int64.
func nestedModel(events []Event) []string {
	rs := map[pair]int64{}
	cs := map[int64]int64{}
	var lines []string
	for _, ev := range events {
		vals := make([]int64, len(ev.Fields))
		for i, f := range ev.Fields {
			vals[i], _ = strconv.ParseInt(f, 10, 64)
		}
		d := int64(1)
		if !ev.Insert {
			d = -1
		}
		nr, nc := maps.Clone(rs), maps.Clone(cs)
		if ev.Rel == "R" {
			nr[pair{vals[0], vals[1]}] += d
		} else {
			nc[vals[0]] += d
		}
		sumC := new(big.Int)
		for c, n := range nc {
			sumC.Add(sumC, new(big.Int).Mul(big.NewInt(c), big.NewInt(n)))
		}
		t := new(big.Int)
		perB := map[int64]*big.Int{}
		for p, n := range nr {
			a := new(big.Int).Mul(big.NewInt(p.x), big.NewInt(n))
			if perB[p.y] == nil {
				perB[p.y] = new(big.Int)
			}
			perB[p.y].Add(perB[p.y], a)
			if big.NewInt(p.y).Cmp(sumC) < 0 {
				t.Add(t, a)
			}
		}
		ok := sumC.IsInt64() && t.IsInt64()
		for _, s := range perB {
			ok = ok && s.IsInt64()
		}
		if !ok {
			args := make([]any, len(vals))
			for i, v := range vals {
				args[i] = v
			}
			lines = append(lines, "error: "+runtime.OverflowError(ev.Rel, ev.Insert, args...).Error())
			continue
		}
		rs, cs = nr, nc
		v := selectList(runtime.View{Name: "QUERY1", Values: []runtime.Column{{Name: "T", Type: runtime.Int}}, Rows: [][]any{{t.Int64()}}}, "t")
		lines = append(lines, viewsJSON([]runtime.View{v}))
	}
	return lines
}

// The float case: sums of prices (two decimals, times a discount) under
// inserts and deletes in random order, which plain float addition does not
// bring back to 0.
const floatQuery = `CREATE STREAM F(X float, G int);
SELECT G, SUM(X) AS s FROM F GROUP BY G;
SELECT SUM(X) AS t, SUM(X * X) AS q FROM F;
`

func floatCase() Case {
	f := func(insert bool, x float64, g int) Event {
		return Event{"F", insert, []string{strconv.FormatFloat(x, 'g', -1, 64), strconv.Itoa(g)}}
	}
	events := []Event{f(true, 0.1, 1), f(true, 1e16, 1), f(false, 1e16, 1)}
	rng := rand.New(rand.NewPCG(10, 4))
	type tuple struct {
		x float64
		g int
	}
	var live []tuple
	for range 400 {
		if len(live) > 0 && rng.IntN(10) < 4 {
			i := rng.IntN(len(live))
			events = append(events, f(false, live[i].x, live[i].g))
			live[i] = live[len(live)-1]
			live = live[:len(live)-1]
			continue
		}
		t := tuple{float64(rng.IntN(100000)) / 100 * (1 - float64(rng.IntN(10))/100), 1 + rng.IntN(3)}
		live = append(live, t)
		events = append(events, f(true, t.x, t.g))
	}
	for _, t := range live {
		events = append(events, f(false, t.x, t.g))
	}
	events = append(events, f(false, 0.1, 1))
	c := Case{Name: "numfloat", Query: floatQuery, Events: events}
	c.Check = func(lines []string) error {
		if len(lines) != len(events) {
			return fmt.Errorf("%d lines for %d events", len(lines), len(events))
		}
		want := map[int]string{
			2:               `{"views":[{"name":"QUERY1","keys":["G"],"values":["S"],"columns":[{"name":"G","key":0},{"name":"s","value":0}],"rows":[[1,0.1]]},{"name":"QUERY2","keys":[],"values":["T","Q"],"columns":[{"name":"t","value":0},{"name":"q","value":1}],"rows":[[0.1,0.010000000000000002]]}]}`,
			len(events) - 1: `{"views":[{"name":"QUERY1","keys":["G"],"values":["S"],"columns":[{"name":"G","key":0},{"name":"s","value":0}],"rows":[]},{"name":"QUERY2","keys":[],"values":["T","Q"],"columns":[{"name":"t","value":0},{"name":"q","value":1}],"rows":[[0,0]]}]}`,
		}
		for i, w := range want {
			if lines[i] != w {
				return fmt.Errorf("after event %d (%s):\ngot  %s\nwant %s", i+1, events[i], lines[i], w)
			}
		}
		return nil
	}
	return c
}

// PlainSum is the sum of the float case's X values as plain float
// addition gives it at the end (not 0: what the case guards against).
func PlainSum(events []Event) float64 {
	var s float64
	for _, e := range events {
		x, _ := strconv.ParseFloat(e.Fields[0], 64)
		if !e.Insert {
			x = -x
		}
		s += x
	}
	return s
}
