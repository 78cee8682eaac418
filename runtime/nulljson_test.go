package runtime

import (
	"encoding/json"
	"testing"
)

func TestNullDateJSON(t *testing.T) {
	type row struct {
		ID    Null[int64]   `json:"id"`
		Name  Null[string]  `json:"name"`
		Day   Date          `json:"day"`
		Until Null[Date]    `json:"until"`
		Avg   Null[float64] `json:"avg"`
	}
	d, err := ParseDate([]byte("2024-03-01"))
	if err != nil {
		t.Fatal(err)
	}
	in := row{ID: Some[int64](2), Day: d, Until: Some(d), Avg: Null[float64]{}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"id":2,"name":null,"day":"2024-03-01","until":"2024-03-01","avg":null}`
	if string(b) != want {
		t.Errorf("json.Marshal: %s, want %s", b, want)
	}
	var out row
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("round trip: %+v, want %+v", out, in)
	}
	for _, bad := range []string{`{"day":20240301}`, `{"day":"2024-02-30"}`, `{"id":"x"}`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("json.Unmarshal(%s): no error", bad)
		}
	}
}
