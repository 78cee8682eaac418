package runtime

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFiles writes name → content files into a temporary directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func csvRel(name string, stream bool, columns, path string, params map[string]string) Relation {
	if params == nil {
		params = map[string]string{}
	}
	return Relation{Name: name, Stream: stream, Columns: cols(columns),
		Source: &SourceSpec{Path: path, Format: "CSV", Params: params}}
}

func checkEvents(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got  %q\n want %q", got, want)
	}
}

func TestCSVPlain(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.csv": "1,2\n3,4\r\n\n5,6", // CRLF, an empty line, no final newline
		"s.csv": "7;x y\n8;z\n",      // DBToaster's fields := ';'

		"n.csv": "1|ALGERIA|\n2|FRANCE|\n", // TPC-H style trailing delimiter
	})
	e := newFake(
		csvRel("R", true, "A:i B:i", "r.csv", nil),
		csvRel("S", true, "B:i C:s", "s.csv", map[string]string{"fields": ";"}),
		csvRel("N", false, "K:i NAME:s", "n.csv", map[string]string{"delimiter": "|"}),
		Relation{Name: "NOSRC", Stream: true, Columns: cols("A:i")},
	)
	if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	// Tables first; then streams interleaved by line number, R before S on ties.
	checkEvents(t, e.events, []string{
		"N +1|ALGERIA", "N +2|FRANCE",
		"R +1|2", "S +7|x y", "R +3|4", "S +8|z", "R +5|6", // R's line 4 has seq 4
	})
}

func TestCSVDeletions(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.csv": "1|1|10|a\n3|0|10|a\n4|1|11|b\n",
		"s.csv": "2|1|5\n3|1|6\n5|0|5\n",
	})
	del := map[string]string{"delimiter": "|", "deletions": "true"}
	e := newFake(
		csvRel("R", true, "A:i B:s", "r.csv", del),
		csvRel("S", true, "C:f", "s.csv", del),
	)
	if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	checkEvents(t, e.events, []string{"R +10|a", "S +5", "R -10|a", "S +6", "R +11|b", "S -5"})
}

func TestCSVErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		columns string
		params  map[string]string
		want    string
	}{
		{"malformed", "1|2.5|x\n2|abc|y\n", "A:i Q:f S:s", map[string]string{"delimiter": "|"},
			`r.csv:2: column Q: expected FLOAT, got "abc"`},
		{"count", "1,2,3\n\n1,2\n", "A:i B:i C:i", nil, "r.csv:3: expected 3 fields, got 2"},
		{"too many", "1,2,3,4,5\n", "A:i B:i C:i", nil, "r.csv:1: expected 3 fields, got 5"},
		{"trailing only once", "1,2,3,,\n", "A:i B:i C:i", nil, "r.csv:1: expected 3 fields, got 5"},
		{"bad date", "1996-02-30x\n", "D:d", nil, `r.csv:1: column D: expected DATE, got "1996-02-30x"`},
		{"deletion count", "1|1|7\n2|1\n", "A:i", map[string]string{"delimiter": "|", "deletions": "true"},
			"r.csv:2: expected 3 fields, got 2"},
		{"bad op", "1|2|7\n", "A:i", map[string]string{"delimiter": "|", "deletions": "true"},
			`r.csv:1: column (operation): expected 1 or 0, got "2"`},
		{"bad seq", "x|1|7\n", "A:i", map[string]string{"delimiter": "|", "deletions": "true"},
			`r.csv:1: column (sequence number): expected INT, got "x"`},
		{"seq out of range", "1|1|7\n99999999999999999999|1|7\n", "A:i", map[string]string{"delimiter": "|", "deletions": "true"},
			`r.csv:2: column (sequence number): INT out of range, got "99999999999999999999"`},
		// Numbers: the rules of ParseInt and ParseFloat, positioned.
		{"int out of range", "1,2\n3,9223372036854775808\n", "A:i B:i", nil,
			`r.csv:2: column B: INT out of range, got "9223372036854775808"`},
		{"int below range", "-9223372036854775809,1\n", "A:i B:i", nil,
			`r.csv:1: column A: INT out of range, got "-9223372036854775809"`},
		{"NaN", "1,2.5\n2,NaN\n", "A:i X:f", nil, `r.csv:2: column X: expected FLOAT, got "NaN"`},
		{"Inf", "Inf\n", "X:f", nil, `r.csv:1: column X: expected FLOAT, got "Inf"`},
		{"+Inf", "1\n+Inf\n", "X:f", nil, `r.csv:2: column X: expected FLOAT, got "+Inf"`},
		{"-inf", "-inf\n", "X:f", nil, `r.csv:1: column X: expected FLOAT, got "-inf"`},
		{"1e400", "1e300\n1e400\n", "X:f", nil, `r.csv:2: column X: FLOAT out of range, got "1e400"`},
		{"underscore", "1_000\n", "X:f", nil, `r.csv:1: column X: expected FLOAT, got "1_000"`},
		{"hex float", "0x1p-2\n", "X:f", nil, `r.csv:1: column X: expected FLOAT, got "0x1p-2"`},
		// Dates.
		{"no such day", "2024-02-29\n2024-02-30\n", "D:d", nil, `r.csv:2: column D: no such DATE, got "2024-02-30"`},
		{"not a leap year", "2023-02-29\n", "D:d", nil, `r.csv:1: column D: no such DATE, got "2023-02-29"`},
		{"year 0", "0000-12-31\n", "D:d", nil, `r.csv:1: column D: no such DATE, got "0000-12-31"`},
		// A BOM is dropped only at the start of the file.
		{"BOM inside", "1\n\ufeff2\n", "A:i", nil, `r.csv:2: column A: expected INT, got "\ufeff2"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"r.csv": tt.content})
			e := newFake(csvRel("R", true, tt.columns, "r.csv", tt.params))
			err := Replay(e, ReplayOptions{Dir: dir})
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FieldError", err)
			}
			if got := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	e := newFake(csvRel("R", true, "A:i", "missing.csv", nil))
	if err := Replay(e, ReplayOptions{Dir: t.TempDir()}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestBOM checks that a UTF-8 byte order mark at the start of a file is
// dropped, for every framing and adaptor, and that rows are still counted
// from 1.
func TestBOM(t *testing.T) {
	const bom = "\ufeff"
	dir := writeFiles(t, map[string]string{
		"r.csv":   bom + "1,2\r\n3,4\r\n",
		"d.csv":   bom + "5|1|7\n",
		"s.csv":   bom + "8#9",
		"w.csv":   bom + "1011",
		"e.csv":   bom + "x,1\n",
		"only":    bom,
		"book":    bom + "1,1,B,10,100\n",
		"nobom":   "\xef\xbb1,2\n", // a truncated BOM is data
		"twoboms": bom + bom + "1,2\n",
	})
	s := csvRel("S", true, "A:i", "s.csv", nil)
	s.Source.RecordSep = "#"
	w := csvRel("W", true, "A:i", "w.csv", nil)
	w.Source.RecordWidth = 2
	e := newFake(
		csvRel("R", true, "A:i B:i", "r.csv", nil),
		csvRel("D", true, "A:i", "d.csv", map[string]string{"delimiter": "|", "deletions": "true"}),
		s, w,
		csvRel("O", true, "A:i", "only", nil),
	)
	if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	checkEvents(t, e.events, []string{"R +1|2", "S +8", "W +10", "R +3|4", "S +9", "W +11", "D +7"})
	book := newFake(bookRels("book", "yes")...)
	if err := Replay(book, ReplayOptions{Dir: dir}); err != nil || len(book.events) != 1 {
		t.Errorf("order book with a BOM: %v, events %q", err, book.events)
	}
	for path, want := range map[string]string{
		"e.csv":   `e.csv:1: column A: expected INT, got "x"`,
		"nobom":   `nobom:1: column A: expected INT, got "\xef\xbb1"`,
		"twoboms": `twoboms:1: column A: expected INT, got "\ufeff1"`,
	} {
		err := Replay(newFake(csvRel("R", true, "A:i B:i", path, nil)), ReplayOptions{Dir: dir})
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: err = %v, want …%s", path, err, want)
		}
	}
	src, err := NewSource(csvRel("R", true, "A:i B:i", "r.csv", nil), "r.csv", []byte(bom+"1,2\n3,4"))
	if err != nil || src.Lines() != 2 {
		t.Errorf("Lines with a BOM: %v, %v", src.Lines(), err)
	}
}

func TestCSVAllocs(t *testing.T) {
	var b strings.Builder
	for range 1000 {
		b.WriteString("1|2|three|1996-01-02|\n")
	}
	data := []byte(b.String())
	rel := csvRel("R", true, "A:i B:i C:s D:d", "r.csv", map[string]string{"delimiter": "|"})
	s, err := NewSource(rel, "r.csv", data)
	if err != nil {
		t.Fatal(err)
	}
	s.Next() // warm up the fields slice
	n := testing.AllocsPerRun(500, func() {
		if !s.Next() {
			t.Fatal("ran out of lines")
		}
	})
	if n != 0 {
		t.Errorf("%v allocs per line", n)
	}
}

func bookRels(path string, det string) []Relation {
	var rels []Relation
	for _, book := range []string{"bids", "asks"} {
		rels = append(rels, Relation{
			Name: strings.ToUpper(book), Stream: true,
			Columns: cols("T:f ID:i BROKER_ID:i VOLUME:f PRICE:f"),
			Source: &SourceSpec{Path: path, Format: "ORDERBOOK",
				Params: map[string]string{"book": book, "brokers": "10", "deterministic": det}},
		})
	}
	return rels
}

const trace = `1,100,B,50,10.5
2,200,S,30,11
3,101,B,20,9
4,100,E,20,0
5,200,E,30,0
6,101,D,0,0
7,999,D,0,0
8,100,X,0,0
9,201,S,5,12
10,100,F,0,0
11,201,T,1,1
12,201,E,2.5,0
13,300,C,1,1
14,201,E,2.5,0
`

func TestOrderBook(t *testing.T) {
	dir := writeFiles(t, map[string]string{"finance.csv": trace})
	for i, want := range [][]string{
		{ // bids
			"BIDS +1|100|0|50|10.5",
			"BIDS +3|101|1|20|9",
			"BIDS -1|100|0|50|10.5", "BIDS +1|100|0|30|10.5", // partial execution
			"BIDS -3|101|1|20|9",    // cancel
			"BIDS -1|100|0|30|10.5", // fill
		},
		{ // asks
			"ASKS +2|200|0|30|11",
			"ASKS -2|200|0|30|11", // full execution
			"ASKS +9|201|1|5|12",
			"ASKS -9|201|1|5|12", "ASKS +9|201|1|2.5|12",
			"ASKS -9|201|1|2.5|12", // executes the rest
		},
	} {
		e := newFake(bookRels("finance.csv", "yes")[i])
		if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		checkEvents(t, e.events, want)
	}

	// Both books from one trace interleave in trace order.
	e := newFake(bookRels("finance.csv", "yes")...)
	if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	checkEvents(t, e.events, []string{
		"BIDS +1|100|0|50|10.5", "ASKS +2|200|0|30|11", "BIDS +3|101|1|20|9",
		"BIDS -1|100|0|50|10.5", "BIDS +1|100|0|30|10.5", "ASKS -2|200|0|30|11",
		"BIDS -3|101|1|20|9", "ASKS +9|201|1|5|12", "BIDS -1|100|0|30|10.5",
		"ASKS -9|201|1|5|12", "ASKS +9|201|1|2.5|12", "ASKS -9|201|1|2.5|12",
	})
}

func TestOrderBookRandomBrokers(t *testing.T) {
	dir := writeFiles(t, map[string]string{"finance.csv": trace})
	var runs [2][]string
	for i := range runs {
		e := newFake(bookRels("finance.csv", "no")...)
		if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		runs[i] = e.events
	}
	checkEvents(t, runs[1], runs[0])
	for _, ev := range runs[0] {
		f := strings.Split(ev[6:], "|")
		if len(f[2]) != 1 { // a broker in 0..9
			t.Errorf("event %s: broker out of range", ev)
		}
	}
}

func TestOrderBookErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.csv": "1,2,B,1\n", "b.csv": "1,x,B,1,1\n",
		"c.csv": "1,1,B,10,100\n2,2,B,NaN,100\n", "d.csv": "1,1,B,10,1e400\n",
		"e.csv": "1,9223372036854775808,B,10,100\n", "f.csv": "1,1,B,10,100\n2,1,E,Inf,100\n",
	})
	for path, want := range map[string]string{
		"a.csv": "a.csv:1: expected 5 fields, got 4",
		"b.csv": `b.csv:1: column id: expected INT, got "x"`,
		"c.csv": `c.csv:2: column volume: expected FLOAT, got "NaN"`,
		"d.csv": `d.csv:1: column price: FLOAT out of range, got "1e400"`,
		"e.csv": `e.csv:1: column id: INT out of range, got "9223372036854775808"`,
		"f.csv": `f.csv:2: column volume: expected FLOAT, got "Inf"`,
	} {
		err := Replay(newFake(bookRels(path, "yes")...), ReplayOptions{Dir: dir})
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: err = %v, want …%s", path, err, want)
		}
	}
	bad := bookRels("a.csv", "yes")[0]
	bad.Source.Params["book"] = "both"
	if _, err := NewSource(bad, "a.csv", nil); err == nil {
		t.Error("book=both accepted")
	}
}

const dataDir = "../../shared/data/dbtoaster"

func needData(t *testing.T, path string) string {
	t.Helper()
	p := filepath.Join(dataDir, path)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("DBToaster data not found at %s (see /work/shared/data/dbtoaster/README.md): %v", p, err)
	}
	return p
}

func TestOrderBookFinance(t *testing.T) {
	dir := filepath.Dir(needData(t, "finance/standard/finance.csv"))
	for _, det := range []string{"yes", "no"} {
		e := newFake(bookRels("finance.csv", det)...)
		ins := map[string]int{}
		del := map[string]int{}
		e.onNeg = func(rel int, tuple string) { t.Errorf("%s: tuple %s deleted while absent", e.rels[rel].Name, tuple) }
		e.hook = func(rel int, insert bool) {
			if insert {
				ins[e.rels[rel].Name]++
			} else {
				del[e.rels[rel].Name]++
			}
		}
		if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		// Per id, at most one live tuple at the end; live = inserts − deletes.
		for i, r := range e.rels {
			ids := map[string]int{}
			live := 0
			for tuple, n := range e.state[i] {
				if n != 1 {
					t.Errorf("%s: tuple %s has multiplicity %d", r.Name, tuple, n)
				}
				ids[strings.Split(tuple, "|")[1]]++
				live += n
			}
			for id, n := range ids {
				if n != 1 {
					t.Errorf("%s: order %s has %d live tuples", r.Name, id, n)
				}
			}
			if live != ins[r.Name]-del[r.Name] || live < 0 {
				t.Errorf("%s: %d live, %d inserts, %d deletes", r.Name, live, ins[r.Name], del[r.Name])
			}
			// Every B (S) message inserts once.
			if want := map[string]int{"BIDS": 1558, "ASKS": 2249}[r.Name]; ins[r.Name] < want {
				t.Errorf("%s: %d inserts, want at least %d", r.Name, ins[r.Name], want)
			}
			t.Logf("deterministic=%s %s: %d inserts, %d deletes, %d live", det, r.Name, ins[r.Name], del[r.Name], live)
		}
	}
}

// tpchRels are the TPC-H relations as all-string columns (only the counts matter).
func tpchRels(dir string, del bool) []Relation {
	n := map[string]int{"lineitem": 16, "orders": 9, "customer": 8, "nation": 4, "part": 9, "partsupp": 5, "region": 3, "supplier": 7}
	params := map[string]string{"delimiter": "|"}
	if del {
		params["deletions"] = "true"
	}
	var rels []Relation
	for _, name := range []string{"lineitem", "orders", "customer", "nation", "part", "partsupp", "region", "supplier"} {
		var cs []Column
		for i := range n[name] {
			cs = append(cs, Column{Name: strings.ToUpper(name[:1]) + "_" + string(rune('A'+i)), Type: String})
		}
		rels = append(rels, Relation{Name: strings.ToUpper(name), Stream: true, Columns: cs,
			Source: &SourceSpec{Path: filepath.Join(dir, name+".csv"), Format: "CSV", Params: params}})
	}
	return rels
}

// TestTPCHDeletions replays the TPC-H streams with deletions and compares
// the final tables with the *_active.csv files.
func TestTPCHDeletions(t *testing.T) {
	for _, size := range []string{"tiny_del", "standard_del"} {
		dir := needData(t, "tpch/"+size)
		e := newFake(tpchRels(dir, true)...)
		e.onNeg = func(rel int, tuple string) { t.Errorf("%s: tuple %s deleted while absent", e.rels[rel].Name, tuple) }
		if err := Replay(e, ReplayOptions{}); err != nil {
			t.Fatal(err)
		}
		for i, r := range e.rels {
			f, err := os.Open(filepath.Join(dir, strings.ToLower(r.Name)+"_active.csv"))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int{}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if sc.Text() != "" {
					want[strings.TrimSuffix(sc.Text(), "|")]++
				}
			}
			f.Close()
			if !reflect.DeepEqual(e.state[i], want) {
				t.Errorf("%s %s: %d tuples at the end, %d in the active file", size, r.Name, len(e.state[i]), len(want))
			}
		}
	}
}

func TestTPCHPlain(t *testing.T) {
	dir := needData(t, "tpch/standard")
	e := newFake(tpchRels(dir, false)...)
	if err := Replay(e, ReplayOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := len(e.state[0]); n < 6000 {
		t.Errorf("%d distinct lineitems", n)
	}
}

func TestCollectAndProgress(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.csv": "1,2\n3,4\n", "t.csv": "5\n"})
	e := newFake(csvRel("R", true, "A:i B:i", "r.csv", nil), csvRel("T", false, "C:i", "t.csv", nil))
	var calls [][2]int
	b, err := Collect(e, ReplayOptions{Dir: dir, Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 3 || len(e.events) != 0 {
		t.Fatalf("batch of %d events, %d applied", b.Len(), len(e.events))
	}
	if err := e.ApplyBatch(b); err != nil {
		t.Fatal(err)
	}
	checkEvents(t, e.events, []string{"T +5", "R +1|2", "R +3|4"})
	if len(calls) < 2 || calls[len(calls)-1] != [2]int{2, 2} {
		t.Errorf("progress calls %v", calls)
	}
}

// TestFraming reads records separated by a string and records of a fixed
// width, and rejects a short last fixed-width record.
func TestFraming(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv": "1,2#3,4#\n#5,6\n", // line ends around records are dropped
		"w.csv": "1,23,45,6",
		"bad":   "1,23,45,67",
	})
	d := csvRel("D", true, "A:i B:i", "d.csv", nil)
	d.Source.RecordSep = "#"
	w := csvRel("W", true, "A:i B:i", "w.csv", nil)
	w.Source.RecordWidth = 3
	e := newFake(d, w)
	if err := Replay(e, ReplayOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	// Records are numbered as lines are: D's empty third record counts.
	checkEvents(t, e.events, []string{"D +1|2", "W +1|2", "D +3|4", "W +3|4", "W +5|6", "D +5|6"})

	bad := csvRel("W", true, "A:i B:i", "bad", nil)
	bad.Source.RecordWidth = 3
	err := Replay(newFake(bad), ReplayOptions{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "bad:4: the last record has 1 bytes, FIXEDWIDTH 3 needs 3 per record") {
		t.Errorf("short fixed-width record: got %v", err)
	}
}
