package runtime

import (
	"bytes"
	"testing"
)

func TestNullFields(t *testing.T) {
	tests := []struct {
		field string
		typ   ColumnType
		null  bool
	}{
		{``, Int, true}, {``, Float, true}, {``, DateType, true}, {``, String, false},
		{`\N`, Int, true}, {`\N`, String, true}, {`\N`, DateType, true},
		{`0`, Int, false}, {`N`, String, false}, {`\\N`, String, false}, {`NULL`, String, false},
	}
	for _, tc := range tests {
		if got := IsNullField([]byte(tc.field), tc.typ); got != tc.null {
			t.Errorf("IsNullField(%q, %v) = %v, want %v", tc.field, tc.typ, got, tc.null)
		}
		v, err := ParseValue(Column{Name: "C", Type: tc.typ, Nullable: true}, []byte(tc.field))
		if tc.null && (err != nil || v != nil) {
			t.Errorf("ParseValue(nullable %v, %q) = %v, %v; want NULL", tc.typ, tc.field, v, err)
		}
	}
	// A NOT NULL column: an empty INT is a data error, \N a string.
	if _, err := ParseValue(Column{Name: "C", Type: Int}, nil); err == nil {
		t.Error("ParseValue(NOT NULL INT, empty) succeeded")
	}
	if v, err := ParseValue(Column{Name: "C", Type: String}, []byte(`\N`)); err != nil || v != `\N` {
		t.Errorf("ParseValue(NOT NULL STRING, \\N) = %v, %v", v, err)
	}
	n, err := ParseNullable([]byte("42"), Int, ParseInt)
	if err != nil || n != Some[int64](42) {
		t.Errorf("ParseNullable(42) = %v, %v", n, err)
	}
	if n, err := ParseNullable([]byte(""), Int, ParseInt); err != nil || n.Valid {
		t.Errorf("ParseNullable(empty) = %v, %v", n, err)
	}
	if _, err := ParseNullable([]byte("x"), Int, ParseInt); err == nil {
		t.Error("ParseNullable(x) succeeded")
	}
	if (Null[int64]{}).Box() != nil || Some[int64](3).Box() != int64(3) {
		t.Error("Box")
	}
}

func TestNullOutput(t *testing.T) {
	v := View{Name: "Q", Keys: []Column{{Name: "A", Type: Int, Nullable: true}}, Values: []Column{{Name: "S", Type: Float, Nullable: true}},
		Rows: [][]any{{int64(1), nil}, {nil, 2.5}}}
	SortRows(v.Rows, 1)
	if v.Rows[0][0] != nil {
		t.Errorf("NULL key does not sort first: %v", v.Rows)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, []View{v}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte(`[null,2.5]`)) || !bytes.Contains(b.Bytes(), []byte(`[1,null]`)) {
		t.Errorf("JSON: %s", b.Bytes())
	}
	b.Reset()
	if err := WriteTable(&b, []View{v}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte("NULL")) {
		t.Errorf("table: %s", b.Bytes())
	}
	if FormatValue(nil) != "NULL" {
		t.Error("FormatValue(nil)")
	}
}
