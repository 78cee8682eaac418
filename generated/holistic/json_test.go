package holistic_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/generated/holistic"
	"github.com/toastgen/toastgen/generated/internal/gentest"
	"github.com/toastgen/toastgen/runtime"
)

// TestRowJSON checks that view rows marshal as a service sends them: each
// column under its SQL name, a NULL as null and a value as itself (not
// runtime.Null's fields), and unmarshal back to the same rows; and that
// Views() says which columns may be NULL.
func TestRowJSON(t *testing.T) {
	e := holistic.New()
	evs, err := gentest.Record(e.Relations(), gentest.RepoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := e.Apply(ev.Rel, ev.Insert, ev.Fields); err != nil {
			t.Fatal(err)
		}
	}
	rows := e.Query1()
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, "Valid") || !strings.Contains(s, `"BROKER":`) || !strings.Contains(s, `"MEDIAN_PRICE":`) {
		t.Errorf("rows as JSON: %.300s", s)
	}
	var back []holistic.Query1Row
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if back[i] != rows[i] {
			t.Fatalf("row %d: %+v after a JSON round trip, want %+v", i, back[i], rows[i])
		}
	}
	v := e.Views()[0]
	want := map[string]bool{"BROKER": false, "MEDIAN_PRICE": true, "Q3_VOLUME": true, "COMMON_PRICE": true, "TRADES": false}
	for _, c := range append(append([]runtime.Column{}, v.Keys...), v.Values...) {
		if n, ok := want[c.Name]; ok && c.Nullable != n {
			t.Errorf("column %s: Nullable %v, want %v", c.Name, c.Nullable, n)
		}
	}
}
