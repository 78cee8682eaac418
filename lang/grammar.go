package lang

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The lexer distinguishes reserved words (Keyword) from identifiers so that an
// optional alias (`FROM R WHERE …`) never swallows a clause keyword. Only the
// words that can follow an expression or a table name are reserved; function
// names, type names, units (YEAR, DAY) and the words of CREATE/FROM FILE are
// ordinary identifiers matched by value, so they remain usable as column
// names. Keywords and identifiers are upper-cased by the parser (Upper), which
// makes the grammar case-insensitive and reports identifiers in upper case.
var sqlLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `--[^\n]*|/\*(?s:.*?)\*/`},
	{Name: "Whitespace", Pattern: `\s+`},
	{Name: "Float", Pattern: `(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+`},
	{Name: "Int", Pattern: `\d+`},
	{Name: "String", Pattern: `'(?:[^']|'')*'`},
	{Name: "Keyword", Pattern: `(?i)(?:SELECT|DISTINCT|FROM|WHERE|GROUP|BY|HAVING|QUALIFY|ORDER|LIMIT|OFFSET|UNION|INTERSECT|EXCEPT|ALL|AS|JOIN|INNER|NATURAL|LEFT|RIGHT|FULL|OUTER|CROSS|ON|AND|OR|NOT|IN|LIKE|BETWEEN|EXISTS|CASE|WHEN|THEN|ELSE|END|SOME|ANY|ASC|DESC|INTERVAL|IS|NULL)\b`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Op", Pattern: `:=|<>|!=|<=|>=|\|\||[-+*/%(),.;=<>]`},
})

var sqlParser = participle.MustBuild[gFile](
	participle.Lexer(sqlLexer),
	participle.Elide("Comment", "Whitespace"),
	participle.Upper("Keyword", "Ident"),
	participle.UseLookahead(participle.MaxLookahead),
)

// Grammar returns the grammar of query files in EBNF, quoted words being
// keywords (matched case-insensitively). Tests walk it to check that every
// clause it can parse is translated or rejected at its position, never
// dropped.
func Grammar() string { return sqlParser.String() }

// The g* types are the concrete syntax tree; resolve.go turns them into the
// typed AST of ast.go. Every node carries its position for error messages.

type gFile struct {
	Stmts []*gStmt `parser:"( @@ ( \";\" @@? )* )?"`
}

type gStmt struct {
	Pos     lexer.Position
	View    *gView    `parser:"  @@"`
	Create  *gCreate  `parser:"| @@"`
	Include *gInclude `parser:"| @@"`
	Query   *gUnion   `parser:"| @@"`
}

// gView is CREATE VIEW name [(columns)] AS query; the column list is
// parsed to be rejected with a clear message.
type gView struct {
	Pos   lexer.Position
	Name  *gViewName `parser:"\"CREATE\" \"VIEW\" @@"`
	Cols  *gViewCols `parser:"@@?"`
	Query *gUnion    `parser:"\"AS\" @@"`
}

// gViewName is a view's name; the lexer upper-cases identifiers, so the
// resolver reads the name as written from the source at Pos.
type gViewName struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

type gViewCols struct {
	Pos   lexer.Position
	Names []string `parser:"\"(\" @Ident ( \",\" @Ident )* \")\""`
}

type gInclude struct {
	Pos  lexer.Position
	Path string `parser:"\"INCLUDE\" @String"`
}

type gCreate struct {
	Pos    lexer.Position
	Stream bool           `parser:"\"CREATE\" ( @\"STREAM\" | \"TABLE\" )"`
	Name   string         `parser:"@Ident"`
	Elems  []*gCreateElem `parser:"\"(\" @@ ( \",\" @@ )* \")\""`
	Source *gSource       `parser:"@@?"`
}

// gCreateElem is a column or a table's PRIMARY KEY (columns) constraint.
type gCreateElem struct {
	Key *gTableKey `parser:"  @@"`
	Col *gColDef   `parser:"| @@"`
}

type gTableKey struct {
	Pos  lexer.Position
	Cols []*gKeyCol `parser:"\"PRIMARY\" \"KEY\" \"(\" @@ ( \",\" @@ )* \")\""`
}

type gKeyCol struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

type gColDef struct {
	Pos     lexer.Position
	Name    string     `parser:"@Ident"`
	Type    *gType     `parser:"@@"`
	NullPos *gNullSpec `parser:"@@?"`
	Key     *gColKey   `parser:"@@?"`
}

// gColKey is a column's PRIMARY KEY constraint.
type gColKey struct {
	Pos lexer.Position
	Key bool `parser:"@\"PRIMARY\" \"KEY\""`
}

// gNullSpec is a column's NULL or NOT NULL constraint.
type gNullSpec struct {
	Pos lexer.Position
	Not bool `parser:"@\"NOT\"? \"NULL\""`
}

type gType struct {
	Pos  lexer.Position
	Name string   `parser:"@Ident"`
	Args []string `parser:"( \"(\" @Int ( \",\" @Int )* \")\" )?"`
}

// gSource is DBToaster's source clause: FROM FILE 'path' or FROM SOCKET
// [host] port (parsed to be rejected), an optional framing, and an adaptor
// with an optional, possibly empty, parameter list.
type gSource struct {
	Pos     lexer.Position
	Kind    string    `parser:"\"FROM\" @Ident"`
	Path    *string   `parser:"@String?"`
	Port    *string   `parser:"@Int?"`
	Framing *gFraming `parser:"@@?"`
	Adaptor *gAdaptor `parser:"@@"`
	Params  []*gParam `parser:"( \"(\" ( @@ ( \",\" @@ )* )? \")\" )?"`
}

type gAdaptor struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

// gFraming splits a source's bytes into records: LINE DELIMITED,
// '<string>' DELIMITED or FIXEDWIDTH n.
type gFraming struct {
	Pos   lexer.Position
	Line  bool    `parser:"(  @\"LINE\" \"DELIMITED\""`
	Delim *string `parser:" | @String \"DELIMITED\""`
	Width *string `parser:" | \"FIXEDWIDTH\" @Int )"`
}

type gParam struct {
	Pos   lexer.Position
	Key   string `parser:"@Ident \":=\""`
	Value string `parser:"@String"`
}

type gUnion struct {
	Pos   lexer.Position
	First *gSelect     `parser:"@@"`
	Rest  []*gUnionArm `parser:"@@*"`
}

type gUnionArm struct {
	Pos lexer.Position
	Op  string   `parser:"@( \"UNION\" | \"INTERSECT\" | \"EXCEPT\" )"`
	All bool     `parser:"@\"ALL\"?"`
	Sel *gSelect `parser:"@@"`
}

type gSelect struct {
	Pos      lexer.Position
	Distinct bool      `parser:"\"SELECT\" ( @\"DISTINCT\" | \"ALL\" )?"`
	Items    []*gItem  `parser:"@@ ( \",\" @@ )*"`
	From     *gFrom    `parser:"( \"FROM\" @@ )?"`
	Where    *gExpr    `parser:"( \"WHERE\" @@ )?"`
	GroupBy  []*gExpr  `parser:"( \"GROUP\" \"BY\" @@ ( \",\" @@ )* )?"`
	Having   *gExpr    `parser:"( \"HAVING\" @@ )?"`
	Qualify  *gExpr    `parser:"( \"QUALIFY\" @@ )?"`
	OrderBy  []*gOrder `parser:"( \"ORDER\" \"BY\" @@ ( \",\" @@ )* )?"`
	Limit    *gLimit   `parser:"@@?"`
}

// gItem is a select item; EndPos (just after its alias) gives the alias
// as written.
type gItem struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Star   bool   `parser:"( @\"*\""`
	Of     string `parser:"| @Ident \".\" \"*\""` // alias.*
	Expr   *gExpr `parser:"| @@ )"`
	Alias  string `parser:"( \"AS\"? @Ident )?"`
}

type gOrder struct {
	Expr *gExpr `parser:"@@"`
	Dir  string `parser:"@( \"ASC\" | \"DESC\" )?"`
}

// gLimit is LIMIT n [OFFSET m], or OFFSET m alone (to be rejected); the
// resolver checks that n and m are integer constants.
type gLimit struct {
	Pos    lexer.Position
	N      *gExpr   `parser:"( \"LIMIT\" @@"`
	Offset *gOffset `parser:"  @@? | @@ )"`
}

type gOffset struct {
	Pos lexer.Position
	M   *gExpr `parser:"\"OFFSET\" @@"`
}

type gFrom struct {
	First *gFromItem `parser:"@@"`
	Rest  []*gJoin   `parser:"@@*"`
}

type gJoin struct {
	Pos     lexer.Position
	Comma   bool       `parser:"(  @\",\""`
	Natural bool       `parser:" | @\"NATURAL\" \"INNER\"? \"JOIN\""`
	Outer   string     `parser:" | @( \"LEFT\" | \"RIGHT\" | \"FULL\" ) \"OUTER\"? \"JOIN\""`
	Cross   bool       `parser:" | @\"CROSS\" \"JOIN\""`
	Inner   bool       `parser:" | \"INNER\"? @\"JOIN\" )"`
	Item    *gFromItem `parser:"@@"`
	On      *gExpr     `parser:"( \"ON\" @@ )?"`
}

// gFromItem is a table, a derived table, or a parenthesised join
// (Group), which the resolver flattens into the FROM list.
type gFromItem struct {
	Pos   lexer.Position
	Sub   *gUnion `parser:"( \"(\" @@ \")\""`
	Group *gFrom  `parser:"| \"(\" @@ \")\""`
	Table string  `parser:"| @Ident )"`
	Alias string  `parser:"( \"AS\"? @Ident )?"`
}

// Expressions, one level per precedence: OR < AND < NOT < predicates < + - < * / % < || < unary minus and plus.

// gExpr is an expression; EndPos (just after its last token) gives the
// source text of a select item, which names its column as SQLite does.
type gExpr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Left   *gAnd     `parser:"@@"`
	Right  []*gOrArm `parser:"@@*"`
}

type gOrArm struct {
	Pos lexer.Position
	X   *gAnd `parser:"\"OR\" @@"`
}

type gAnd struct {
	Pos   lexer.Position
	Left  *gNot      `parser:"@@"`
	Right []*gAndArm `parser:"@@*"`
}

type gAndArm struct {
	Pos lexer.Position
	X   *gNot `parser:"\"AND\" @@"`
}

type gNot struct {
	Pos  lexer.Position
	Not  *gNot  `parser:"  \"NOT\" @@"`
	Pred *gPred `parser:"| @@"`
}

type gPred struct {
	Pos     lexer.Position
	Left    *gAdd     `parser:"@@"`
	Cmp     *gCmp     `parser:"( @@"`
	Between *gBetween `parser:"| @@"`
	In      *gIn      `parser:"| @@"`
	Like    *gLike    `parser:"| @@"`
	IsNull  *gIsNull  `parser:"| @@ )?"`
}

type gCmp struct {
	Pos   lexer.Position
	Op    string  `parser:"@( \"=\" | \"!=\" | \"<>\" | \"<=\" | \">=\" | \"<\" | \">\" )"`
	Quant string  `parser:"( @( \"SOME\" | \"ANY\" | \"ALL\" ) \"(\""`
	Sub   *gUnion `parser:"  @@ \")\""`
	Right *gAdd   `parser:"| @@ )"`
}

type gBetween struct {
	Pos lexer.Position
	Not bool  `parser:"@\"NOT\"? \"BETWEEN\""`
	Lo  *gAdd `parser:"@@ \"AND\""`
	Hi  *gAdd `parser:"@@"`
}

type gIn struct {
	Pos  lexer.Position
	Not  bool     `parser:"@\"NOT\"? \"IN\" \"LIST\"? \"(\""` // IN LIST (…): DBToaster's spelling
	Sub  *gUnion  `parser:"( @@"`
	List []*gExpr `parser:"| @@ ( \",\" @@ )* ) \")\""`
}

// gIsNull is x IS [NOT] NULL or x IS [NOT] DISTINCT FROM y.
type gIsNull struct {
	Pos      lexer.Position
	Not      bool  `parser:"\"IS\" @\"NOT\"?"`
	Distinct *gAdd `parser:"( \"DISTINCT\" \"FROM\" @@ | \"NULL\" )"`
}

type gLike struct {
	Pos lexer.Position
	Not bool  `parser:"@\"NOT\"? \"LIKE\""`
	Pat *gAdd `parser:"@@"`
}

type gAdd struct {
	Pos   lexer.Position
	Left  *gMul      `parser:"@@"`
	Right []*gAddArm `parser:"@@*"`
}

type gAddArm struct {
	Pos lexer.Position
	Op  string `parser:"@( \"+\" | \"-\" )"`
	X   *gMul  `parser:"@@"`
}

type gMul struct {
	Pos   lexer.Position
	Left  *gConcat   `parser:"@@"`
	Right []*gMulArm `parser:"@@*"`
}

type gMulArm struct {
	Pos lexer.Position
	Op  string   `parser:"@( \"*\" | \"/\" | \"%\" )"`
	X   *gConcat `parser:"@@"`
}

// gConcat is a || b || …, which binds tighter than * and / and looser than
// unary minus, as in SQLite.
type gConcat struct {
	Pos   lexer.Position
	Left  *gUnary       `parser:"@@"`
	Right []*gConcatArm `parser:"@@*"`
}

type gConcatArm struct {
	Pos lexer.Position
	X   *gUnary `parser:"\"||\" @@"`
}

type gUnary struct {
	Pos  lexer.Position
	Neg  *gUnary `parser:"  \"-\" @@"`
	Plus *gUnary `parser:"| \"+\" @@"`
	Prim *gPrim  `parser:"| @@"`
}

type gPrim struct {
	Pos      lexer.Position
	Float    *string    `parser:"  @Float"`
	Int      *string    `parser:"| @Int"`
	Str      *string    `parser:"| @String"`
	Null     bool       `parser:"| @\"NULL\""`
	Interval *gInterval `parser:"| @@"`
	Case     *gCase     `parser:"| @@"`
	Exists   *gUnion    `parser:"| \"EXISTS\" \"(\" @@ \")\""`
	Sub      *gUnion    `parser:"| \"(\" @@ \")\""`
	Paren    *gExpr     `parser:"| \"(\" @@ \")\""`
	Call     *gCall     `parser:"| @@"`
	DateLit  *string    `parser:"| \"DATE\" @String"`
	Col      *gCol      `parser:"| @@"`
}

type gInterval struct {
	Pos  lexer.Position
	N    string `parser:"\"INTERVAL\" @String"`
	Unit string `parser:"@Ident"`
}

type gCase struct {
	Pos     lexer.Position
	Subject *gExpr   `parser:"\"CASE\" @@?"`
	Whens   []*gWhen `parser:"@@+"`
	Else    *gExpr   `parser:"( \"ELSE\" @@ )? \"END\""`
}

type gWhen struct {
	Pos  lexer.Position
	Cond *gExpr `parser:"\"WHEN\" @@"`
	Then *gExpr `parser:"\"THEN\" @@"`
}

// gCall covers every call form: f(*), f(DISTINCT x), f(a, b, …),
// EXTRACT(unit FROM x) and CAST(x AS type); the resolver checks which form
// each function accepts.
type gCall struct {
	Pos      lexer.Position
	Name     string   `parser:"@Ident \"(\""`
	Star     bool     `parser:"( @\"*\""`
	Distinct bool     `parser:"| ( @\"DISTINCT\""`
	All      bool     `parser:"  | @\"ALL\" )?"`
	Args     []*gExpr `parser:"  @@ ( \",\" @@ )*"`
	From     *gExpr   `parser:"  ( \"FROM\" @@"`
	As       *gType   `parser:"  | \"AS\" @@ )? )? \")\""`
	Within   *gWithin `parser:"@@?"`
	Over     *gOver   `parser:"( \"OVER\" @@ )?"`
}

// gOver is a window: OVER ([PARTITION BY …] [ORDER BY …] [frame]); the
// resolver rejects what is not supported with its position.
type gOver struct {
	Pos       lexer.Position
	Partition []*gExpr  `parser:"\"(\" ( \"PARTITION\" \"BY\" @@ ( \",\" @@ )* )?"`
	OrderBy   []*gOrder `parser:"( \"ORDER\" \"BY\" @@ ( \",\" @@ )* )?"`
	Frame     *gFrame   `parser:"@@? \")\""`
}

// gFrame is a window frame (ROWS|RANGE|GROUPS …), parsed to be rejected.
type gFrame struct {
	Pos  lexer.Position
	Kind string   `parser:"@( \"ROWS\" | \"RANGE\" | \"GROUPS\" )"`
	Rest []string `parser:"@( ~\")\" )*"`
}

// gWithin is the WITHIN GROUP (ORDER BY x [ASC|DESC]) of an ordered-set
// aggregate (PERCENTILE_CONT, PERCENTILE_DISC, MODE).
type gWithin struct {
	Pos   lexer.Position
	Order *gOrder `parser:"\"WITHIN\" \"GROUP\" \"(\" \"ORDER\" \"BY\" @@ \")\""`
}

type gCol struct {
	Pos    lexer.Position
	First  string `parser:"@Ident"`
	Second string `parser:"( \".\" @Ident )?"`
}

// bareIdent reports whether g is just an unqualified identifier, returning it.
func (g *gExpr) bareIdent() (string, bool) {
	if p := g.prim(); p != nil && p.Col != nil && p.Col.Second == "" {
		return p.Col.First, true
	}
	return "", false
}

// prim returns the primary g consists of, or nil if g has operators.
func (g *gExpr) prim() *gPrim {
	if g == nil || len(g.Right) > 0 {
		return nil
	}
	a := g.Left
	if len(a.Right) > 0 || a.Left.Pred == nil {
		return nil
	}
	p := a.Left.Pred
	if p.Cmp != nil || p.Between != nil || p.In != nil || p.Like != nil {
		return nil
	}
	return p.Left.prim()
}

func (g *gAdd) prim() *gPrim {
	if len(g.Right) > 0 {
		return nil
	}
	if u := g.Left.unary(); u != nil {
		return u.Prim
	}
	return nil
}

// unary returns the unary expression g consists of, or nil if g has
// operators.
func (g *gMul) unary() *gUnary {
	if len(g.Right) > 0 || len(g.Left.Right) > 0 {
		return nil
	}
	return g.Left.Left
}

// unquote strips the quotes of a SQL string literal and undoubles ”.
func unquote(s string) string {
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	return strings.ReplaceAll(s, "''", "'")
}
