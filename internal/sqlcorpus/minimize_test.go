package sqlcorpus

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
)

// TestMinimize shrinks the stream of a failing seed: with
// TOASTGEN_SQLCORPUS_MIN=S (and TOASTGEN_SQLCORPUS_NOTNULL=1 for the NOT
// NULL variant) it replays seed S's query, drops every event whose removal
// keeps the same class of failure (a delete is only dropped with its
// insert gone too if that still fails), and logs the query file and the
// shortest stream found.
func TestMinimize(t *testing.T) {
	seed, err := strconv.ParseInt(os.Getenv("TOASTGEN_SQLCORPUS_MIN"), 10, 64)
	if err != nil {
		t.Skip("set TOASTGEN_SQLCORPUS_MIN=seed")
	}
	q := Generate(seed)
	if os.Getenv("TOASTGEN_SQLCORPUS_NOTNULL") == "1" {
		q = q.NotNull()
	}
	f, err := lang.Config{Dialect: lang.SQL}.Parse("q.sql", []byte(q.File()))
	if err != nil {
		t.Fatal(err)
	}
	progs, err := compile(f)
	if err != nil {
		t.Fatalf("not accepted: %v\n%s", err, q.File())
	}
	try := func(s oracle.Stream) (class, string) {
		raw, err := openRaw(q)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		var r result
		c, _, detail := replay(q, f, progs, raw, s, &r)
		return c, detail
	}
	s := oracle.Generate(f, seed, streamEvents, deleteFrac, oracle.Domain{Ints: ints, NullFrac: nullFrac})
	c, detail := try(s)
	if c == accepted {
		t.Fatalf("seed %d passes", seed)
	}
	// Cut the stream after the first failing event, then drop events.
	for i := range s.Events {
		if c2, _ := try(oracle.Stream{Events: s.Events[:i+1]}); c2 == c {
			s.Events = s.Events[:i+1]
			break
		}
	}
	for i := len(s.Events) - 1; i >= 0; i-- {
		cand := oracle.Stream{Events: append(append([]oracle.Event{}, s.Events[:i]...), s.Events[i+1:]...)}
		if !valid(cand) {
			continue
		}
		if c2, d := try(cand); c2 == c {
			s, detail = cand, d
		}
	}
	var b strings.Builder
	for _, e := range s.Events {
		b.WriteString(e.String() + "\n")
	}
	if !strings.Contains(detail, "-- stream --") {
		detail += "-- stream --\n" + b.String()
	}
	t.Logf("%v with %d events:\n%s", c, len(s.Events), detail)
}

// valid reports whether every delete of s removes a tuple inserted before.
func valid(s oracle.Stream) bool {
	live := map[string]int{}
	for _, e := range s.Events {
		k := e.String()[1:]
		if e.Insert {
			live[k]++
		} else if live[k]--; live[k] < 0 {
			return false
		}
	}
	return true
}
