package runtime

import (
	"os"
	"testing"
)

// FuzzSource reads any bytes as the file of a relation's source — CSV with
// each column type, with and without DBToaster's deletions prefix, a
// record separator or fixed-width records, and the order-book adaptor —
// and parses every record's fields as its columns: errors are fine (and
// must name a line), a panic or a loop that does not end with the input
// is not.
func FuzzSource(f *testing.F) {
	f.Add([]byte("1,2.5,abc,1995-01-02,\\N\n3,4,d,1996-12-31,7\n"), uint8(0))
	f.Add([]byte("1,1,7,0.5,x,1994-01-01,3\n2,0,7,0.5,x,1994-01-01,3\n"), uint8(1))
	f.Add([]byte("1|2.5|abc|1995-01-02|\n3|4|d|1996-12-31|7|\n"), uint8(2))
	f.Add([]byte("1,2.5,abc,1995-01-02,9;;3,4,d,1996-12-31,7"), uint8(3))
	f.Add([]byte("0.5,1,B,10,100\n0.6,2,A,11,200\n0.7,1,D,0,0\n"), uint8(4))
	if data, err := os.ReadFile("../../shared/data/dbtoaster/finance/standard/finance.csv"); err == nil && len(data) > 2000 {
		f.Add(data[:2000], uint8(4))
	}
	cols := []Column{{Name: "A", Type: Int}, {Name: "B", Type: Float}, {Name: "C", Type: String}, {Name: "D", Type: DateType}, {Name: "E", Type: Int, Nullable: true}}
	specs := []*SourceSpec{
		{Format: "CSV"},
		{Format: "CSV", Params: map[string]string{"deletions": "true"}},
		{Format: "CSV", Params: map[string]string{"delimiter": "|"}},
		{Format: "CSV", RecordSep: ";;"},
		{Format: "ORDERBOOK", Params: map[string]string{"book": "bids", "brokers": "3", "deterministic": "yes"}},
		{Format: "CSV", RecordWidth: 7},
	}
	book := []Column{{Name: "T", Type: Float}, {Name: "ID", Type: Int}, {Name: "BROKER_ID", Type: Int}, {Name: "VOLUME", Type: Float}, {Name: "PRICE", Type: Float}}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		spec := specs[int(kind)%len(specs)]
		rel := Relation{Name: "R", Stream: true, Columns: cols, Source: spec}
		if spec.Format == "ORDERBOOK" {
			rel.Columns = book
		}
		s, err := NewSource(rel, "fuzz.csv", data)
		if err != nil {
			return
		}
		// Every record takes at least a byte, and an order-book line at
		// most a few events.
		limit := 4*len(data) + 8
		for n := 0; s.Next(); n++ {
			if n > limit {
				t.Fatalf("more than %d records from %d bytes", limit, len(data))
			}
			if len(s.Fields()) != len(rel.Columns) {
				t.Fatalf("line %d: %d fields for %d columns", s.Line(), len(s.Fields()), len(rel.Columns))
			}
			for i, c := range rel.Columns {
				ParseValue(c, s.Fields()[i])
			}
		}
		if err := s.Err(); err != nil && s.Line() <= 0 {
			t.Fatalf("error without a line: %v", err)
		}
	})
}
