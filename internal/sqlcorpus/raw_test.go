package sqlcorpus

import (
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"

	_ "modernc.org/sqlite" // the "sqlite" driver (package oracle registers its functions)
)

// rawDB is an SQLite database that runs a generated query's text as it
// is, independently of lang.SQLiteIn: the check that the oracle's
// translation means what the SQL says. Its tables are the query's, with
// the oracle's column types and PRAGMA case_sensitive_like=ON (toastgen's
// LIKE is case-sensitive in both dialects, as PostgreSQL's; SQLite's
// default LIKE folds ASCII case).
type rawDB struct {
	db       *sql.DB
	ins, del map[string]*sql.Stmt
	query    *sql.Stmt
}

func openRaw(q *Query) (*rawDB, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	r := &rawDB{db: db, ins: map[string]*sql.Stmt{}, del: map[string]*sql.Stmt{}}
	if _, err := db.Exec("PRAGMA case_sensitive_like=ON"); err != nil {
		db.Close()
		return nil, err
	}
	for _, t := range q.Tables {
		var cols, marks, conds []string
		for _, c := range t.Columns {
			cols = append(cols, c.Name+" "+c.Type.SQLite())
			marks = append(marks, "?")
			conds = append(conds, c.Name+" IS ?")
		}
		create := "CREATE TABLE " + t.Name + " (" + strings.Join(cols, ", ") + ")"
		if _, err := db.Exec(create); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", create, err)
		}
		if r.ins[t.Name], err = db.Prepare("INSERT INTO " + t.Name + " VALUES (" + strings.Join(marks, ", ") + ")"); err != nil {
			db.Close()
			return nil, err
		}
		if r.del[t.Name], err = db.Prepare("DELETE FROM " + t.Name + " WHERE rowid IN (SELECT rowid FROM " + t.Name +
			" WHERE " + strings.Join(conds, " AND ") + " LIMIT 1)"); err != nil {
			db.Close()
			return nil, err
		}
	}
	text := q.SQL
	if q.RawSQL != "" {
		text = q.RawSQL
	}
	if r.query, err = db.Prepare(text); err != nil {
		db.Close()
		return nil, fmt.Errorf("SQLite rejects the query: %w", err)
	}
	return r, nil
}

func (r *rawDB) Close() error { return r.db.Close() }

// fire applies one event.
func (r *rawDB) fire(rel string, insert bool, tuple []any) error {
	st := r.del[rel]
	if insert {
		st = r.ins[rel]
	}
	res, err := st.Exec(tuple...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n != 1 {
		return fmt.Errorf("raw SQLite: %d rows affected by %s of %v", n, map[bool]string{true: "insert", false: "delete"}[insert], tuple)
	}
	return nil
}

// rows runs the query: its rows, canonical (see canon), sorted.
func (r *rawDB) rows() ([]string, error) {
	rs, err := r.query.Query()
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rs.Next() {
		raw := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, canonRow(raw))
	}
	slices.Sort(out)
	return out, rs.Err()
}

// viewRows projects view v of q (keys then values, as package oracle and
// the engines report it) onto q's SELECT list, each row repeated by its
// multiplicity when q has no aggregate: the rows the SQL text gives,
// canonical and sorted.
func viewRows(q *lang.Query, v runtime.View) ([]string, error) {
	// The view's own columns: a ROW_NUMBER that numbers a bag's copies is
	// a key of its rows (runtime.NumberCopies).
	cols := v.OutputColumns()
	var out []string
	for _, row := range v.Rows {
		proj := make([]any, len(cols))
		for i, c := range cols {
			if c.Key {
				proj[i] = row[c.Index]
			} else {
				proj[i] = row[len(v.Keys)+c.Index]
			}
		}
		n := int64(1)
		if !q.Aggregated() {
			m, ok := row[len(v.Keys)].(int64)
			if !ok || m < 0 {
				return nil, fmt.Errorf("row %v: multiplicity %v", row, row[len(v.Keys)])
			}
			n = m
		}
		for range n {
			out = append(out, canonRow(proj))
		}
	}
	slices.Sort(out)
	return out, nil
}

// canonRow writes a row so that SQLite's values and the view's compare:
// numbers as floats to 12 significant digits (an INT view column holds
// int64, SQLite may hand the same value as a REAL), strings quoted, NULL.
func canonRow(row []any) string {
	var b strings.Builder
	for i, x := range row {
		if i > 0 {
			b.WriteString(" | ")
		}
		switch x := x.(type) {
		case nil:
			b.WriteString("NULL")
		case int64:
			b.WriteString(canonFloat(float64(x)))
		case float64:
			b.WriteString(canonFloat(x))
		case string:
			b.WriteString(strconv.Quote(x))
		case []byte:
			b.WriteString(strconv.Quote(string(x)))
		case runtime.Date:
			b.WriteString(canonFloat(float64(x)))
		default:
			fmt.Fprintf(&b, "%T(%v)", x, x)
		}
	}
	return b.String()
}

func canonFloat(x float64) string {
	if x == 0 || math.Abs(x) < 1e-9 {
		return "0"
	}
	return strconv.FormatFloat(x, 'g', 12, 64)
}

// diffRows describes the first difference of two sorted row lists, or "".
func diffRows(want, got []string) string {
	if slices.Equal(want, got) {
		return ""
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	at := func(rs []string) string {
		if i < len(rs) {
			return rs[i]
		}
		return "(none)"
	}
	return fmt.Sprintf("%d rows want, %d got; first difference at row %d:\n  want %s\n  got  %s", len(want), len(got), i, at(want), at(got))
}
