// Package examples says how the tests read the example queries under
// examples/: the ones written for dialect sql sit in a directory named sql
// (examples/tpch/sql, examples/employee/sql) or in examples/nulls, whose
// data holds NULLs; the others are written in DBToaster's dialect, which the
// tests pin with lang.DBToaster since they compare with DBToaster's
// semantics (an aggregate over no rows is 0, / is real division).
package examples

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// Dialect returns the dialect of the example query at path.
func Dialect(path string) lang.Dialect {
	dirs := strings.Split(filepath.ToSlash(filepath.Dir(path)), "/")
	if slices.Contains(dirs, "sql") || slices.Contains(dirs, "nulls") {
		return lang.SQL
	}
	return lang.DBToaster
}

// Parse reads the example query at path in its dialect.
func Parse(path string) (*lang.File, error) {
	return lang.Config{Dialect: Dialect(path)}.ParseFile(path)
}
