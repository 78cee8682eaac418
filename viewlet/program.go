package viewlet

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Program is the compiled form of a query file: the maps to keep, the views
// read out of them, and per base-relation event the statements that keep
// every map up to date.
type Program struct {
	Source    string       // the query file's path
	Dialect   lang.Dialect // the semantics of its expressions (x / 0, INT / INT)
	Relations []*lang.Relation
	Maps      []*Map
	Views     []*View
	Triggers  []*Trigger
	// SetTriggers are the set-at-a-time forms of the relations' triggers
	// that have one (settrigger.go): what a batch applies with the
	// SetAtATime policy.
	SetTriggers []*SetTrigger
	// StaticTables reports that the program's TABLEs are static (dialect
	// dbtoaster: its triggers lack the statements that only matter when a
	// table changes after stream events, see emptyWhileLoading): engines
	// reject an event on a table after the first stream event
	// (runtime.ErrStaticTable).
	StaticTables bool
}

// Map is a materialized map: a finite function from Keys to a ring value,
// always equal to Def evaluated on the current base relations.
type Map struct {
	Name string
	Keys []calculus.Var
	Type lang.Type     // TInt or TFloat
	Def  calculus.Term // AggSum(Keys, …)
	// Init is a keyless map's value before any event: its definition over
	// empty relations, non-zero when every relation of a monomial is nested
	// (a NOT EXISTS materialized on its own). See initial.go.
	Init float64
	// InitEntries are a keyed map's entries before any event (a constant
	// view such as SELECT 1, whose keys come from constants).
	InitEntries []InitEntry
	// HashKey, when set, holds the positions of the keys that determine the
	// others through the relations' primary keys (calculus.Determinant):
	// generated code hashes an entry by them alone and tells apart the
	// entries that share them (data that break a primary key) by their
	// other keys. It changes no result.
	HashKey []int
	// Kernel, when set, maintains the map instead of statements: a
	// runtime structure fed the entries of its input maps that the
	// triggers write (Trigger.Syncs). See kernel.go.
	Kernel *Kernel
}

// InitEntry is an entry of a map before any event: key values (int64,
// float64, string or runtime.Date, in the order of the map's keys) and the
// value.
type InitEntry struct {
	Keys  []any
	Value float64
}

// View is a query result read out of maps.
type View struct {
	Name  string
	Named bool // named in the query file (lang.Query.Named), not QUERY<n>
	Keys  []calculus.Column
	// Aggs are the maps holding the query's aggregates, keyed like the view
	// (positionally). Aggs[0] counts each group's rows.
	Aggs   []*Map
	Values []calculus.Value // expressions over key variables and *calculus.AggRef
	// Columns is the SELECT list: which key or value each output column
	// shows (calculus.Query.Columns).
	Columns  []runtime.OutputColumn
	Having   lang.Expr // nil, or a filter over keys and aggregates
	Distinct bool
	Scalar   bool
	// AggKeys: for an aggregate keyed by some of the view's keys only, their
	// positions among the view's keys (see calculus.Query.AggKeys).
	AggKeys map[int][]int
	// Order and Limit: the order of the view's rows and the window of them
	// it shows (calculus.Query.Order, Limit).
	Order []runtime.SortKey
	Limit *lang.Limit
	Bag   bool // a view without aggregates, not DISTINCT (calculus.Query.Bag)
	// Numbered: the ROW_NUMBER values that number a row's copies, which
	// the view shows as rows of their own (calculus.Query.Numbered).
	Numbered []int
	// Tree, when set, factorizes the view (calculus.ViewTree): Aggs are
	// its factors, each read at its node's root path (AggKeys), and a row
	// is a combination of keys along the tree whose count factors are all
	// non-zero. Nil: Aggs[0] lists the rows.
	Tree *calculus.ViewTree
}

// keyVarNames are the names of the variables of the view's map keys: its
// keys, then the presence flags of those that may be NULL.
func keyVarNames(v *View) []string {
	var names []string
	for _, k := range v.Keys {
		names = append(names, k.Var.Name)
	}
	for _, k := range v.Keys {
		if k.Present.Name != "" {
			names = append(names, k.Present.Name)
		}
	}
	return names
}

// CellNames are the names of the cells of the view's rows: its keys, then
// its values.
func (v *View) CellNames() []string {
	var names []string
	for _, k := range v.Keys {
		names = append(names, k.Name)
	}
	for _, val := range v.Values {
		names = append(names, val.Name)
	}
	return names
}

// MapKeys is the number of keys of the view's maps: one per key column,
// then the presence flags of the keys that may be NULL
// (calculus.Column.Present).
func (v *View) MapKeys() int {
	n := len(v.Keys)
	for _, k := range v.Keys {
		if k.Present.Name != "" {
			n++
		}
	}
	return n
}

// Trigger is the code run for one kind of event.
type Trigger struct {
	Event calculus.Event
	Stmts []*Stmt
	// Touches, run after the statements, tell factorized views which tree
	// nodes' count factors the event may have changed.
	Touches []Touch
	// Syncs, run after the statements (before Touches), feed kernels the
	// input entries the event wrote.
	Syncs []Sync
}

// Touch names the tree node of a factorized view whose count factor a
// trigger updates, and the event variables its root path is bound to: a
// generated engine recounts the rows under that node there (and, when
// their number crosses zero, under its ancestors).
type Touch struct {
	View int // index in Program.Views
	Node int // index in the view's Tree.Nodes
	Keys []calculus.Var
}

// Reads reports whether a view reads relation rel: whether a trigger on
// it has statements.
func (p *Program) Reads(rel string) bool {
	for _, t := range p.Triggers {
		if t.Event.Rel == rel && len(t.Stmts) > 0 {
			return true
		}
	}
	return false
}

// Stmt updates one map: Map[Keys] += RHS, or := RHS when Replace is set
// (every entry matching the bound keys is replaced by the RHS result).
// Keys not bound by the trigger's arguments are bound by the RHS. Each
// monomial's factors are in evaluation order: a factor's inputs are bound by
// the arguments or by earlier factors; a MapRef with unbound keys loops over
// the matching entries.
type Stmt struct {
	Map     *Map
	Keys    []calculus.Var
	Replace bool
	// After statements add their RHS as it reads after the trigger's other
	// statements have written the maps it reads (as Replace statements
	// read), without clearing anything first.
	After bool
	RHS   []calculus.Monomial
	// Buffered statements are evaluated before every other statement of the
	// trigger and applied after all of them, because no order lets them read
	// their inputs before the inputs are written.
	Buffered bool
}

// Reads returns the names of the maps the statement's RHS reads.
func (s *Stmt) Reads() []string {
	var out []string
	for _, m := range s.RHS {
		for _, f := range m.Factors {
			calculus.Walk(f, func(t calculus.Term) {
				if r, ok := t.(*calculus.MapRef); ok {
					for _, n := range out {
						if n == r.Name {
							return
						}
					}
					out = append(out, r.Name)
				}
			})
		}
	}
	return out
}

// RHSTerm returns the statement's right-hand side as one term.
func (s *Stmt) RHSTerm() calculus.Term {
	var ts []calculus.Term
	for _, m := range s.RHS {
		ts = append(ts, m.Term(s.Map.Type))
	}
	if len(ts) == 1 {
		return ts[0]
	}
	return &calculus.Sum{Terms: ts}
}

func (s *Stmt) String() string {
	op := "+="
	if s.Replace {
		op = ":="
	}
	buf := ""
	if s.Buffered {
		buf = "  -- buffered"
	}
	if s.After {
		buf = "  -- after the updates"
	}
	return fmt.Sprintf("%s[%s] %s %s%s", s.Map.Name, varList(s.Keys), op, rhsString(s.RHS, s.Map.Type), buf)
}

func rhsString(ms []calculus.Monomial, t lang.Type) string {
	if len(ms) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, m := range ms {
		neg := m.Coef < 0
		if neg {
			m.Coef = -m.Coef
		}
		s := calculus.String(m.Term(t))
		switch {
		case i == 0 && neg:
			b.WriteString("-" + s)
		case i == 0:
			b.WriteString(s)
		case neg:
			b.WriteString(" - " + s)
		default:
			b.WriteString(" + " + s)
		}
	}
	return b.String()
}

func varList(vs []calculus.Var) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = v.Name
	}
	return strings.Join(ss, ", ")
}

func typedVarList(vs []calculus.Var) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = v.Name + " " + strings.ToLower(v.Type.String())
	}
	return strings.Join(ss, ", ")
}

// EventString prints an event as ON +R(a, b).
func EventString(ev calculus.Event) string {
	sign := "+"
	if !ev.Insert {
		sign = "-"
	}
	return sign + ev.Rel + "(" + varList(ev.Args) + ")"
}

// String prints the Program: maps with their definitions, views, and
// triggers with their statements in execution order.
func (p *Program) String() string {
	var b strings.Builder
	for _, m := range p.Maps {
		fmt.Fprintf(&b, "MAP %s[%s] : %s := %s", m.Name, typedVarList(m.Keys), strings.ToLower(m.Type.String()), calculus.String(m.Def))
		if m.Init != 0 {
			fmt.Fprintf(&b, "  -- initially %v", m.Init)
		}
		for i, e := range m.InitEntries {
			if i == 0 {
				b.WriteString("  -- initially")
			}
			fmt.Fprintf(&b, " %v: %v", e.Keys, e.Value)
		}
		if m.Kernel != nil {
			names := make([]string, len(m.Kernel.Inputs))
			for i, in := range m.Kernel.Inputs {
				names[i] = in.Name
			}
			fmt.Fprintf(&b, "  -- kept by a heavy/light %s kernel over %s", m.Kernel.Kind, strings.Join(names, ", "))
		}
		if m.HashKey != nil {
			names := make([]string, len(m.HashKey))
			for i, p := range m.HashKey {
				names[i] = m.Keys[p].Name
			}
			fmt.Fprintf(&b, "  -- hashed by [%s]", strings.Join(names, ", "))
		}
		b.WriteString("\n")
	}
	for _, v := range p.Views {
		keys := make([]string, len(v.Keys))
		for i, k := range v.Keys {
			keys[i] = k.Name + " = " + k.Var.Name
			if k.Present.Name != "" {
				keys[i] += " (NULL where " + k.Present.Name + " = 0)"
			}
		}
		fmt.Fprintf(&b, "\nVIEW %s[%s]", v.Name, strings.Join(keys, ", "))
		if v.Scalar {
			b.WriteString(" scalar")
		}
		if v.Distinct {
			b.WriteString(" distinct")
		}
		b.WriteString("\n")
		for i, a := range v.Aggs {
			if a == nil {
				continue
			}
			fmt.Fprintf(&b, "  #%d = %s", i, a.Name)
			if pos, ok := v.AggKeys[i]; ok {
				// Read at some of the view's keys (a window's partition, a
				// correlated subquery's group).
				vars := append([]string{}, keyVarNames(v)...)
				at := make([]string, len(pos))
				for j, p := range pos {
					at[j] = "value" // a row's value (calculus.RangeRef.Exprs)
					if p >= 0 {
						at[j] = vars[p]
					}
				}
				fmt.Fprintf(&b, " at [%s]", strings.Join(at, ", "))
			}
			b.WriteString("\n")
		}
		for _, val := range v.Values {
			fmt.Fprintf(&b, "  %s : %s = %s", val.Name, strings.ToLower(val.Type.String()), calculus.ExprString(val.E))
			if val.Present != nil {
				fmt.Fprintf(&b, ", NULL unless %s", calculus.ExprString(val.Present))
			}
			b.WriteString("\n")
		}
		if v.Having != nil {
			fmt.Fprintf(&b, "  HAVING %s\n", calculus.ExprString(v.Having))
		}
		if v.Order != nil {
			fmt.Fprintf(&b, "  %s\n", calculus.OrderString(v.CellNames(), v.Order, v.Limit))
		}
		if v.Tree != nil {
			writeTree(&b, v)
		}
	}
	for _, t := range p.Triggers {
		fmt.Fprintf(&b, "\nON %s:\n", EventString(t.Event))
		for _, s := range t.Stmts {
			fmt.Fprintf(&b, "  %s\n", s)
		}
		for _, u := range t.Syncs {
			fmt.Fprintf(&b, "  SYNC %s input %d = %s[%s]\n", u.Map.Name, u.Input, u.Map.Kernel.Inputs[u.Input].Name, varList(u.Keys))
		}
		for _, u := range t.Touches {
			fmt.Fprintf(&b, "  TOUCH %s node %d [%s]\n", p.Views[u.View].Name, u.Node, varList(u.Keys))
		}
	}
	for _, st := range p.SetTriggers {
		setTriggerString(&b, st)
	}
	return b.String()
}
