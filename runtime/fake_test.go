package runtime

import (
	"fmt"
	"slices"
	"strings"
)

// fakeEngine is an Engine that parses every field with ParseValue, logs the
// events as text and keeps each relation's multiset of tuples.
type fakeEngine struct {
	rels   []Relation
	events []string                // "REL +a|b|c" in apply order
	state  []map[string]int        // per relation: tuple text → multiplicity
	onNeg  func(rel int, t string) // called when a multiplicity goes negative
	hook   func(rel int, ins bool) // called on every event
	_      struct{}
}

func newFake(rels ...Relation) *fakeEngine {
	e := &fakeEngine{rels: rels}
	for range rels {
		e.state = append(e.state, map[string]int{})
	}
	return e
}

func (e *fakeEngine) Relations() []Relation { return e.rels }

func (e *fakeEngine) Apply(rel int, insert bool, fields [][]byte) error {
	r := e.rels[rel]
	if len(fields) != len(r.Columns) {
		return fmt.Errorf("got %d fields", len(fields))
	}
	for i, c := range r.Columns {
		if _, err := ParseValue(c, fields[i]); err != nil {
			return err
		}
	}
	t := string(joinFields(fields))
	op := "+"
	d := 1
	if !insert {
		op, d = "-", -1
	}
	e.events = append(e.events, r.Name+" "+op+t)
	e.state[rel][t] += d
	if e.state[rel][t] < 0 && e.onNeg != nil {
		e.onNeg(rel, t)
	}
	if e.state[rel][t] == 0 {
		delete(e.state[rel], t)
	}
	if e.hook != nil {
		e.hook(rel, insert)
	}
	return nil
}

func joinFields(fields [][]byte) []byte {
	var b []byte
	for i, f := range fields {
		if i > 0 {
			b = append(b, '|')
		}
		b = append(b, f...)
	}
	return b
}

type fakeEvent struct {
	rel    int
	insert bool
	fields [][]byte
}

type fakeBatch struct {
	e  *fakeEngine
	ev []fakeEvent
}

func (b *fakeBatch) Add(rel int, insert bool, fields [][]byte) error {
	r := b.e.rels[rel]
	for i, c := range r.Columns {
		if _, err := ParseValue(c, fields[i]); err != nil {
			return err
		}
	}
	cp := make([][]byte, len(fields))
	for i, f := range fields {
		cp[i] = slices.Clone(f)
	}
	b.ev = append(b.ev, fakeEvent{rel, insert, cp})
	return nil
}

func (b *fakeBatch) Len() int { return len(b.ev) }

func (e *fakeEngine) NewBatch() Batch { return &fakeBatch{e: e} }

func (e *fakeEngine) ApplyBatch(b Batch) error {
	for _, ev := range b.(*fakeBatch).ev {
		if err := e.Apply(ev.rel, ev.insert, ev.fields); err != nil {
			return err
		}
	}
	return nil
}

// Views reports one view per relation: its tuples (as one string key) and
// their multiplicities.
func (e *fakeEngine) Views() []View {
	var vs []View
	for i, r := range e.rels {
		v := View{Name: r.Name, Keys: []Column{{Name: "TUPLE", Type: String}}, Values: []Column{{Name: "COUNT", Type: Int}}}
		for t, n := range e.state[i] {
			v.Rows = append(v.Rows, []any{t, int64(n)})
		}
		SortRows(v.Rows, 1)
		vs = append(vs, v)
	}
	return vs
}

// cols builds columns from "NAME:type" words (type i, f, s, d).
func cols(spec string) []Column {
	var cs []Column
	for _, w := range strings.Fields(spec) {
		name, typ, _ := strings.Cut(w, ":")
		t := map[string]ColumnType{"i": Int, "f": Float, "s": String, "d": DateType}[typ]
		cs = append(cs, Column{Name: name, Type: t})
	}
	return cs
}
