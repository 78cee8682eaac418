package codegen

import (
	"fmt"
	"strings"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// The exported identifiers of a generated package:
//
//	type Engine, func New, func ReadSnapshot, and the Engine methods Apply, NewBatch, ApplyBatch, Views, Relations, MapEntries, OnChanges, WriteSnapshot, RestoreSnapshot
//	per relation R (stem exportedName(R): LINEITEM → Lineitem):
//	    methods InsertR, DeleteR; const RelationR
//	per view V (stem viewStem):
//	    type VRow; methods V (sorted snapshot), VGet (point lookup), VRows (iter.Seq)
//
// Two of them that coincide would not compile, so a view named in the
// query file that would generate an identifier some other view, relation
// or the Engine already has is an error at its name (CheckNames), as is a
// view method whose name go vet reserves for a standard interface
// (Format, MarshalJSON, …). Unexported identifiers never clash: the maps'
// are made distinct where they are assigned (see planNames).

// viewStem is the stem of a view's Go identifiers: for an unnamed view
// its QUERY<n> as before (Query1), for a view named in the query file the
// name as written with its first letter upper-cased (topCustomers →
// TopCustomers, Top_customers stays Top_customers).
func viewStem(name string, named bool) string {
	if !named || name == "" {
		return exportedName(name)
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// vetMethods are the method names whose signatures go vet's stdmethods
// check expects to be those of standard interfaces.
var vetMethods = map[string]string{
	"As": "errors.As", "Format": "fmt.Formatter", "GobDecode": "gob.GobDecoder", "GobEncode": "gob.GobEncoder",
	"Is": "errors.Is", "MarshalJSON": "json.Marshaler", "MarshalXML": "xml.Marshaler", "ReadByte": "io.ByteReader",
	"ReadFrom": "io.ReaderFrom", "ReadRune": "io.RuneReader", "Scan": "fmt.Scanner", "Seek": "io.Seeker",
	"UnmarshalJSON": "json.Unmarshaler", "UnmarshalXML": "xml.Unmarshaler", "UnreadByte": "io.ByteScanner",
	"UnreadRune": "io.RuneScanner", "Unwrap": "errors.Unwrap", "WriteByte": "io.ByteWriter", "WriteTo": "io.WriterTo",
}

// nameSource is a relation or view whose name identifiers derive from.
type nameSource struct {
	name  string
	rel   bool // a relation, else a view
	named bool // a view named in the query file
	pos   lang.Pos
}

func (s *nameSource) String() string {
	if s.rel {
		return "relation " + s.name
	}
	return "view " + s.name
}

// genIdent is an exported identifier: a method of Engine, or a package-level name.
type genIdent struct {
	method bool
	name   string
	role   string // what it is, for messages
}

func (id genIdent) String() string {
	if id.method {
		return "Engine." + id.name
	}
	return id.name
}

func (s *nameSource) idents() []genIdent {
	if s.rel {
		st := exportedName(s.name)
		return []genIdent{
			{true, "Insert" + st, "insert trigger"},
			{true, "Delete" + st, "delete trigger"},
			{false, "Relation" + st, "index constant"},
		}
	}
	st := viewStem(s.name, s.named)
	return []genIdent{
		{true, st, "snapshot method"},
		{true, st + "Get", "point lookup"},
		{true, st + "Rows", "row iterator"},
		{true, st + "Len", "row count"},
		{true, "On" + st + "Change", "typed change subscription"},
		{false, st + "Change", "change type"},
		{false, st + "Row", "row type"},
	}
}

// identClash returns the first source, in the order fixed names,
// relations, unnamed views, named views, one of whose identifiers an
// earlier source (or the Engine itself) already has, with the message
// to report at it; nil when there is none.
func identClash(srcs []*nameSource) (*nameSource, string) {
	type owner struct {
		src *nameSource // nil: the Engine's own
		id  genIdent
	}
	owners := map[genIdent]owner{}
	key := func(id genIdent) genIdent { return genIdent{method: id.method, name: id.name} }
	for _, id := range []genIdent{
		{true, "Apply", "a method of every Engine (runtime.Engine)"}, {true, "NewBatch", "a method of every Engine (runtime.Engine)"},
		{true, "ApplyBatch", "a method of every Engine (runtime.Engine)"}, {true, "Views", "a method of every Engine (runtime.Engine)"},
		{true, "Relations", "a method of every Engine (runtime.Engine)"}, {true, "MapEntries", "a method of every Engine (runtime.EntryCounter)"},
		{true, "OnChanges", "a method of every Engine (runtime.ChangeStreamer)"},
		{true, "WriteSnapshot", "a method of every Engine (runtime.Snapshotter)"}, {true, "RestoreSnapshot", "a method of every Engine (runtime.Snapshotter)"},
		{false, "ReadSnapshot", "the snapshot reader"},
		{false, "Engine", "the engine type"}, {false, "New", "the constructor"},
	} {
		owners[key(id)] = owner{id: id}
	}
	var order []*nameSource
	for pass := range 3 {
		for _, s := range srcs {
			if (pass == 0) == s.rel && (pass == 2) == s.named {
				order = append(order, s)
			}
		}
	}
	for _, s := range order {
		what := s.String() + ":"
		if s.named {
			what = "view name " + s.name + ":"
		}
		for _, id := range s.idents() {
			if o, ok := owners[key(id)]; ok {
				if o.src == nil {
					return s, fmt.Sprintf("%s its %s %s is already %s", what, id.role, id, o.id.role)
				}
				return s, fmt.Sprintf("%s its %s %s clashes with the %s %s of %s", what, id.role, id, o.id.role, o.id, o.src)
			}
			if iface, ok := vetMethods[id.name]; ok && id.method {
				return s, fmt.Sprintf("%s its %s %s has the name of the %s method, whose signature go vet checks", what, id.role, id, iface)
			}
			owners[key(id)] = owner{src: s, id: id}
		}
	}
	return nil, ""
}

// CheckNames reports, as an error at the name in the query file, a view
// or relation of f whose generated Go identifiers would clash with those
// of another one or of the Engine itself (see viewStem for how view names
// become identifiers). Generate makes the same check without positions;
// toastgen runs CheckNames on every query file it reads, so that such a
// file is rejected by every command.
func CheckNames(f *lang.File) error {
	var srcs []*nameSource
	for _, r := range f.Relations {
		srcs = append(srcs, &nameSource{name: r.Name, rel: true, pos: r.Pos})
	}
	for _, q := range f.Queries {
		p := q.Pos
		if q.Named {
			p = q.NamePos
		}
		srcs = append(srcs, &nameSource{name: q.Name, named: q.Named, pos: p})
	}
	if s, msg := identClash(srcs); s != nil {
		return f.Errorf(s.pos, "%s", msg)
	}
	return nil
}

// checkProgramNames is CheckNames for a Program, without positions.
func checkProgramNames(p *viewlet.Program) error {
	var srcs []*nameSource
	for _, r := range p.Relations {
		srcs = append(srcs, &nameSource{name: r.Name, rel: true})
	}
	for _, v := range p.Views {
		srcs = append(srcs, &nameSource{name: v.Name, named: v.Named})
	}
	if s, msg := identClash(srcs); s != nil {
		return fmt.Errorf("%s: %s", p.Source, msg)
	}
	return nil
}
