// Package oracle is the correctness oracle of toastgen's test suites: it keeps
// the base relations of a query file in an in-memory SQLite database
// (modernc.org/sqlite, pure Go), recomputes each view from scratch with the
// SQL that lang.SQLite writes, and compares the result with the view of an
// engine (the viewlet interpreter or a generated package). It also generates
// random insert/delete streams whose deletes remove tuples that are present.
//
// The SQLite conventions are those lang.SQLite assumes: one table per
// declared relation with the same column names; INT→INTEGER, FLOAT→REAL,
// STRING→TEXT, DATE→INTEGER holding yyyymmdd (runtime.Date's value);
// PRAGMA case_sensitive_like=ON; and the scalar functions tg_date_add,
// tg_regexp_match, tg_cast_string, tg_cast_date, the tg_hash family and one
// tg_<name> per runtime.MathFuncs entry (tg_sqrt, tg_dihedral_angle, …), all
// implemented with the runtime package, so the oracle and the engines share
// those definitions (and round floats alike: SQLite's own math functions,
// where compiled in, are not used).
//
// The package is non-test code so that the viewlet, codegen and cmd tests can
// all use it; it is not meant for production use.
package oracle

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"modernc.org/sqlite"
)

// DB is an in-memory SQLite database holding the current base relations of a
// query file. A DB is not safe for concurrent use.
type DB struct {
	dialect lang.Dialect
	db      *sql.DB
	rels    map[string]*lang.Relation
	ins     map[string]*sql.Stmt
	del     map[string]*sql.Stmt
	views   map[*lang.Query]*sql.Stmt
	// lazy holds the CREATE INDEX statements that the first View runs:
	// rows loaded before it (a whole data set, when only the final views
	// are compared) then update one index per table, not one per column.
	lazy []string
}

// scalarFn is an SQLite scalar function to register.
type scalarFn struct {
	name string
	n    int32
	fn   func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error)
}

var (
	registerOnce sync.Once
	registerErr  error
)

// register installs the tg_* scalar functions in the "sqlite" driver. The
// registration is global to the driver and applies to connections opened
// afterwards, so it runs once per process.
func register() error {
	registerOnce.Do(func() {
		var re sync.Map // pattern → *regexp.Regexp
		fns := []scalarFn{
			{"tg_date_add", 3, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				if a[0] == nil || a[1] == nil || a[2] == nil {
					return nil, nil
				}
				d, ok1 := a[0].(int64)
				n, ok2 := a[1].(int64)
				unit, ok3 := a[2].(string)
				if !ok1 || !ok2 || !ok3 {
					return nil, fmt.Errorf("tg_date_add(%T, %T, %T): want (INTEGER, INTEGER, TEXT)", a[0], a[1], a[2])
				}
				return int64(runtime.DateAdd(runtime.Date(d), n, unit)), nil
			}},
			{"tg_regexp_match", 2, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				if a[0] == nil || a[1] == nil {
					return nil, nil
				}
				p, ok1 := a[0].(string)
				s, ok2 := a[1].(string)
				if !ok1 || !ok2 {
					return nil, fmt.Errorf("tg_regexp_match(%T, %T): want (TEXT, TEXT)", a[0], a[1])
				}
				r, ok := re.Load(p)
				if !ok {
					r, _ = re.LoadOrStore(p, runtime.CompileRegexp(p))
				}
				return runtime.RegexpMatch(r.(*regexp.Regexp), s), nil
			}},
			{"tg_cast_string", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				// A DATE argument arrives as its yyyymmdd INTEGER and is
				// indistinguishable from an INT: it is rendered as an int.
				switch x := a[0].(type) {
				case nil:
					return nil, nil
				case int64:
					return runtime.CastStringFromInt(x), nil
				case float64:
					return runtime.CastStringFromFloat(x), nil
				case string:
					return x, nil
				case []byte:
					return string(x), nil
				}
				return nil, fmt.Errorf("tg_cast_string(%T)", a[0])
			}},
			{"tg_cast_date", 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				switch x := a[0].(type) {
				case nil:
					return nil, nil
				case string:
					return int64(runtime.CastDate(x)), nil
				case []byte:
					return int64(runtime.CastDate(string(x))), nil
				case int64: // already a date
					return x, nil
				}
				return nil, fmt.Errorf("tg_cast_date(%T)", a[0])
			}},
		}
		hash := func(name string, h func(driver.Value) (int64, bool)) {
			fns = append(fns, scalarFn{name, 1, func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				if a[0] == nil {
					return nil, nil
				}
				v, ok := h(a[0])
				if !ok {
					return nil, fmt.Errorf("%s(%T): unexpected argument type", name, a[0])
				}
				return v, nil
			}})
		}
		hash("tg_hash", func(v driver.Value) (int64, bool) {
			i, ok := v.(int64)
			return runtime.Hash(i), ok
		})
		hash("tg_hash_float", func(v driver.Value) (int64, bool) {
			f, ok := toFloat(v)
			return runtime.HashFloat(f), ok
		})
		hash("tg_hash_string", func(v driver.Value) (int64, bool) {
			switch s := v.(type) {
			case string:
				return runtime.HashString(s), true
			case []byte:
				return runtime.HashString(string(s)), true
			}
			return 0, false
		})
		for name, m := range runtime.MathFuncs {
			name := "tg_" + strings.ToLower(name)
			fns = append(fns, scalarFn{name, int32(m.Arity), func(_ *sqlite.FunctionContext, a []driver.Value) (driver.Value, error) {
				fs := make([]float64, len(a))
				for i, v := range a {
					if v == nil {
						return nil, nil
					}
					f, ok := toFloat(v)
					if !ok {
						return nil, fmt.Errorf("%s: argument %d is %T, want a number", name, i+1, v)
					}
					fs[i] = f
				}
				// A NaN result becomes NULL in SQLite.
				return m.Eval(fs), nil
			}})
		}
		for _, f := range fns {
			if err := sqlite.RegisterDeterministicScalarFunction(f.name, f.n, f.fn); err != nil {
				registerErr = fmt.Errorf("oracle: registering %s: %w", f.name, err)
				return
			}
		}
		if err := registerStats(); err != nil {
			registerErr = fmt.Errorf("oracle: registering the statistical aggregates: %w", err)
		}
		if err := registerHolistic(); err != nil {
			registerErr = fmt.Errorf("oracle: registering the ordered-set aggregates: %w", err)
		}
	})
	return registerErr
}

// toFloat converts an SQLite numeric argument to float64.
func toFloat(v driver.Value) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// sqlType is the SQLite column type of a dialect type.
func sqlType(t lang.Type) string {
	switch t {
	case lang.TInt, lang.TDate:
		return "INTEGER"
	case lang.TFloat:
		return "REAL"
	}
	return "TEXT"
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Open creates an in-memory database with one empty table per relation of f
// (streams and static tables alike).
func Open(f *lang.File) (*DB, error) {
	if err := register(); err != nil {
		return nil, err
	}
	sdb, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	// Every connection to ":memory:" is a separate database: keep exactly one.
	sdb.SetMaxOpenConns(1)
	sdb.SetMaxIdleConns(1)
	sdb.SetConnMaxLifetime(0)
	db := &DB{dialect: f.Dialect, db: sdb, rels: map[string]*lang.Relation{}, ins: map[string]*sql.Stmt{},
		del: map[string]*sql.Stmt{}, views: map[*lang.Query]*sql.Stmt{}}
	// No rollback journal: the database lives and dies in memory, and no
	// statement of the oracle is ever rolled back; copying each written
	// page to a journal was a quarter of loading a data set.
	for _, pragma := range []string{"PRAGMA case_sensitive_like=ON", "PRAGMA journal_mode=OFF"} {
		if _, err := sdb.Exec(pragma); err != nil {
			sdb.Close()
			return nil, err
		}
	}
	for _, r := range f.Relations {
		db.rels[r.Name] = r
		var cols, names, marks, conds []string
		for _, c := range r.Columns {
			cols = append(cols, ident(c.Name)+" "+sqlType(c.Type))
			names = append(names, ident(c.Name))
			marks = append(marks, "?")
			conds = append(conds, ident(c.Name)+" IS ?") // IS: a NULL field matches NULL
		}
		t := ident(r.Name)
		create := "CREATE TABLE " + t + " (" + strings.Join(cols, ", ") + ")"
		stmts := []string{create}
		// One covering index led by each column: equi-joins and the
		// delete's lookup probe an index instead of scanning the table, and
		// read the other columns from the index. The view queries run after
		// every event, so this is most of the test suites' time. The first
		// (all columns in order) serves the deletes and exists from the
		// start; the others are created by the first View.
		for i := range r.Columns {
			lead := append([]string{names[i]}, names[:i]...)
			lead = append(lead, names[i+1:]...)
			index := fmt.Sprintf("CREATE INDEX %s ON %s (%s)", ident(fmt.Sprintf("%s_%d", r.Name, i)), t, strings.Join(lead, ", "))
			if i == 0 {
				stmts = append(stmts, index)
			} else {
				db.lazy = append(db.lazy, index)
			}
		}
		for _, s := range stmts {
			if _, err := sdb.Exec(s); err != nil {
				sdb.Close()
				return nil, fmt.Errorf("oracle: %s: %w", s, err)
			}
		}
		ins, err := sdb.Prepare("INSERT INTO " + t + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")")
		if err != nil {
			sdb.Close()
			return nil, err
		}
		del, err := sdb.Prepare("DELETE FROM " + t + " WHERE rowid IN (SELECT rowid FROM " + t +
			" WHERE " + strings.Join(conds, " AND ") + " LIMIT 1)")
		if err != nil {
			sdb.Close()
			return nil, err
		}
		db.ins[r.Name], db.del[r.Name] = ins, del
	}
	return db, nil
}

// SkipIndexes drops the per-column indexes that the first View would
// build, for a caller that reads the views once, after loading a whole data
// set: SQLite then builds a transient index for each join that needs one,
// cheaper than indexing every column of every table.
func (db *DB) SkipIndexes() { db.lazy = nil }

// Close releases the database.
func (db *DB) Close() error { return db.db.Close() }

// args converts a tuple of int64, float64, string or runtime.Date values to
// SQLite arguments, checking them against the relation's columns.
func (db *DB) args(rel string, tuple []any) (*lang.Relation, []any, error) {
	r := db.rels[strings.ToUpper(rel)]
	if r == nil {
		return nil, nil, fmt.Errorf("oracle: unknown relation %s", rel)
	}
	if len(tuple) != len(r.Columns) {
		return nil, nil, fmt.Errorf("oracle: %s has %d columns, tuple has %d", r.Name, len(r.Columns), len(tuple))
	}
	out := make([]any, len(tuple))
	for i, v := range tuple {
		c := r.Columns[i]
		if v == nil && c.Nullable {
			continue // NULL
		}
		ok := false
		switch c.Type {
		case lang.TInt:
			_, ok = v.(int64)
		case lang.TFloat:
			_, ok = v.(float64)
		case lang.TString:
			_, ok = v.(string)
		case lang.TDate:
			var d runtime.Date
			if d, ok = v.(runtime.Date); ok {
				v = int64(d)
			}
		}
		if !ok {
			return nil, nil, fmt.Errorf("oracle: %s.%s is %s, got %T", r.Name, c.Name, c.Type, v)
		}
		out[i] = v
	}
	return r, out, nil
}

// Insert adds one row to relation rel. Tuple values are int64, float64,
// string or runtime.Date, one per column in declaration order.
func (db *DB) Insert(rel string, tuple []any) error {
	r, a, err := db.args(rel, tuple)
	if err != nil {
		return err
	}
	_, err = db.ins[r.Name].Exec(a...)
	return err
}

// Delete removes exactly one row of relation rel equal to tuple; deleting an
// absent tuple is an error (the oracle holds bags, not Z-sets).
func (db *DB) Delete(rel string, tuple []any) error {
	r, a, err := db.args(rel, tuple)
	if err != nil {
		return err
	}
	res, err := db.del[r.Name].Exec(a...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n != 1 {
		return fmt.Errorf("oracle: delete of absent tuple %s%v", r.Name, tuple)
	}
	return nil
}

// View recomputes the view of top-level query q from the current tables. Its
// columns are q.View()'s keys then values, its Columns q.Columns(); values are converted to the
// column's dialect type (int64, float64, string, runtime.Date), a NULL value
// becomes the type's zero, and rows are sorted by key with runtime.SortRows,
// the order engines report.
func (db *DB) View(q *lang.Query) (runtime.View, error) {
	keys, vals := q.View()
	v := runtime.View{Name: q.Name, Columns: q.Columns()}
	var types []lang.Type
	for _, k := range keys {
		v.Keys = append(v.Keys, runtime.Column{Name: k.Name, Type: columnType(k.Expr.Type())})
		types = append(types, k.Expr.Type())
	}
	for _, x := range vals {
		v.Values = append(v.Values, runtime.Column{Name: x.Name, Type: columnType(x.Expr.Type())})
		types = append(types, x.Expr.Type())
	}
	for _, s := range db.lazy {
		if _, err := db.db.Exec(s); err != nil {
			return v, fmt.Errorf("oracle: %s: %w", s, err)
		}
	}
	db.lazy = nil
	st := db.views[q]
	if st == nil {
		var err error
		if st, err = db.db.Prepare(lang.SQLiteIn(db.dialect, q)); err != nil {
			return v, fmt.Errorf("oracle: preparing %s: %w", q.Name, err)
		}
		db.views[q] = st
	}
	rows, err := st.Query()
	if err != nil {
		return v, fmt.Errorf("oracle: %s: %w", q.Name, err)
	}
	defer rows.Close()
	n := len(types)
	for rows.Next() {
		raw := make([]any, n)
		ptrs := make([]any, n)
		for i := range raw {
			ptrs[i] = &raw[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return v, err
		}
		row := make([]any, n)
		for i, x := range raw {
			isKey := i < len(keys)
			if x == nil && db.dialect == lang.SQL {
				continue // SQL NULL, nil in views
			}
			if row[i], err = convert(x, types[i], isKey); err != nil {
				name := ""
				if isKey {
					name = keys[i].Name
				} else {
					name = vals[i-len(keys)].Name
				}
				return v, fmt.Errorf("oracle: %s column %s: %w", q.Name, name, err)
			}
		}
		v.Rows = append(v.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return v, fmt.Errorf("oracle: %s: %w", q.Name, err)
	}
	// An ordered view's statement returns its rows in order (lang's
	// orderLimit); others are sorted by key.
	if v.Order = q.Order(); v.Order == nil {
		runtime.SortRows(v.Rows, len(keys))
	}
	if numbered := q.NumberedCopies(); len(numbered) > 0 {
		return numberedView(v, numbered)
	}
	return v, nil
}

// numberedView lays out the rows of a view whose ROW_NUMBERs tell the
// copies of a row apart (lang's Query.NumberedCopies), one row per copy as
// SQLite numbers them, as engines show them: the numbers among the keys
// (runtime.NumberCopies, which moves the columns of rows of multiplicity 1
// and expands nothing). SQL leaves the order of a row's copies to the
// engine, and so which number of one ROW_NUMBER goes with which of
// another: the copies of a row are paired in the order of each one's
// numbers, as engines pair them.
func numberedView(v runtime.View, numbered []int) (runtime.View, error) {
	nk := len(v.Keys)
	groups := map[string][][]any{}
	var order []string
	for _, r := range v.Rows {
		if n, _ := r[nk].(int64); n != 1 {
			return v, fmt.Errorf("oracle: %s: a row numbered %v has multiplicity %v", v.Name, r[nk+numbered[0]], r[nk])
		}
		k := fmt.Sprintf("%#v", r[:nk])
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	for _, k := range order {
		rows := groups[k]
		for _, j := range numbered {
			nums := make([]int64, len(rows))
			for i, r := range rows {
				nums[i], _ = r[nk+j].(int64)
			}
			slices.Sort(nums)
			for i, r := range rows {
				r[nk+j] = nums[i]
			}
		}
	}
	return runtime.NumberCopies(v, numbered), nil
}

// columnType maps a dialect type to the runtime's column type.
func columnType(t lang.Type) runtime.ColumnType {
	switch t {
	case lang.TInt:
		return runtime.Int
	case lang.TFloat:
		return runtime.Float
	case lang.TString:
		return runtime.String
	case lang.TDate:
		return runtime.DateType
	}
	return 0
}

// convert turns a value scanned from SQLite into the Go value of dialect
// type t. A NULL value is the zero of t (the dialect has no NULLs; SQLite
// produces them for aggregates of empty groups); a NULL key is an error.
func convert(x any, t lang.Type, key bool) (any, error) {
	if b, ok := x.([]byte); ok {
		x = string(b)
	}
	if x == nil {
		if key {
			return nil, errors.New("NULL key")
		}
		switch t {
		case lang.TInt:
			return int64(0), nil
		case lang.TFloat:
			return 0.0, nil
		case lang.TString:
			return "", nil
		case lang.TDate:
			return runtime.Date(0), nil
		}
	}
	switch t {
	case lang.TInt, lang.TBool:
		switch x := x.(type) {
		case int64:
			return x, nil
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int64(x), nil
			}
			return nil, fmt.Errorf("INT column holds the REAL %v", x)
		}
	case lang.TFloat:
		switch x := x.(type) {
		case int64:
			return float64(x), nil
		case float64:
			return x, nil
		}
	case lang.TString:
		if s, ok := x.(string); ok {
			return s, nil
		}
	case lang.TDate:
		if d, ok := x.(int64); ok {
			return runtime.Date(d), nil
		}
	}
	return nil, fmt.Errorf("%s column holds %T %v", t, x, x)
}
