package runtime

import (
	"testing"
	"time"
)

func TestParsePolicy(t *testing.T) {
	for _, p := range []Policy{Auto, Incremental, SetAtATime} {
		if q, ok := ParsePolicy(p.String()); !ok || q != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), q, ok)
		}
	}
	if _, ok := ParsePolicy("lazy"); ok {
		t.Error("ParsePolicy(lazy) succeeded")
	}
}

// TestSetChooser follows Auto's choices as the two ways are timed: the
// faster way, and the other now and then, more rarely the more it loses.
func TestSetChooser(t *testing.T) {
	var c SetChooser
	if k := c.Plan(Incremental, 1000); k != 1000 {
		t.Errorf("Incremental: k = %d, want all one by one", k)
	}
	if k := c.Plan(SetAtATime, 3); k != 0 {
		t.Errorf("SetAtATime: k = %d, want 0", k)
	}
	if k := c.Plan(Auto, SetAtATimeMin-1); k != SetAtATimeMin-1 {
		t.Errorf("Auto, a small batch: k = %d, want all one by one", k)
	}
	if k := c.Plan(Auto, 1000); k != 0 {
		t.Fatalf("Auto, set-at-a-time untimed: k = %d, want 0", k)
	}
	if !c.Start(Incremental, 1000).IsZero() || !c.Start(Auto, 3).IsZero() || c.Start(Auto, 1000).IsZero() {
		t.Error("Start times only Auto's batches of at least SetAtATimeMin events")
	}
	c.cost[1] = 10 // set-at-a-time: 10 ns per event
	if k := c.Plan(Auto, 1000); k != probeEvents {
		t.Fatalf("Auto, one by one untimed: k = %d, want a probe of %d", k, probeEvents)
	}
	c.cost[0] = 100 // one by one: ten times slower
	count := func(n, k, runs int) int {
		got := 0
		for range runs {
			if c.Plan(Auto, n) == k {
				got++
			}
		}
		return got
	}
	// Period 8·100/10 = 80: one probe per 80 batches.
	if got := count(1000, probeEvents, 800); got != 10 {
		t.Errorf("set-at-a-time 10× faster: %d probes in 800 batches, want 10", got)
	}
	c.cost[0], c.cost[1] = 10, 20 // one by one twice as fast
	if got := count(1000, 0, 160); got != 10 {
		t.Errorf("one by one 2× faster: %d set-at-a-time batches in 160, want 10", got)
	}
	// Wants decides for the Plan that follows, under Auto only.
	c.cost[0], c.cost[1], c.batches = 10, 20, 1
	if c.Wants(Auto, 1000) {
		t.Error("Wants: set-at-a-time, though one by one is faster")
	}
	if k := c.Plan(SetAtATime, 1000); k != 0 {
		t.Errorf("SetAtATime after Wants(Auto): k = %d, want 0 (Wants decides for Auto only)", k)
	}
	c.Wants(Auto, 1000)
	if k := c.Plan(Auto, 600); k != 600 {
		t.Errorf("Plan after Wants: k = %d, want Wants' choice, all 600 one by one", k)
	}
	// Stop averages the new time in.
	c.cost[1] = 0
	start := time.Now().Add(-time.Millisecond)
	c.Stop(start, true, 1000)
	if c.cost[1] < 900 || c.cost[1] > 100000 {
		t.Errorf("after 1 ms for 1000 events: %v ns per event", c.cost[1])
	}
}

func TestPreAgg(t *testing.T) {
	var p PreAgg[string, int]
	*p.At("b") += 1
	*p.At("a") += 2
	*p.At("b") += 3
	if p.Len() != 2 || p.Keys[0] != "b" || p.Vals[0] != 4 || p.Keys[1] != "a" || p.Vals[1] != 2 {
		t.Fatalf("got %v %v", p.Keys, p.Vals)
	}
	p.Reset()
	if p.Len() != 0 || *p.At("a") != 0 {
		t.Fatalf("after Reset: %v %v", p.Keys, p.Vals)
	}
}
