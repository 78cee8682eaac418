package lang

import "strings"

// plainCall writes the shared scalar functions (plainsql.go) as SQLite's
// own, which they follow exactly; it reports whether e was one.
func (t *sqlTr) plainCall(e *Call) bool {
	a := e.Args
	switch e.Name {
	case "ABS", "ROUND", "LENGTH", "UPPER", "LOWER", "TRIM", "LTRIM", "RTRIM":
		t.w(strings.ToLower(e.Name), "(")
		t.args(a)
		t.w(")")
	case "SQL_SUBSTR":
		t.w("substr(")
		t.args(a)
		t.w(")")
	case "CONCAT":
		t.w("(")
		t.expr(a[0])
		t.w(" || ")
		t.expr(a[1])
		t.w(")")
	case "SQL_CAST_INT", "SQL_CAST_FLOAT":
		t.w("CAST(")
		t.expr(a[0])
		if e.Name == "SQL_CAST_INT" {
			t.w(" AS INTEGER)")
		} else {
			t.w(" AS REAL)")
		}
	case "SQL_CAST_STRING":
		if a[0].Type() == TDate {
			t.dateText(a[0])
			break
		}
		t.w("CAST(")
		t.expr(a[0])
		t.w(" AS TEXT)")
	default:
		return false
	}
	return true
}

// dateText writes the text yyyy-mm-dd of a DATE, which the oracle stores as
// the INTEGER yyyymmdd.
func (t *sqlTr) dateText(d Expr) {
	x := t.capture(func() { t.expr(d) })
	t.w("printf('%04d-%02d-%02d', (", x, ")/10000, (", x, ")/100%100, (", x, ")%100)")
}
