package runtime

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := writeFiles(t, map[string]string{"r.csv": "1,2\n3,4\n1,2\n"})
	e := newFake(csvRel("R", true, "A:i B:i", "r.csv", nil))
	var b bytes.Buffer
	if err := run(e, "json", dir, &b); err != nil {
		t.Fatal(err)
	}
	want := `{"views":[{"name":"R","keys":["TUPLE"],"values":["COUNT"],"rows":[["1|2",2],["3|4",1]]}]}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
	if err := run(e, "xml", dir, &b); err == nil {
		t.Error("-format xml accepted")
	}
}

func TestBench(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"r.csv": "1|1|1|2\n2|1|3|4\n3|0|1|2\n",
		"t.csv": "9\n",
	})
	rels := func() []Relation {
		return []Relation{
			csvRel("R", true, "A:i B:i", "r.csv", map[string]string{"delimiter": "|", "deletions": "true"}),
			csvRel("T", false, "C:i", "t.csv", nil),
		}
	}
	e := newFake(rels()...)
	var fresh []*fakeEngine
	res, err := Bench(e, BenchOptions{Repeat: 3, Dir: dir, New: func() Engine {
		f := newFake(rels()...)
		fresh = append(fresh, f)
		return f
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Table once, then pass, inverse, pass, inverse, pass.
	checkEvents(t, e.events, []string{
		"T +9",
		"R +1|2", "R +3|4", "R -1|2",
		"R +1|2", "R -3|4", "R -1|2",
		"R +1|2", "R +3|4", "R -1|2",
		"R +1|2", "R -3|4", "R -1|2",
		"R +1|2", "R +3|4", "R -1|2",
	})
	if res.Events != 15 || len(fresh) != 3 || res.EndToEndEvents != 12 {
		t.Errorf("result %+v with %d fresh engines", res, len(fresh))
	}
	if res.TriggerTime <= 0 || res.EndToEndTime <= 0 || res.PeakHeap == 0 {
		t.Errorf("result %+v", res)
	}
	var b bytes.Buffer
	res.WriteTo(&b)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "triggers: ") || !strings.HasSuffix(lines[0], " allocs/event") ||
		!strings.HasPrefix(lines[1], "end-to-end: ") || !strings.HasSuffix(lines[1], " events/s") ||
		!strings.HasPrefix(lines[2], "peak heap: ") || !strings.HasSuffix(lines[2], " MiB") {
		t.Errorf("output:\n%s", b.String())
	}
}

// TestSourcesEmbedded checks that Sources holds exactly the package's
// non-test Go files.
func TestSourcesEmbedded(t *testing.T) {
	var want []string
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			want = append(want, f)
		}
	}
	var got []string
	fs.WalkDir(Sources, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, path)
		}
		return err
	})
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("embedded %v, want %v: update the //go:embed line in embed.go", got, want)
	}
	data, _ := fs.ReadFile(Sources, "engine.go")
	disk, _ := os.ReadFile("engine.go")
	if !bytes.Equal(data, disk) {
		t.Error("embedded engine.go differs from the file")
	}
}

// sumEngine is an Engine whose triggers do not allocate.
type sumEngine struct {
	fakeEngine
	sum float64
}

type sumBatch struct{ vals []float64 }

func (b *sumBatch) Add(rel int, insert bool, fields [][]byte) error {
	v, err := ParseFloat(fields[0])
	if err != nil {
		return NewColumnError("A", Float, fields[0])
	}
	if !insert {
		v = -v
	}
	b.vals = append(b.vals, v)
	return nil
}

func (b *sumBatch) Len() int { return len(b.vals) }

func (e *sumEngine) NewBatch() Batch { return &sumBatch{} }

func (e *sumEngine) ApplyBatch(b Batch) {
	for _, v := range b.(*sumBatch).vals {
		e.sum += v
	}
}

func TestBenchAllocs(t *testing.T) {
	var sb strings.Builder
	for i := range 100000 {
		sb.WriteString(strconv.Itoa(i%1000) + ".5\n")
	}
	dir := writeFiles(t, map[string]string{"r.csv": sb.String()})
	e := &sumEngine{fakeEngine: *newFake(csvRel("R", true, "A:f", "r.csv", nil))}
	res, err := Bench(e, BenchOptions{Repeat: 2, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 300000 || res.AllocsPerEvent() > 0.001 {
		t.Errorf("%d events, %v allocs/event", res.Events, res.AllocsPerEvent())
	}
	// pass, inverse, pass: the state of one pass, 100 × (0.5 + … + 999.5).
	if e.sum != 5e7 {
		t.Errorf("sum %v, want 5e7", e.sum)
	}
	if res.EndToEndTime != 0 {
		t.Error("end-to-end ran without New")
	}
}
