package oracle

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Event is one insert or delete of a tuple into a stream. Tuple values are
// int64, float64, string or runtime.Date, one per column, or nil (SQL NULL)
// in a nullable column of a file in dialect sql.
type Event struct {
	Rel    string // relation name, upper case
	Insert bool
	Tuple  []any
}

func (e Event) String() string {
	op := "-"
	if e.Insert {
		op = "+"
	}
	var vs []string
	for _, v := range e.Tuple {
		vs = append(vs, FormatValue(v))
	}
	return fmt.Sprintf("%s%s(%s)", op, e.Rel, strings.Join(vs, ", "))
}

// Stream is a sequence of events.
type Stream struct {
	Events []Event
}

// DefaultWords are the strings generated for STRING columns: few enough that
// joins and GROUP BYs on strings hit, varied enough for LIKE patterns
// (prefixes, suffixes, infixes, case, single characters, digits).
var DefaultWords = []string{
	"apple", "banana", "grape", "PROMO BRUSHED", "promo", "STANDARD POLISHED TIN",
	"Customer#001", "Customer#002", "special packages requests", "MEDIUM ANODIZED BRASS",
	"a", "ab", "R", "F", "N",
}

// DefaultDateFrom is the first date generated for DATE columns by default.
var DefaultDateFrom = runtime.MakeDate(1994, 1, 1)

// Domain says where generated column values come from. Zero fields take the
// defaults (or, in an override, the enclosing Domain's values).
type Domain struct {
	// Ints is the size of the integer domain: ints are drawn from [0, Ints)
	// and floats from {k/4 : 0 ≤ k < 4·Ints}. Default 6.
	Ints int
	// Words are the strings drawn for STRING columns. Default DefaultWords.
	Words []string
	// DateFrom and Days give the date range [DateFrom, DateFrom+Days).
	// Default 1994-01-01 and 1096 days (1994–1996).
	DateFrom runtime.Date
	Days     int
	// NullFrac is the probability that a nullable column (dialect sql, not
	// declared NOT NULL) is NULL in a generated tuple. Default
	// DefaultNullFrac; a negative value generates no NULLs. Columns that are
	// not nullable (every column in dialect dbtoaster) are never NULL, and
	// the NULL decision is drawn only for nullable columns, so that a file
	// without them gets the same stream as before NULLs existed.
	NullFrac float64
	// Skew is the probability that an INT column draws 0 instead of a
	// uniform value: 0 then joins far more tuples than the other values
	// (a heavy value). Zero: uniform.
	Skew float64
	// Columns overrides the domain of single columns, keyed by "REL.COL" or
	// by "COL" (upper case; "REL.COL" wins).
	Columns map[string]Domain
}

// DefaultNullFrac is the default fraction of NULLs in nullable columns.
const DefaultNullFrac = 0.2

// column returns the domain of column c of relation r with defaults filled.
func (d Domain) column(r, c string) Domain {
	out := d.withDefaults(Domain{})
	if o, ok := d.Columns[c]; ok {
		out = o.withDefaults(out)
	}
	if o, ok := d.Columns[r+"."+c]; ok {
		out = o.withDefaults(out)
	}
	return out
}

// withDefaults fills the zero fields of d from parent, then from the
// package defaults.
func (d Domain) withDefaults(parent Domain) Domain {
	if d.Ints <= 0 {
		d.Ints = parent.Ints
	}
	if d.Skew == 0 {
		d.Skew = parent.Skew
	}
	if d.Ints <= 0 {
		d.Ints = 6
	}
	if len(d.Words) == 0 {
		d.Words = parent.Words
	}
	if len(d.Words) == 0 {
		d.Words = DefaultWords
	}
	if d.DateFrom == 0 {
		d.DateFrom = parent.DateFrom
	}
	if d.DateFrom == 0 {
		d.DateFrom = DefaultDateFrom
	}
	if d.Days <= 0 {
		d.Days = parent.Days
	}
	if d.Days <= 0 {
		d.Days = 1096
	}
	if d.NullFrac == 0 {
		d.NullFrac = parent.NullFrac
	}
	if d.NullFrac == 0 {
		d.NullFrac = DefaultNullFrac
	}
	d.Columns = nil
	return d
}

// Generate returns a random stream of events, deterministic for a given
// seed: first max(4, n/20) inserts into each table, then n events over
// the streams of f, and in dialect sql over its tables too (a TABLE may
// change at any time there; dialect dbtoaster's are static). Each event
// picks a relation uniformly; with probability deleteFrac it deletes a
// tuple chosen uniformly from that relation's live multiset (an insert if
// it is empty), else it inserts a tuple whose columns are drawn from
// domain. Deletes therefore always remove a present tuple. A nullable
// column (only in dialect sql) is NULL (nil) with probability
// domain.NullFrac.
func Generate(f *lang.File, seed int64, n int, deleteFrac float64, domain Domain) Stream {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x70a57))
	var streams []*lang.Relation
	var live [][][]any // each of streams' live tuples
	var s Stream
	for _, r := range f.Relations {
		if r.Stream {
			streams = append(streams, r)
			live = append(live, nil)
			continue
		}
		// A table is loaded, inserts only, before the streams start.
		var doms []Domain
		for _, c := range r.Columns {
			doms = append(doms, domain.column(r.Name, c.Name))
		}
		var loaded [][]any
		for range max(4, n/20) {
			t := make([]any, len(r.Columns))
			for j, c := range r.Columns {
				t[j] = drawColumn(rng, c, doms[j])
			}
			loaded = append(loaded, t)
			s.Events = append(s.Events, Event{Rel: r.Name, Insert: true, Tuple: t})
		}
		if f.Dialect == lang.SQL {
			streams = append(streams, r)
			live = append(live, loaded)
		}
	}
	if len(streams) == 0 {
		return s
	}
	doms := make([][]Domain, len(streams))
	for i, r := range streams {
		for _, c := range r.Columns {
			doms[i] = append(doms[i], domain.column(r.Name, c.Name))
		}
	}
	for range n {
		i := rng.IntN(len(streams))
		r := streams[i]
		if len(live[i]) > 0 && rng.Float64() < deleteFrac {
			k := rng.IntN(len(live[i]))
			t := live[i][k]
			live[i][k] = live[i][len(live[i])-1]
			live[i] = live[i][:len(live[i])-1]
			s.Events = append(s.Events, Event{Rel: r.Name, Insert: false, Tuple: t})
			continue
		}
		t := make([]any, len(r.Columns))
		for j, c := range r.Columns {
			t[j] = drawColumn(rng, c, doms[i][j])
		}
		live[i] = append(live[i], t)
		s.Events = append(s.Events, Event{Rel: r.Name, Insert: true, Tuple: t})
	}
	return s
}

// drawColumn draws a value of column c: NULL with probability d.NullFrac
// when c is nullable (the decision is drawn only then), else from d.
func drawColumn(rng *rand.Rand, c *lang.Column, d Domain) any {
	if c.Nullable && d.NullFrac > 0 && rng.Float64() < d.NullFrac {
		return nil
	}
	return draw(rng, c.Type, d)
}

func draw(rng *rand.Rand, t lang.Type, d Domain) any {
	switch t {
	case lang.TInt:
		if d.Skew > 0 && rng.Float64() < d.Skew {
			return int64(0)
		}
		return int64(rng.IntN(d.Ints))
	case lang.TFloat:
		return float64(rng.IntN(4*d.Ints)) / 4
	case lang.TString:
		return d.Words[rng.IntN(len(d.Words))]
	case lang.TDate:
		return d.DateFrom.AddDays(int64(rng.IntN(d.Days)))
	}
	panic("oracle.Generate: column of type " + t.String())
}
