package lang

import (
	"fmt"

	"github.com/toastgen/toastgen/runtime"
)

// Type is the SQL type of a resolved expression.
type Type uint8

// Types of the dialect. TBool is the type of conditions; it is not a column type.
const (
	TInvalid Type = iota
	TInt          // INT, INTEGER: int64
	TFloat        // FLOAT, DOUBLE, DECIMAL: float64
	TString       // CHAR(n), VARCHAR(n), STRING, TEXT: string
	TDate         // DATE: runtime.Date
	TBool         // conditions
	TNull         // the NULL literal before its context gives it a type (dialect sql)
)

func (t Type) String() string {
	switch t {
	case TInt:
		return "INT"
	case TFloat:
		return "FLOAT"
	case TString:
		return "STRING"
	case TDate:
		return "DATE"
	case TBool:
		return "BOOL"
	case TNull:
		return "NULL"
	}
	return "INVALID"
}

// Numeric reports whether t is INT or FLOAT.
func (t Type) Numeric() bool { return t == TInt || t == TFloat }

// Pos is a source position; Line and Col are 1-based.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Dialect is the semantics a file is read with (see DESIGN.md).
type Dialect uint8

const (
	// DBToaster is DBToaster's dialect: no NULLs (every column NOT NULL), a
	// scalar aggregate over no rows is 0, x / 0 is 0, / is real division.
	DBToaster Dialect = iota
	// SQL is standard SQL as PostgreSQL and SQLite agree on it: NULLs and
	// three-valued logic, aggregates that ignore NULLs, INT / INT truncating.
	SQL
)

func (d Dialect) String() string {
	if d == SQL {
		return "sql"
	}
	return "dbtoaster"
}

// ParseDialect reads a -dialect flag value.
func ParseDialect(s string) (Dialect, error) {
	switch s {
	case "sql":
		return SQL, nil
	case "dbtoaster":
		return DBToaster, nil
	}
	return 0, fmt.Errorf("unknown dialect %q (want sql or dbtoaster)", s)
}

// File is a parsed and resolved query file, INCLUDEs expanded.
type File struct {
	Path      string
	Dialect   Dialect
	Relations []*Relation // CREATE STREAM / CREATE TABLE, in declaration order
	Queries   []*Query    // top-level SELECT statements (CREATE VIEW included), in order; see Query.Name

	src sources // the text of every file read, for positioned errors
}

// Errorf returns an error at p, with the source line when p is in a file
// that was read for f. Later stages use it to reject constructs.
func (f *File) Errorf(p Pos, format string, args ...any) *Error {
	return f.src.errorf(p, format, args...)
}

// Relation is a declared stream or table.
type Relation struct {
	Pos     Pos
	Name    string // upper case
	Stream  bool   // CREATE STREAM (true) or CREATE TABLE (false)
	Columns []*Column
	// Key holds the positions of the columns of the PRIMARY KEY, if one is
	// declared: a promise that no two tuples of the relation that are
	// present at once agree on them. Generated code uses it only to choose
	// cheaper hash keys for maps (a map keyed by a key and columns it
	// determines hashes the key alone); results do not depend on it, and
	// data that break the promise are still processed correctly, more
	// slowly.
	Key    []int
	Source *Source // nil without a FROM FILE clause
}

// Column is a column of a declared relation.
type Column struct {
	Pos      Pos
	Name     string // upper case
	Label    string // the name as written
	Type     Type
	Nullable bool // dialect sql, unless declared NOT NULL; never in dialect dbtoaster
}

// Source is a FROM FILE clause: the file, its framing (how its bytes split
// into records) and its adaptor (how a record becomes events).
type Source struct {
	Pos    Pos
	Path   string            // as written
	Format string            // the adaptor: "CSV" or "ORDERBOOK"
	Params map[string]string // lower-case keys, values as written: delimiter, deletions, book, brokers, deterministic
	// Framing: LINE DELIMITED (both zero), '<RecordSep>' DELIMITED, or
	// FIXEDWIDTH RecordWidth.
	RecordSep   string
	RecordWidth int
}

// Query is a resolved SELECT, or a compound query — UNION, INTERSECT or
// EXCEPT, [ALL] — of SELECTs when Union is non-empty (then only Pos, Name,
// Union, SetOp, UnionAll and Items — copied from the first branch, naming
// the columns — are set). One Query has one operator: a chain that mixes
// operators nests to the left, its first branch being the compound of the
// arms before the operator changes. All compound operators bind equally,
// left to right, as in SQLite (PostgreSQL binds INTERSECT tighter).
type Query struct {
	Pos Pos
	// Name is, for a top-level query, the view's name: as written for a
	// view named by a `-- name: X` comment or CREATE VIEW X AS (Named),
	// else QUERY<n>, n its position among the file's queries. For a
	// derived table it is the alias.
	Name string
	// Named reports a top-level query named by `-- name:` or CREATE VIEW;
	// NamePos is where the name is written.
	Named    bool
	NamePos  Pos
	Distinct bool
	From     []*FromItem
	Where    Expr   // nil when absent; JOIN … ON and NATURAL JOIN conditions are AND-ed in here, but for those inside an outer join (Joins)
	GroupBy  []Expr // resolved GROUP BY expressions (a select alias is replaced by its expression)
	Having   Expr   // nil when absent
	// Qualify filters the rows of a query with window functions after
	// their windows are computed (nil: none): SQL's QUALIFY, which toastgen
	// reads from the WHERE of a SELECT over a derived table with windows
	// (qualify.go).
	Qualify Expr
	Items   []*SelectItem
	// OrderBy orders a top-level query's rows (see Order); elsewhere it
	// changes nothing.
	OrderBy []*OrderItem
	// Limit is the LIMIT and OFFSET of a top-level SELECT (nil: none).
	Limit *Limit
	// Joins holds the elements of the FROM list that contain an outer
	// join, as trees over From's items (see Join); nil without outer joins.
	Joins []*Join
	Union []*Query
	SetOp SetOp // the operator between the branches of Union
	// UnionAll: the operator's ALL form (bag semantics), for any SetOp.
	UnionAll bool
}

// SetOp is the operator of a compound query.
type SetOp int

// The compound operators.
const (
	Union SetOp = iota
	Intersect
	Except
)

func (o SetOp) String() string { return [...]string{"UNION", "INTERSECT", "EXCEPT"}[o] }

// setOpOf reads an operator as the grammar writes it.
func setOpOf(s string) SetOp {
	switch s {
	case "INTERSECT":
		return Intersect
	case "EXCEPT":
		return Except
	}
	return Union
}

// FromItem is one entry of a FROM list: a base relation or a derived table.
type FromItem struct {
	Pos   Pos
	Alias string    // upper case; the relation name when no alias is given
	Rel   *Relation // set for a base relation
	Sub   *Query    // set for a derived table (subquery in FROM)
	// Padded reports an item on the NULL-supplying side of an outer join:
	// in the rows that join pads, each of its columns is NULL, so every
	// one may be NULL in the query, NOT NULL ones too.
	Padded bool
}

// JoinKind is the operator of a Join node.
type JoinKind uint8

const (
	JoinItem  JoinKind = iota // a leaf: the FROM item From[Item]
	JoinInner                 // L JOIN R ON On; a cross join (CROSS JOIN, a comma in parentheses) when On is nil
	JoinLeft                  // L LEFT JOIN R ON On: every row of L, R's columns NULL where nothing matches
	JoinRight                 // L RIGHT JOIN R ON On: every row of R, L's columns NULL where nothing matches
	JoinFull                  // L FULL JOIN R ON On: both
)

// Join is a node of the tree of a FROM element that holds an outer join.
// The FROM list stays flat (Query.From); the tree says where each ON
// condition applies, since an outer join's condition filters nothing but
// its own operands' matches. Inner joins inside the tree keep their ON
// condition in the tree when an outer join pads one of their operands;
// otherwise the condition is AND-ed into Where (the same rows), so that its
// equalities still join by lookup. A tree's leaves are consecutive items of
// From, in order. The items of a padded side are marked FromItem.Padded.
type Join struct {
	Pos  Pos
	Kind JoinKind
	Item int // JoinItem: index into Query.From
	L, R *Join
	On   Expr // nil for JoinItem and cross joins
}

// Items returns the FROM indexes of j's leaves, in order.
func (j *Join) Items() []int {
	if j.Kind == JoinItem {
		return []int{j.Item}
	}
	return append(j.L.Items(), j.R.Items()...)
}

func (k JoinKind) String() string {
	switch k {
	case JoinLeft:
		return "LEFT JOIN"
	case JoinRight:
		return "RIGHT JOIN"
	case JoinFull:
		return "FULL JOIN"
	case JoinInner:
		return "JOIN"
	}
	return "item"
}

// Columns returns the column names and types a FROM item provides.
func (f *FromItem) Columns() (names []string, types []Type) {
	if f.Rel != nil {
		for _, c := range f.Rel.Columns {
			names = append(names, c.Name)
			types = append(types, c.Type)
		}
		return
	}
	for _, it := range f.Sub.Items {
		names = append(names, it.Name)
		types = append(types, it.Expr.Type())
	}
	return
}

// SelectItem is a result column.
type SelectItem struct {
	Pos Pos
	// Name is the alias, upper case; else the column name for a bare
	// column; else COL<i> (1-based). Names are unique within a query: a
	// derived name that another item has is qualified by its table alias
	// (M_NAME) or numbered (COL1_2).
	Name string
	// Label is the name SQLite gives the result column, which may repeat:
	// the alias as written, else the column's name as declared for a bare
	// column, else the item's source text (`a+1`, `sum( x )`).
	Label string
	Expr  Expr
}

// OrderItem is an ORDER BY entry. Col is the index of the SELECT item it
// names — by alias, by position (ORDER BY 2) or by repeating the item's
// expression — or -1.
type OrderItem struct {
	Expr Expr
	Desc bool
	Col  int
}

// Limit is LIMIT Count [OFFSET Offset]: the view holds the rows at
// positions Offset to Offset+Count−1 of the query's result in its order.
type Limit struct {
	P             Pos
	Count, Offset int64
}

// Expr is a resolved, typed expression.
type Expr interface {
	Pos() Pos
	Type() Type
}

// Lit is a literal. Exactly the field matching T is meaningful, none when
// Null is set (the NULL literal, typed by its context, else TInt).
type Lit struct {
	P     Pos
	T     Type // TInt, TFloat, TString or TDate
	Null  bool
	Int   int64
	Float float64
	Str   string
	Date  runtime.Date
}

// ColRef is a column of a FROM item of this query or of an enclosing one.
type ColRef struct {
	P     Pos
	Outer int    // 0: a FROM item of the innermost query; 1: of the enclosing query; …
	From  int    // index into that query's From
	Col   int    // column index within the FROM item
	Alias string // the FROM item's alias, upper case
	Name  string // the column name, upper case
	T     Type
	Null  bool // the column may hold NULL (see MayBeNull)
}

// Unary is NOT x (TBool) or -x (numeric).
type Unary struct {
	P  Pos
	Op string // "NOT" or "-"
	X  Expr
	T  Type
}

// Binary is arithmetic, comparison or logic. Op is one of
// + - * / % = != < <= > >= AND OR ("<>" is normalized to "!="), and, in
// dialect sql, IS (IS NOT DISTINCT FROM) and IS NOT (IS DISTINCT FROM).
// "/" has type TFloat in dialect dbtoaster; in dialect sql INT / INT is INT
// (truncated toward zero). BETWEEN is desugared to (x >= lo AND x <= hi).
type Binary struct {
	P    Pos
	Op   string
	L, R Expr
	T    Type
}

// Like is x [NOT] LIKE pattern; the pattern is a string literal.
type Like struct {
	P       Pos
	X       Expr
	Pattern string
	Not     bool
}

// InList is x [NOT] IN (e1, e2, …).
type InList struct {
	P    Pos
	X    Expr
	List []Expr
	Not  bool
}

// Case is a searched CASE; a simple CASE x WHEN v … is normalized to WHEN x = v.
// Else is nil when absent (the value is then 0 of the result type).
type Case struct {
	P     Pos
	Whens []*When
	Else  Expr
	T     Type
}

// When is one WHEN cond THEN result arm.
type When struct {
	Cond, Then Expr
}

// Call is a scalar function call. Names (upper case) and normal forms:
//
//	SUBSTRING(s, start, len)      start counts from 0
//	DATE_PART(unit, d)            unit a TString Lit "YEAR", "MONTH" or "DAY"; EXTRACT(u FROM d) becomes this
//	DATE_ADD(d, n, unit)          d + INTERVAL 'n' unit (n negated for -); unit "DAY"/"MONTH"/"YEAR"; folded to a Lit when d is a Lit
//	CAST_INT(x), CAST_FLOAT(x), CAST_STRING(x), CAST_DATE(x)   CAST(x AS t) becomes the matching one
//	LISTMIN(a, …), LISTMAX(a, …)
//	REGEXP_MATCH(re, s)           re a string Lit; TInt 1 or 0
type Call struct {
	P    Pos
	Name string
	Args []Expr
	T    Type
}

// Agg is an aggregate: SUM, COUNT, AVG, MIN, MAX, one of StatAggs or one
// of the holistic aggregates PERCENTILE_CONT, PERCENTILE_DISC and MODE. Arg
// is nil for COUNT(*). A holistic aggregate's Arg is the expression of its
// WITHIN GROUP (ORDER BY Arg [DESC]), Desc that order; a percentile's
// fraction is Frac. MEDIAN(x) is PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER
// BY x), MODE(x) is MODE() WITHIN GROUP (ORDER BY x).
type Agg struct {
	P        Pos
	Fn       string
	Arg      Expr
	Distinct bool
	Frac     float64
	Desc     bool
	// Over, for a window aggregate (SUM, COUNT, AVG, MIN or MAX …
	// OVER (PARTITION BY …)), is its window: the aggregate is over the rows
	// of the query that share the row's partition, and the query is not
	// aggregated (see window.go).
	Over *Window
	T    Type
	Null bool // the value may be NULL: no non-NULL input (dialect sql; see MayBeNull)
}

// Window is the OVER clause of a window aggregate: its PARTITION BY
// expressions (none: one partition of every row).
type Window struct {
	P         Pos
	Partition []Expr
	// Order, when set, is the window's ORDER BY (one expression, DESC with
	// Desc): the aggregate is then a running one, over the rows of the
	// partition up to the row's peers included (RANGE BETWEEN UNBOUNDED
	// PRECEDING AND CURRENT ROW), and RANK and DENSE_RANK count the rows or
	// the distinct values before the row's.
	Order Expr
	Desc  bool
	// Then are the ORDER BY expressions after the first: rows with equal
	// Order are ordered by them, in turn.
	Then []*WindowKey
	// Ties, for ROW_NUMBER, break the ties of Order: the keys of its
	// query's view (its SELECT columns without windows, then its unselected
	// keys), each ascending with NULLs first; copies of one row are numbered
	// one after the other.
	Ties []Expr
}

// WindowKey is an expression of a window's ORDER BY after the first.
type WindowKey struct {
	Expr Expr
	Desc bool
}

// Subquery is a scalar subquery (one aggregate column).
type Subquery struct {
	P    Pos
	Q    *Query
	T    Type
	Null bool // the value may be NULL (dialect sql; see MayBeNull)
}

// Exists is [NOT] EXISTS (subquery).
type Exists struct {
	P   Pos
	Q   *Query
	Not bool
}

// InQuery is x [NOT] IN (subquery).
type InQuery struct {
	P   Pos
	X   Expr
	Q   *Query
	Not bool
}

// IsNull is x IS [NOT] NULL (dialect sql); never NULL itself.
type IsNull struct {
	P   Pos
	X   Expr
	Not bool
}

// Quantified is x op SOME|ANY|ALL (subquery); ANY is reported as SOME.
type Quantified struct {
	P   Pos
	Op  string
	X   Expr
	All bool
	Q   *Query
}

func (e *Lit) Pos() Pos        { return e.P }
func (e *ColRef) Pos() Pos     { return e.P }
func (e *Unary) Pos() Pos      { return e.P }
func (e *Binary) Pos() Pos     { return e.P }
func (e *Like) Pos() Pos       { return e.P }
func (e *InList) Pos() Pos     { return e.P }
func (e *Case) Pos() Pos       { return e.P }
func (e *Call) Pos() Pos       { return e.P }
func (e *Agg) Pos() Pos        { return e.P }
func (e *Subquery) Pos() Pos   { return e.P }
func (e *Exists) Pos() Pos     { return e.P }
func (e *InQuery) Pos() Pos    { return e.P }
func (e *Quantified) Pos() Pos { return e.P }
func (e *IsNull) Pos() Pos     { return e.P }

func (e *Lit) Type() Type        { return e.T }
func (e *ColRef) Type() Type     { return e.T }
func (e *Unary) Type() Type      { return e.T }
func (e *Binary) Type() Type     { return e.T }
func (e *Like) Type() Type       { return TBool }
func (e *InList) Type() Type     { return TBool }
func (e *Case) Type() Type       { return e.T }
func (e *Call) Type() Type       { return e.T }
func (e *Agg) Type() Type        { return e.T }
func (e *Subquery) Type() Type   { return e.T }
func (e *Exists) Type() Type     { return TBool }
func (e *InQuery) Type() Type    { return TBool }
func (e *Quantified) Type() Type { return TBool }
func (e *IsNull) Type() Type     { return TBool }
