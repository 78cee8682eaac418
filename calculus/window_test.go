package calculus

import (
	"testing"

	"github.com/toastgen/toastgen/lang"
)

// TestWindowErrors: the window forms the calculus does not translate get a
// positioned error.
func TestWindowErrors(t *testing.T) {
	for _, c := range []struct{ name, query, want string }{
		{"nullable ORDER BY", "SELECT A, SUM(B) OVER (ORDER BY B) FROM R;",
			"w.sql:2:33: a window ORDER BY that may be NULL is not supported yet (declare its columns NOT NULL)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "CREATE STREAM R (A INT, B INT, C INT NOT NULL);\n" + c.query + "\n"
			f, err := lang.Config{Dialect: lang.SQL}.Parse("w.sql", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = FromSQL(f)
			if err == nil {
				t.Fatal("no error")
			}
			if got := firstLine(err.Error()); got != c.want {
				t.Errorf("error %q, want %q", got, c.want)
			}
		})
	}
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
