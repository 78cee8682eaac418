package lang

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// View names. SQL has no way to name the result of a SELECT, so a view is
// named as sqlc names its queries, by a comment line before the statement,
//
//	-- name: TopCustomers
//	SELECT …;
//
// (only blank lines and other comments may stand between them), or by
// CREATE VIEW TopCustomers AS SELECT …; (without a column list: the
// SELECT names its columns). A name is kept as written, for the views'
// names in toastgen run and for the Go identifiers codegen derives from it;
// it starts with an ASCII letter and holds only ASCII letters, digits and
// underscores. Names are case-insensitive, as SQL identifiers are: two
// views whose names differ only in case, or a name equal to an unnamed
// view's QUERY<n>, are an error. Clashes with other generated identifiers
// are codegen's to report (codegen.CheckNames).
//
// The parser skips comments, so the `-- name:` comments are found by
// lexing the file a second time, with the same lexer: the other tokens'
// positions, and so every other error, are as without names.

// viewName is a view's name as written and where.
type viewName struct {
	name string
	pos  Pos
}

// nameComment matches the start of a `-- name:` comment (lower-case, as
// sqlc writes it: `-- Name: …` prose stays a comment).
var nameComment = regexp.MustCompile(`^--[ \t]*name:`)

// nameComments returns the view names that `-- name:` comments give the
// statements of a file, and rejects a comment that no SELECT follows.
func (r *resolver) nameComments(file string, src []byte, stmts []*gStmt) map[*gStmt]*viewName {
	starts := map[int]*gStmt{}
	for _, s := range stmts {
		starts[s.Pos.Offset] = s
	}
	lx, err := sqlLexer.LexString(file, string(src))
	if err != nil {
		return nil // the parser has reported it
	}
	syms := sqlLexer.Symbols()
	comment, space := syms["Comment"], syms["Whitespace"]
	out := map[*gStmt]*viewName{}
	var pending *viewName
	var pendingAt Pos // the comment's position
	for {
		tok, err := lx.Next()
		if err != nil {
			return out // a lexical error: the parser has reported it
		}
		if tok.Type == space {
			continue
		}
		if tok.Type == comment {
			loc := nameComment.FindStringIndex(tok.Value)
			if loc == nil {
				continue
			}
			if pending != nil {
				r.fail(pos(tok.Pos), "a second -- name: comment before one statement (the first, at line %d, names it %s)", pendingAt.Line, pending.name)
			}
			pending, pendingAt = r.commentName(tok, loc[1]), pos(tok.Pos)
			continue
		}
		if pending != nil {
			switch s := starts[tok.Pos.Offset]; {
			case s != nil && s.Query != nil:
				out[s] = pending
			case s != nil && s.View != nil:
				r.fail(pendingAt, "-- name: before CREATE VIEW, which names the view itself")
			default:
				r.fail(pendingAt, "-- name: %s is not followed by a SELECT statement (a view name comment stands on the line before its SELECT)", pending.name)
			}
			pending = nil
		}
		if tok.EOF() {
			return out
		}
	}
}

// commentName reads and checks the name of a `-- name:` comment, which
// starts after byte at of the comment.
func (r *resolver) commentName(tok lexer.Token, at int) *viewName {
	rest := tok.Value[at:]
	trimmed := strings.TrimLeft(rest, " \t")
	at += len(rest) - len(trimmed)
	name := strings.TrimRight(trimmed, " \t\r")
	p := pos(tok.Pos)
	p.Col += utf8.RuneCountInString(tok.Value[:at])
	if name == "" {
		r.fail(pos(tok.Pos), "-- name: needs a view name (a Go identifier such as TopCustomers)")
	}
	r.checkViewName(name, p)
	return &viewName{name: name, pos: p}
}

// createViewName reads and checks the name of CREATE VIEW, as written.
func (r *resolver) createViewName(v *gView, src []byte) *viewName {
	p := pos(v.Name.Pos)
	name := v.Name.Name
	if off := v.Name.Pos.Offset; off >= 0 && off+len(name) <= len(src) {
		name = string(src[off : off+len(name)]) // the lexer upper-cased it
	}
	r.checkViewName(name, p)
	if v.Cols != nil {
		r.fail(pos(v.Cols.Pos), "CREATE VIEW with a column list is not supported: name the columns in the SELECT (expr AS name)")
	}
	return &viewName{name: name, pos: p}
}

// checkViewName checks that name, written at p, starts with an ASCII
// letter and holds only ASCII letters, digits and underscores; the error
// points at the first character that does not.
func (r *resolver) checkViewName(name string, p Pos) {
	for i, c := range []rune(name) {
		at := p
		at.Col += i
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i == 0:
			r.fail(at, "view name %s must start with a letter (A-Z, a-z): the view's Go identifiers derive from it", name)
		case c >= '0' && c <= '9' || c == '_':
		default:
			hint := ""
			if strings.Contains(name, ":") {
				hint = " (sqlc's :one/:many annotations have no meaning here)"
			}
			r.fail(at, "view name %q may hold only ASCII letters, digits and underscores%s", name, hint)
		}
	}
}

// checkViewNames rejects two views with the same name, case-insensitively
// (a view's name may also clash with an unnamed view's QUERY<n>). The
// error points at a name that was given.
func (r *resolver) checkViewNames() {
	seen := map[string]*Query{}
	for _, q := range r.file.Queries {
		key := strings.ToUpper(q.Name)
		other, dup := seen[key]
		if !dup {
			seen[key] = q
			continue
		}
		named := q
		if !q.Named {
			named, other = other, q // QUERY<n> names are distinct: other is named
		}
		if other.Named {
			r.fail(named.NamePos, "view name %s is already the name of the view at %s (view names are case-insensitive)", named.Name, other.NamePos)
		}
		r.fail(named.NamePos, "view name %s is already the name of the unnamed view %s at %s (view names are case-insensitive)", named.Name, other.Name, other.Pos)
	}
}
