// Package lang reads query files in the DBToaster SQL dialect: it lexes and
// parses them (a participle grammar), expands INCLUDEs, resolves names and
// types, and returns a File of typed relations and queries (ast.go). Errors
// are *Error values positioned at file:line:col with the source line and a
// caret.
//
// Entry point: ParseFile(path) (*File, error), or Parse(name, src).
package lang
