package oracle

import (
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang"
)

func parseIn(t *testing.T, d lang.Dialect, src string) *lang.File {
	t.Helper()
	f, err := lang.Config{Dialect: d}.Parse("test.sql", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// streamHash is the SHA-256 of a stream's events, one Event.String a line.
func streamHash(s Stream) string {
	var b strings.Builder
	for _, e := range s.Events {
		b.WriteString(e.String())
		b.WriteString("\n")
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(b.String())))
}

const (
	dbtSchema     = "CREATE STREAM R (A INT, X FLOAT, S STRING, D DATE);\nCREATE TABLE T (K INT, V STRING);\nCREATE STREAM U (B INT);\nSELECT COUNT(*) FROM R;"
	notNullSchema = "CREATE STREAM R (A INT NOT NULL, X FLOAT NOT NULL, S STRING NOT NULL, D DATE NOT NULL);\nCREATE STREAM U (B INT NOT NULL);\nSELECT COUNT(*) FROM R;"
	nullSchema    = "CREATE STREAM R (A INT, X FLOAT, S STRING, D DATE);\nCREATE STREAM U (B INT);\nSELECT COUNT(*) FROM R;"
	mixedSchema   = "CREATE STREAM R (A INT, B INT NOT NULL, S STRING, X FLOAT NOT NULL);\nCREATE TABLE T (K INT, V STRING NOT NULL);\nSELECT COUNT(*) FROM R;"
)

// TestGenerateStable pins the streams of files without nullable columns to
// the ones generated before NULLs existed (the hashes were computed with
// that code), so that adding NULLs changes no existing suite; a nullable
// file with NULLs turned off gets the stream of its NOT NULL twin.
func TestGenerateStable(t *testing.T) {
	const (
		dbtHash     = "c7265dd8d7770f8207704c5592eb7f479f218f5eb1dd415be1ff77a922011f0d"
		notNullHash = "8683a0fa5a73aa07d981aed6997ad0864e3a63c5a73cca0e5ed84481acd63f5a"
	)
	tests := []struct {
		name    string
		dialect lang.Dialect
		src     string
		dom     Domain
		want    string
	}{
		{"dbtoaster", lang.DBToaster, dbtSchema, Domain{Ints: 4}, dbtHash},
		{"dbtoaster, NullFrac set", lang.DBToaster, dbtSchema, Domain{Ints: 4, NullFrac: 0.5}, dbtHash},
		{"sql NOT NULL", lang.SQL, notNullSchema, Domain{Ints: 4}, notNullHash},
		{"sql nullable, no NULLs", lang.SQL, nullSchema, Domain{Ints: 4, NullFrac: -1}, notNullHash},
	}
	for _, tt := range tests {
		f := parseIn(t, tt.dialect, tt.src)
		if got := streamHash(Generate(f, 11, 2000, 0.3, tt.dom)); got != tt.want {
			t.Errorf("%s: stream hash %s, want %s", tt.name, got, tt.want)
		}
	}
	// With NULLs the nullable file's stream must differ (the test above
	// would otherwise not tell the NULL draws apart from none).
	f := parseIn(t, lang.SQL, nullSchema)
	if streamHash(Generate(f, 11, 2000, 0.3, Domain{Ints: 4})) == notNullHash {
		t.Error("nullable columns with default NullFrac: stream has no NULLs")
	}
}

// TestGenerateNulls checks the fraction of NULLs per column: about NullFrac
// in nullable columns, none in NOT NULL ones, none in dialect dbtoaster,
// none with a negative NullFrac, and the per-column overrides.
func TestGenerateNulls(t *testing.T) {
	tests := []struct {
		name    string
		dialect lang.Dialect
		src     string
		dom     Domain
		want    map[string]float64 // "REL.COL" → expected NULL fraction
	}{
		{"default", lang.SQL, mixedSchema, Domain{},
			map[string]float64{"R.A": 0.2, "R.B": 0, "R.S": 0.2, "R.X": 0, "T.K": 0.2, "T.V": 0}},
		{"half", lang.SQL, mixedSchema, Domain{NullFrac: 0.5},
			map[string]float64{"R.A": 0.5, "R.B": 0, "R.S": 0.5, "R.X": 0, "T.K": 0.5, "T.V": 0}},
		{"none", lang.SQL, mixedSchema, Domain{NullFrac: -1},
			map[string]float64{"R.A": 0, "R.B": 0, "R.S": 0, "R.X": 0, "T.K": 0, "T.V": 0}},
		{"column override", lang.SQL, mixedSchema,
			Domain{NullFrac: 0.1, Columns: map[string]Domain{"R.A": {NullFrac: 0.9}, "S": {NullFrac: -1}}},
			map[string]float64{"R.A": 0.9, "R.B": 0, "R.S": 0, "R.X": 0, "T.K": 0.1, "T.V": 0}},
		{"all NULL", lang.SQL, mixedSchema, Domain{NullFrac: 1},
			map[string]float64{"R.A": 1, "R.B": 0, "R.S": 1, "R.X": 0, "T.K": 1, "T.V": 0}},
		{"dbtoaster", lang.DBToaster, mixedSchema, Domain{NullFrac: 0.5},
			map[string]float64{"R.A": 0, "R.B": 0, "R.S": 0, "R.X": 0, "T.K": 0, "T.V": 0}},
	}
	for _, tt := range tests {
		f := parseIn(t, tt.dialect, tt.src)
		s := Generate(f, 3, 4000, 0.2, tt.dom)
		nulls, total := map[string]int{}, map[string]int{}
		for _, e := range s.Events {
			if !e.Insert {
				continue
			}
			for i, v := range e.Tuple {
				k := e.Rel + "." + relation(f, e.Rel).Columns[i].Name
				total[k]++
				if v == nil {
					nulls[k]++
				}
			}
		}
		for k, want := range tt.want {
			if total[k] == 0 {
				t.Fatalf("%s: no values of %s", tt.name, k)
			}
			got := float64(nulls[k]) / float64(total[k])
			if math.Abs(got-want) > 0.05 || (want == 0) != (nulls[k] == 0) {
				t.Errorf("%s: %s is NULL in %d of %d tuples (%.3f), want about %.2f", tt.name, k, nulls[k], total[k], got, want)
			}
		}
	}
}

func relation(f *lang.File, name string) *lang.Relation {
	for _, r := range f.Relations {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// TestNullStream replays a stream with NULLs into the oracle: every delete
// finds its tuple (NULL fields included) and the table holds the live
// multiset at the end; views report NULL as nil.
func TestNullStream(t *testing.T) {
	f := parseIn(t, lang.SQL, mixedSchema+`
SELECT r.A, COUNT(*) FROM R r GROUP BY r.A;
SELECT COUNT(*), COUNT(r.A), COUNT(r.S), SUM(r.A) FROM R r;
`)
	db, err := Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s := Generate(f, 5, 1500, 0.45, Domain{Ints: 3, NullFrac: 0.3})
	n, nullA, nullS, sumA := 0, 0, 0, int64(0)
	for i, e := range s.Events {
		if e.Insert {
			err = db.Insert(e.Rel, e.Tuple)
		} else {
			err = db.Delete(e.Rel, e.Tuple)
		}
		if err != nil {
			t.Fatalf("event %d %v: %v", i, e, err)
		}
		if e.Rel != "R" {
			continue
		}
		d := 1
		if !e.Insert {
			d = -1
		}
		n += d
		if e.Tuple[0] == nil {
			nullA += d
		} else {
			sumA += int64(d) * e.Tuple[0].(int64)
		}
		if e.Tuple[2] == nil {
			nullS += d
		}
	}
	if nullA == 0 || nullS == 0 {
		t.Fatalf("no live NULLs at the end (%d in A, %d in S)", nullA, nullS)
	}
	v, err := db.View(f.Queries[2])
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("[%d, %d, %d, %d]", n, n-nullA, n-nullS, sumA)
	if len(v.Rows) != 1 || FormatRow(v.Rows[0]) != want {
		t.Fatalf("counts %v, want %s", v.Rows, want)
	}
	g, err := db.View(f.Queries[1])
	if err != nil {
		t.Fatal(err)
	}
	var nullGroup []any
	for _, r := range g.Rows {
		if r[0] == nil {
			nullGroup = r
		}
	}
	if nullGroup == nil || nullGroup[1] != int64(nullA) {
		t.Errorf("NULL group of A: %v, want [NULL, %d]", FormatRow(nullGroup), nullA)
	}
	// A tuple with NULLs is deleted once, then is absent.
	tup := []any{nil, int64(7), nil, 1.5}
	if err := db.Insert("R", tup); err != nil {
		t.Fatal(err)
	}
	if err := db.Delete("R", tup); err != nil {
		t.Errorf("delete of a tuple with NULLs: %v", err)
	}
	if err := db.Delete("R", tup); err == nil {
		t.Error("second delete of a tuple with NULLs: no error")
	}
	if err := db.Insert("R", []any{int64(1), nil, "a", 1.0}); err == nil {
		t.Error("NULL in a NOT NULL column: no error")
	}
}

func TestEventString(t *testing.T) {
	tests := []struct {
		e    Event
		want string
	}{
		{Event{Rel: "R", Insert: true, Tuple: []any{nil, int64(2), "x", nil}}, `+R(NULL, 2, "x", NULL)`},
		{Event{Rel: "S", Tuple: []any{1.0, nil}}, `-S(1.0, NULL)`},
		{Event{Rel: "T", Insert: true, Tuple: []any{int64(0)}}, `+T(0)`},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("%#v: %s, want %s", tt.e, got, tt.want)
		}
	}
}

func TestReadCaseNulls(t *testing.T) {
	tests := []struct {
		directive string
		want      float64
		err       bool
	}{
		{"", 0, false},
		{"sql nulls=0.5", 0.5, false},
		{"sql nulls=1", 1, false},
		{"sql nulls=0", -1, false},
		{"nulls=0.05 ints=3", 0.05, false},
		{"nulls=1.5", 0, true},
		{"nulls=-0.1", 0, true},
		{"nulls=x", 0, true},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		path := filepath.Join(dir, fmt.Sprintf("%d.sql", i))
		src := "-- diff: " + tt.directive + "\nCREATE STREAM R(A int);\nSELECT COUNT(*) FROM R;\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadCase(path, 100, 0.3)
		if tt.err {
			if err == nil {
				t.Errorf("%q: no error", tt.directive)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.directive, err)
			continue
		}
		if c.Domain.NullFrac != tt.want {
			t.Errorf("%q: NullFrac %v, want %v", tt.directive, c.Domain.NullFrac, tt.want)
		}
	}
}
