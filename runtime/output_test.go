package runtime

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func sampleViews() []View {
	return []View{
		{
			Name:   "Q1",
			Keys:   []Column{{Name: "L_RETURNFLAG", Type: String}, {Name: "SHIPDATE", Type: DateType}},
			Values: []Column{{Name: "SUM_QTY", Type: Float}, {Name: "COUNT_ORDER", Type: Int}},
			// SELECT SHIPDATE, SUM_QTY, L_RETURNFLAG … GROUP BY …, ORDERKEY: the
			// JSON lists the SELECT order; COUNT_ORDER is not selected.
			Columns: []OutputColumn{{"SHIPDATE", true, 1}, {"SUM_QTY", false, 0}, {"L_RETURNFLAG", true, 0}},
			Rows: [][]any{
				{"A", MakeDate(1995, 3, 9), 37734107.0, int64(1478493)},
				{"N \"x\"\n", MakeDate(1998, 12, 1), 0.1, int64(-2)},
			},
		},
		{
			Name:   "TOTAL",
			Values: []Column{{Name: "X", Type: Float}},
			Rows:   [][]any{{math.Inf(-1)}},
		},
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleViews()); err != nil {
		t.Fatal(err)
	}
	want := `{"views":[` +
		`{"name":"Q1","keys":["L_RETURNFLAG","SHIPDATE"],"values":["SUM_QTY","COUNT_ORDER"],` +
		`"columns":[{"name":"SHIPDATE","key":1},{"name":"SUM_QTY","value":0},{"name":"L_RETURNFLAG","key":0}],` +
		`"rows":[["A","1995-03-09",3.7734107e+07,1478493],["N \"x\"\n","1998-12-01",0.1,-2]]},` +
		// Without Columns: every key and value, in order.
		`{"name":"TOTAL","keys":[],"values":["X"],"columns":[{"name":"X","value":0}],"rows":[[null]]}]}` + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	// Non-finite floats (from SQRT(-1), POW(10, 400), …; data cannot hold
	// them) are null; finite ones, the largest and the smallest, are numbers.
	WriteJSON(&b, []View{{Name: "E", Values: []Column{{Name: "N", Type: Float}}, Rows: [][]any{
		{math.NaN()}, {math.Inf(1)}, {math.Inf(-1)}, {2.5}, {math.MaxFloat64}, {-math.SmallestNonzeroFloat64}, {math.Copysign(0, -1)}}}})
	if want := `{"views":[{"name":"E","keys":[],"values":["N"],"columns":[{"name":"N","value":0}],"rows":[[null],[null],[null],[2.5],[1.7976931348623157e+308],[-5e-324],[-0]]}]}` + "\n"; b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
	var doc struct {
		Views []struct{ Rows [][]*float64 }
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Views[0].Rows[0][0] != nil || *doc.Views[0].Rows[3][0] != 2.5 {
		t.Errorf("encoding/json reads %s as %+v, %v", b.String(), doc, err)
	}

	b.Reset()
	WriteJSON(&b, nil)
	if b.String() != `{"views":[]}`+"\n" {
		t.Errorf("no views: %s", b.String())
	}
	if err := WriteJSON(&b, []View{{Name: "B", Rows: [][]any{{true}}}}); err == nil {
		t.Error("bool value accepted")
	}
	if got := string(appendJSONString(nil, "\x01\xff\t é")); got != `"\u0001\ufffd\t é"` {
		t.Errorf("appendJSONString = %s", got)
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, sampleViews()); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"Q1 (2 rows)",
		"L_RETURNFLAG  SHIPDATE     SUM_QTY  COUNT_ORDER",
		"------------  ----------  --------  -----------",
		"A             1995-03-09  37734107      1478493",
		`"N \"x\"\n"   1998-12-01       0.1           -2`,
		"",
		"TOTAL (1 row)",
		"   X",
		"----",
		"-Inf",
		"",
	}, "\n")
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestSortRows(t *testing.T) {
	rows := [][]any{
		{"b", MakeDate(2000, 1, 1), int64(1)},
		{"a", MakeDate(2000, 1, 2), int64(2)},
		{"a", MakeDate(1999, 12, 31), int64(3)},
		{"a", MakeDate(2000, 1, 2), int64(4)},
	}
	SortRows(rows, 2)
	var got []int64
	for _, r := range rows {
		got = append(got, r[2].(int64))
	}
	if want := []int64{3, 2, 4, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	nums := [][]any{{2.5}, {math.NaN()}, {-1.0}}
	SortRows(nums, 1)
	if !math.IsNaN(nums[0][0].(float64)) || nums[1][0] != -1.0 {
		t.Errorf("floats sorted as %v", nums)
	}
	ints := [][]any{{int64(10)}, {int64(-3)}, {int64(2)}}
	SortRows(ints, 1)
	if !reflect.DeepEqual(ints, [][]any{{int64(-3)}, {int64(2)}, {int64(10)}}) {
		t.Errorf("ints sorted as %v", ints)
	}
}
