package codegen_test

import (
	"strings"
	"testing"
)

// TestCounterMaps checks which triggers check INT overflows: a map every
// statement adds a small constant to (a count) cannot overflow and is not
// checked; a sum of INT values, or a count multiplied by a map read (a
// join's), is.
func TestCounterMaps(t *testing.T) {
	tests := []struct {
		query   string
		checked bool
	}{
		{"SELECT COUNT(*) FROM R", false},
		{"SELECT a, COUNT(*) FROM R WHERE c > 2 GROUP BY a", false},
		{"SELECT a, COUNT(*), SUM(a) FROM R GROUP BY a", true},
		{"SELECT SUM(c) FROM R", true},
		{"SELECT COUNT(*) FROM R, S WHERE R.a = S.a", true},
		// A lifted map read is not a constant: the analysis does not look into it.
		{"SELECT COUNT(*) FROM R WHERE R.c > (SELECT COUNT(*) FROM S)", true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			code := string(generate(t, "CREATE STREAM R (A INT, B STRING, C INT, D DATE);\nCREATE STREAM S (A INT, E INT);\n"+tt.query+";\n"))
			if got := strings.Contains(code, "e.overflow = true"); got != tt.checked {
				t.Errorf("checks overflows: %v, want %v", got, tt.checked)
			}
		})
	}
}

// TestNarrowTuples checks that, when no trigger of a relation checks
// overflows, its parsed tuples keep only the columns the triggers read.
func TestNarrowTuples(t *testing.T) {
	tests := []struct {
		query, tuple string
	}{
		{"SELECT COUNT(*) FROM R WHERE c > 2", "type tupleR struct {\n\tc2 int64 // C\n}"},
		{"SELECT b, COUNT(*) FROM R GROUP BY b", "type tupleR struct {\n\tc1 string // B\n}"},
		{"SELECT SUM(c) FROM R", "type tupleR struct {\n\tc0 int64        // A\n\tc1 string       // B\n\tc2 int64        // C\n\tc3 runtime.Date // D\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			code := string(generate(t, "CREATE STREAM R (A INT, B STRING, C INT, D DATE);\n"+tt.query+";\n"))
			if !strings.Contains(code, tt.tuple) {
				i := strings.Index(code, "type tupleR")
				t.Errorf("want\n%s\ngot\n%s", tt.tuple, code[i:i+strings.Index(code[i:], "}")+1])
			}
		})
	}
}
