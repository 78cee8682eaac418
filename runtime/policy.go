package runtime

import "time"

// Policy says how ApplyBatch applies the events of a batch, once it has
// consolidated them (a tuple inserted and deleted in the batch fires
// nothing). The views are the same under every policy, but for the last
// bits of FLOAT sums added up in another order.
type Policy uint8

const (
	// Auto applies the events of a relation set-at-a-time when the batch
	// holds at least SetAtATimeMin of them, the relation's triggers have a
	// set-at-a-time form and (in generated engines, see SetChooser) that
	// has been the faster way for the relation's recent batches: event by
	// event otherwise.
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

// SetChooser makes Auto's choice for one relation of a generated engine,
// adapting to the data and the machine: it times the relation's batches
// under Auto, per event, both ways — set-at-a-time and event by event —
// and chooses the one that has been faster lately, trying the other one
// now and then in case the data changed (every eighth batch when they are
// close, more rarely the more it loses). (Whether pre-aggregating
// pays depends on how much the statements do per event, which the data
// decide: how many events share a key, how many partners a key joins.)
type SetChooser struct {
	cost    [2]float64 // recent ns per event: [0] event by event, [1] set-at-a-time
	batches uint32     // batches chosen for under Auto
	decided int        // 1 + the k that Wants chose for the next Plan (0: none)
}

// Wants reports whether a batch with about n events of the relation will
// go set-at-a-time, in part or whole, under policy p: the choice of the
// Plan that follows (for the same batch), made now so that a batch in
// which no relation wants it skips the relation-by-relation path.
func (c *SetChooser) Wants(p Policy, n int) bool {
	c.decided = 0
	k := c.Plan(p, n)
	c.decided = k + 1
	return k < n
}

// probeEvents is the number of a batch's events that SetChooser fires one
// by one to time that way while set-at-a-time is the faster.
const probeEvents = 64

// Plan says how to apply a batch of n events of the relation under policy
// p: its first k events one by one, the others set-at-a-time (k = n: all
// one by one). Under Auto it applies the faster way and now and then times
// the other — one by one on the batch's first events only, so that trying
// the slow way costs little — the more rarely the more it loses, so that
// trying costs at most about an eighth of the time.
func (c *SetChooser) Plan(p Policy, n int) (k int) {
	if c.decided > 0 {
		k, decided := min(c.decided-1, n), p == Auto
		c.decided = 0
		if decided {
			return k
		}
	}
	if !p.UseSetAtATime(n) {
		return n
	}
	if p == SetAtATime {
		return 0
	}
	c.batches++
	probe := min(n, probeEvents)
	switch {
	case c.cost[1] == 0:
		return 0 // set-at-a-time not timed yet
	case c.cost[0] == 0:
		return probe // one by one not timed yet
	}
	period := 8 * max(c.cost[0], c.cost[1]) / min(c.cost[0], c.cost[1])
	try := c.batches%uint32(min(period, 1024)) == 0
	if c.cost[1] < c.cost[0] {
		if try {
			return probe
		}
		return 0
	}
	if try {
		return 0
	}
	return n
}

// Start returns the time a batch of n events of the relation starts, when
// Auto times it (the zero Time when it does not).
func (c *SetChooser) Start(p Policy, n int) time.Time {
	if p != Auto || n < SetAtATimeMin {
		return time.Time{}
	}
	return time.Now()
}

// Stop records the time since start of a batch of n events applied
// set-at-a-time or not.
func (c *SetChooser) Stop(start time.Time, set bool, n int) {
	if start.IsZero() || n == 0 {
		return
	}
	ns := float64(time.Since(start).Nanoseconds())/float64(n) + 1e-3
	i := 0
	if set {
		i = 1
	}
	if c.cost[i] == 0 {
		c.cost[i] = ns
	} else {
		c.cost[i] = (c.cost[i] + ns) / 2
	}
}

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
