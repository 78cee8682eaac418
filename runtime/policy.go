package runtime

// Policy says how ApplyBatch applies the events of a batch, once it has
// consolidated them (a tuple inserted and deleted in the batch fires
// nothing). The views are the same under every policy, but for the last
// bits of FLOAT sums added up in another order.
type Policy uint8

const (
	// Auto applies the events of a relation set-at-a-time when the batch
	// holds at least SetAtATimeMin of them and the relation's triggers
	// have a set-at-a-time form; event by event otherwise.
	Auto Policy = iota
	// Incremental fires every event's trigger, in the batch's order.
	Incremental
	// SetAtATime applies the events of every relation whose triggers have
	// a set-at-a-time form (viewlet.SetTrigger) as one delta: the batch
	// pre-aggregated by the columns the statements read, then each
	// statement run once per distinct group. Relations are taken in the
	// order of their first event in the batch (static tables first).
	SetAtATime
)

// SetAtATimeMin is the number of a relation's events in a batch from
// which Auto applies them set-at-a-time: below it the per-event triggers
// are as fast (measured by the generated packages' BenchmarkPolicies).
const SetAtATimeMin = 16

// String names the policy as the -policy flag does.
func (p Policy) String() string {
	switch p {
	case Incremental:
		return "incremental"
	case SetAtATime:
		return "set"
	}
	return "auto"
}

// ParsePolicy parses a policy name: auto, incremental or set.
func ParsePolicy(s string) (Policy, bool) {
	for _, p := range []Policy{Auto, Incremental, SetAtATime} {
		if p.String() == s {
			return p, true
		}
	}
	return Auto, false
}

// UseSetAtATime reports whether a relation with n events in a batch is
// applied set-at-a-time under policy p (when it has a set-at-a-time form).
func (p Policy) UseSetAtATime(n int) bool {
	return p == SetAtATime || p == Auto && n >= SetAtATimeMin
}

// WithPolicy sets the policy by which ApplyBatch applies b and returns b.
// A batch that has no policy (it is always applied event by event) is
// returned as it is.
func WithPolicy(b Batch, p Policy) Batch {
	if o, ok := b.(interface{ SetPolicy(Policy) }); ok {
		o.SetPolicy(p)
	}
	return b
}
