package codegen

import (
	"go/token"
	"strings"
	"unicode"
)

// exportedName turns QUERY1_TOTAL_mST into Query1TotalMst.
func exportedName(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		part = strings.ToLower(part)
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	n := b.String()
	if n == "" || unicode.IsDigit(rune(n[0])) {
		n = "X" + n
	}
	return n
}

// unexportedName turns QUERY1_TOTAL into query1Total.
func unexportedName(s string) string {
	n := exportedName(s)
	n = strings.ToLower(n[:1]) + n[1:]
	if token.IsKeyword(n) {
		n += "_"
	}
	return n
}

// reserved names are used by generated code itself; variables that would
// shadow them get a trailing underscore.
var reserved = map[string]bool{
	"e": true, "m": true, "k": true, "v": true, "i": true, "ok": true, "err": true, "f": true,
	"insert": true, "rel": true, "runtime": true, "fmt": true, "cmp": true, "slices": true, "iter": true,
	"len": true, "append": true, "delete": true, "clear": true, "int64": true, "float64": true, "string": true,
	"true": true, "false": true, "nil": true, "min": true, "max": true, "new": true, "make": true,
}

// varName turns a calculus variable into a Go local name.
func varName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteString("_")
		}
	}
	n := b.String()
	if n == "" || unicode.IsDigit(rune(n[0])) {
		n = "v" + n
	}
	if token.IsKeyword(n) || reserved[n] || isTemp(n) {
		n += "_"
	}
	return n
}

// isTemp reports names of the form accN, entN, valN, bufN used for temporaries.
func isTemp(n string) bool {
	for _, p := range []string{"acc", "ent", "val", "buf", "idx", "agg", "row"} {
		if strings.HasPrefix(n, p) && len(n) > len(p) && strings.Trim(n[len(p):], "0123456789") == "" {
			return true
		}
	}
	return false
}
