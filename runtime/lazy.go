package runtime

// Lazy maintenance. A Lazy engine defers its events: Apply adds them to a
// pending batch (parsing them at once, so that a malformed field is still
// an error of its Apply), and the batch is applied, consolidated and under
// the Lazy's Policy, when the views are next read (Views) or on Flush. A
// stream whose views are read now and then costs one batch per read: a
// tuple inserted and deleted in between costs nothing, and a relation's
// many events go set-at-a-time (SetAtATime, Auto).
//
// Typed readers of a generated package (its view accessors) read the
// wrapped engine directly: call Flush before them. An error of the
// deferred events (an integer overflow that a trigger rejects) is
// returned by Flush, or by Err after Views.
type Lazy struct {
	Engine
	// Policy applies the pending batch (Auto by default).
	Policy  Policy
	pending Batch
	err     error
}

// NewLazy returns a Lazy engine over e.
func NewLazy(e Engine) *Lazy { return &Lazy{Engine: e} }

// Apply parses one event and adds it to the pending batch.
func (l *Lazy) Apply(rel int, insert bool, fields [][]byte) error {
	if l.pending == nil {
		l.pending = l.Engine.NewBatch()
	}
	return l.pending.Add(rel, insert, fields)
}

// ApplyBatch applies the pending events, then b.
func (l *Lazy) ApplyBatch(b Batch) error {
	if err := l.Flush(); err != nil {
		return err
	}
	return l.Engine.ApplyBatch(b)
}

// Pending returns the number of events not applied yet.
func (l *Lazy) Pending() int {
	if l.pending == nil {
		return 0
	}
	return l.pending.Len()
}

// Flush applies the pending events as one batch under l.Policy.
func (l *Lazy) Flush() error {
	if l.Pending() == 0 {
		return nil
	}
	b := l.pending
	l.pending = nil
	return l.Engine.ApplyBatch(WithPolicy(b, l.Policy))
}

// Views applies the pending events and returns the views. If they fail,
// Err returns why.
func (l *Lazy) Views() []View {
	if err := l.Flush(); err != nil && l.err == nil {
		l.err = err
	}
	return l.Engine.Views()
}

// Err returns the first error of the pending events that Views applied,
// or the wrapped engine's own (the interpreter's Err).
func (l *Lazy) Err() error {
	if l.err != nil {
		return l.err
	}
	if f, ok := l.Engine.(interface{ Err() error }); ok {
		return f.Err()
	}
	return nil
}
