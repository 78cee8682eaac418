package lang

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/alecthomas/participle/v2"
)

// Error is a positioned error in a query file. Line is the text of the
// source line at Pos (empty when unknown).
type Error struct {
	Pos  Pos
	Msg  string
	Line string
}

// Error renders the error as
//
//	file:line:col: msg
//		<source line>
//		<caret under col>
//
// The caret line keeps the tabs of the source line so the caret lines up.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.Line > 0 {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	} else if e.Pos.File != "" {
		b.WriteString(e.Pos.File)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Pos.Line > 0 {
		b.WriteString("\n\t")
		b.WriteString(e.Line)
		b.WriteString("\n\t")
		n := 0
		for _, r := range e.Line {
			if n >= e.Pos.Col-1 {
				break
			}
			if r == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
			n++
		}
		for ; n < e.Pos.Col-1; n++ {
			b.WriteByte(' ')
		}
		b.WriteByte('^')
	}
	return b.String()
}

// sources maps file names to their lines, to fill Error.Line.
type sources map[string][]string

func (s sources) add(name string, src []byte) {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	s[name] = lines
}

func (s sources) errorf(p Pos, format string, args ...any) *Error {
	e := &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
	if lines := s[p.File]; p.Line >= 1 && p.Line <= len(lines) {
		e.Line = lines[p.Line-1]
	}
	return e
}

// fromParticiple converts a participle (parse or lex) error into an *Error.
func (s sources) fromParticiple(file string, err error) *Error {
	var pe participle.Error
	if errors.As(err, &pe) {
		p := pe.Position()
		pos := Pos{File: p.Filename, Line: p.Line, Col: p.Column}
		if pos.File == "" {
			pos.File = file
		}
		return s.errorf(pos, "%s", syntaxMessage(pe.Message()))
	}
	return &Error{Pos: Pos{File: file}, Msg: err.Error()}
}

// bailout carries an *Error out of deep recursion in the resolver; it is
// recovered at the API boundary (Parse).
type bailout struct{ err *Error }

var grammarName = regexp.MustCompile(`\bG[A-Z][a-z][A-Za-z]*\b`)

// syntaxMessage rewrites participle's messages for users: the grammar's
// type names become words.
func syntaxMessage(m string) string {
	m = strings.TrimPrefix(m, "lexer: ")
	return grammarName.ReplaceAllStringFunc(m, func(n string) string {
		switch n {
		case "GExpr", "GAnd", "GNot", "GPred", "GAdd", "GMul", "GUnary", "GPrim", "GOrArm", "GAndArm", "GAddArm", "GMulArm":
			return "expression"
		case "GUnion", "GSelect":
			return "SELECT"
		case "GFromItem", "GFrom":
			return "table"
		case "GItem":
			return "select item"
		case "GStmt":
			return "statement"
		case "GColDef":
			return "column definition"
		case "GViewName":
			return "view name"
		case "GViewCols":
			return "column list"
		}
		return strings.ToLower(n[1:])
	})
}
