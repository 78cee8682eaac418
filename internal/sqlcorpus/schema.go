// Package sqlcorpus generates random queries in toastgen's dialect sql, of
// the kind SQL engines test themselves with (sqllogictest-style), and holds
// the acceptance harness that measures how much of plain SQL with NULLs the
// compiler accepts and checks what it accepts against SQLite (a test-only
// helper; see harness_test.go).
//
// A generated Query is a schema of 2–3 relations with 2–4 columns each
// (INT, FLOAT, STRING; mostly nullable, some NOT NULL; mostly streams, some
// static tables) and one SELECT over it: expressions (arithmetic with INT /
// INT, % and division by zero, ABS, ROUND, LENGTH, UPPER, LOWER, SUBSTR,
// TRIM, ||, CAST), conditions (comparisons, AND/OR/NOT, BETWEEN, IN lists,
// IS [NOT] NULL, IS [NOT] DISTINCT FROM, LIKE), CASE with and without
// ELSE, COALESCE/NULLIF/IFNULL, aggregates with and without DISTINCT,
// GROUP BY (nullable keys too), HAVING, SELECT DISTINCT, comma joins,
// JOIN … ON and LEFT/RIGHT/FULL JOIN, [NOT] IN and [NOT] EXISTS
// subqueries and scalar subqueries, correlated or not.
//
// The generator writes only SQL that SQLite accepts and that has one
// answer: every column reference is qualified by a unique alias, every
// binary operation is parenthesized, compared operands are both numeric or
// both strings, CASE and COALESCE branches have one type, a scalar
// subquery is an aggregate without GROUP BY (exactly one row), and there
// is no ORDER BY, LIMIT, or bare column beside an aggregate. Each
// construct it writes is recorded in Query.Features.
package sqlcorpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Type is a column or expression type.
type Type uint8

const (
	Int Type = iota
	Float
	String
)

func (t Type) String() string { return [...]string{"INT", "FLOAT", "STRING"}[t] }

// numeric reports whether t is INT or FLOAT.
func (t Type) numeric() bool { return t != String }

// SQLite is the type's SQLite column type.
func (t Type) SQLite() string { return [...]string{"INTEGER", "REAL", "TEXT"}[t] }

// Column is a column of a generated relation.
type Column struct {
	Name    string // lower case
	Type    Type
	NotNull bool
}

// Table is a generated relation: a stream or a static table.
type Table struct {
	Name    string // upper case
	Stream  bool
	Columns []Column
}

// Query is a generated schema and query.
type Query struct {
	Seed   int64
	Tables []Table
	SQL    string // the SELECT statement, without ';'
	// RawSQL, when set, is the SELECT as SQLite runs it where it cannot
	// run SQL (INTERSECT ALL, EXCEPT ALL: see gen.compound).
	RawSQL   string
	Features []string // the constructs the query uses, sorted
}

// File is the query file: the CREATE statements and the SELECT.
func (q *Query) File() string {
	var b strings.Builder
	for _, t := range q.Tables {
		kind := "STREAM"
		if !t.Stream {
			kind = "TABLE"
		}
		var cols []string
		for i, c := range t.Columns {
			typ := c.Type.String()
			if c.Type == String && i%2 == 1 {
				typ = "VARCHAR(30)"
			}
			if c.NotNull {
				typ += " NOT NULL"
			}
			cols = append(cols, c.Name+" "+typ)
		}
		fmt.Fprintf(&b, "CREATE %s %s (%s);\n", kind, t.Name, strings.Join(cols, ", "))
	}
	b.WriteString(q.SQL + ";\n")
	return b.String()
}

// NotNull returns q with every column declared NOT NULL: the same query
// over a schema (and streams) without NULLs.
func (q *Query) NotNull() *Query {
	out := *q
	out.Tables = nil
	for _, t := range q.Tables {
		t.Columns = slices.Clone(t.Columns)
		for i := range t.Columns {
			t.Columns[i].NotNull = true
		}
		out.Tables = append(out.Tables, t)
	}
	return &out
}

// Words are the string literals the generator compares with; the streams
// draw their strings from oracle.DefaultWords, which these overlap.
var words = []string{"apple", "banana", "promo", "PROMO BRUSHED", "a", "ab", "R", "N", "zzz", ""}

// likePatterns match some of oracle.DefaultWords (case-sensitively).
var likePatterns = []string{"a%", "%a%", "PROMO%", "%s", "_", "a_", "%#00_", "promo", "%ED%", "%", "Customer%", "%an%"}

// schema draws 2 or 3 relations of 2 to 4 columns each. Each relation has
// at least one INT column (for joins and correlations); a column is NOT
// NULL with probability 1/4.
func schema(rng *rand.Rand) []Table {
	names := []string{"R", "S", "T"}
	n := 2 + rng.IntN(2)
	var ts []Table
	for i := range n {
		t := Table{Name: names[i], Stream: i == 0 || rng.IntN(5) != 0}
		k := 2 + rng.IntN(3)
		for j := range k {
			c := Column{Name: strings.ToLower(names[i]) + string(rune('a'+j)), NotNull: rng.IntN(4) == 0}
			switch r := rng.IntN(10); {
			case j == 0 || r < 5:
				c.Type = Int
			case r < 7:
				c.Type = Float
			default:
				c.Type = String
			}
			t.Columns = append(t.Columns, c)
		}
		ts = append(ts, t)
	}
	return ts
}

// Generate returns the query of seed: deterministic for a seed.
func Generate(seed int64) *Query {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5c1c0))
	g := &gen{rng: rng, tables: schema(rng), feats: map[string]bool{}}
	q := &Query{Seed: seed, Tables: g.tables}
	q.SQL = g.top()
	q.RawSQL = g.raw
	for f := range g.feats {
		q.Features = append(q.Features, f)
	}
	slices.Sort(q.Features)
	return q
}
