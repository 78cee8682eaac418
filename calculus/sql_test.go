package calculus

import (
	"strings"
	"testing"

	"github.com/toastgen/toastgen/lang"
)

// TestSQLDialect: in dialect sql, FromSQL translates what may be NULL (the
// error column of the table is for constructs it would reject, at their
// position).
func TestSQLDialect(t *testing.T) {
	const schema = "CREATE STREAM R (A INT NOT NULL, B INT NOT NULL, N INT);\nCREATE STREAM S (B INT NOT NULL, C FLOAT NOT NULL);\n"
	tests := []struct {
		query string
		err   string // "" when accepted; else a substring of the error, which starts with the position
	}{
		{"SELECT R.A, SUM(R.B), COUNT(*) FROM R GROUP BY R.A;", ""},
		{"SELECT COUNT(*) FROM R, S WHERE R.B = S.B AND NOT (R.A > 2 OR S.C < 1.5);", ""},
		{"SELECT R.A, SUM(S.C) FROM R, S WHERE R.B = S.B GROUP BY R.A;", ""},
		{"SELECT R.A, COUNT(*) FROM R WHERE EXISTS (SELECT * FROM S WHERE S.B = R.B) GROUP BY R.A;", ""},
		// What the presence conditions spell out (nullable.go).
		{"SELECT SUM(R.B) FROM R;", ""},
		{"SELECT R.A, COUNT(*) FROM R WHERE R.N > 1 GROUP BY R.A;", ""},
		{"SELECT R.A, SUM(R.B / 2) FROM R GROUP BY R.A;", ""},
		{"SELECT R.A, COUNT(*) FROM R WHERE R.N IS NULL GROUP BY R.A;", ""},
		{"SELECT R.N, COUNT(*), SUM(R.N) FROM R GROUP BY R.N;", ""},
		{"SELECT R.A, COUNT(*) FROM R WHERE R.B > (SELECT COUNT(*) FROM S) GROUP BY R.A;", ""},
		{"SELECT R.A, COUNT(*) FROM R WHERE R.B > (SELECT SUM(S.B) FROM S) GROUP BY R.A;", ""},
		{"SELECT R.A, SUM(CASE WHEN R.B > 1 THEN R.B END) FROM R GROUP BY R.A;", ""},
		{"SELECT R.A, COUNT(*) FROM R WHERE R.B IN (SELECT S.B FROM S) GROUP BY R.A;", ""},
		{"SELECT COUNT(*) FROM R WHERE R.N NOT IN (SELECT S.B FROM S);", ""},
		{"SELECT COUNT(*) FROM R WHERE R.B NOT IN (SELECT R2.N FROM R R2);", ""},
		{"SELECT COUNT(*) FROM R WHERE R.N > ALL (SELECT S.B FROM S);", ""},
		{"SELECT SUM(DISTINCT R.N), COUNT(DISTINCT R.N) FROM R;", ""},
		{"SELECT R.N FROM R UNION SELECT S.B FROM S;", ""},
		// Rejected as in dialect dbtoaster.
		{"SELECT COUNT(*) FROM R WHERE R.N = (SELECT S.B FROM S);", "e.sql:3:36: a scalar subquery must be an aggregate"},
	}
	for _, tc := range tests {
		f, err := lang.Config{Dialect: lang.SQL}.Parse("e.sql", []byte(schema+tc.query))
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		_, err = FromSQL(f)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.query, err)
		case tc.err != "" && err == nil:
			t.Errorf("%s: accepted, want an error %q", tc.query, tc.err)
		case tc.err != "" && !strings.Contains(err.Error(), tc.err):
			t.Errorf("%s: error %q, want %q", tc.query, err, tc.err)
		}
	}
}
