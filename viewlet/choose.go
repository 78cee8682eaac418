package viewlet

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/toastgen/toastgen/runtime"
)

// Choosing the depth. Full higher-order IVM (Unbounded) materializes every
// delta, so that an event costs a few lookups per map — but every
// materialized map is maintained under the events of every relation it
// joins, and for wide joins (TPC-H Q7, Q8, Q9, SSB4) those maps and their
// loops cost more than first-order IVM's joins of the event with the
// stored relations (depth 1). Which one does less depends on the data:
// ChooseDepth compiles both, replays a sample of the query's input through
// the interpreter under each, and compares the work they did per event
// (Interp.Work: map entries looked up, visited in loops and updated).

// DepthCost is the work per event of the program compiled at Depth on the
// sample, or the reason it was not measured.
type DepthCost struct {
	Depth  int
	Events int     // events of the sample replayed
	Work   float64 // per event
	Err    error   // the program did not compile or run
}

// DepthChoice is the depth ChooseDepth picked, with every candidate's cost.
type DepthChoice struct {
	Depth  int
	Costs  []DepthCost
	Reason string
}

// FirstOrderGain is how much less work per event first-order IVM must do
// on the sample for ChooseDepth to prefer it: generated code speeds up
// full-depth programs more (fused maps, hoisted reads) than the joins of
// first-order ones, so a small difference in the interpreter's count does
// not carry over (TPC-H Q5 on its bundled data: first-order does 0.6× the
// work and runs at 0.65× the speed; Q8 does 0.18× the work and runs 2.9×
// as fast).
const FirstOrderGain = 0.5

// MinSample is the fewest events ChooseDepth decides on: a smaller sample
// (a query's few rows of example data) says little about the work per
// event of a real stream.
const MinSample = 500

// SampleWork bounds the work (Interp.Work) of each candidate's replay: a
// program whose events each visit every stored entry (a nested aggregate
// re-evaluated over a growing map, in the interpreter) would otherwise
// make the choice take minutes. Full depth replays until the sample ends
// or its work reaches SampleWork; first-order IVM then replays as many
// events, and stops as soon as its work exceeds FirstOrderGain times full
// depth's: past that it cannot be chosen.
const SampleWork = 20_000_000

// ErrSampleDone stops a sample's replay once it has enough events.
var ErrSampleDone = errors.New("viewlet: sample complete")

// ChooseDepth compiles the program at each candidate depth (Unbounded and
// 1) with compile, replays at most max events of the sample into an
// interpreter of each with replay (which applies events to the engine it
// is given: ChooseDepth stops it with ErrSampleDone), and returns the
// depth whose program did the least work per event: first-order only if
// it did at most FirstOrderGain times the work of full depth. It keeps
// Unbounded when a candidate fails, when the sample has fewer than
// MinSample events, and when it has no event of a stream the program
// reads: the work per event of a sample that holds one relation's events
// (a dimension loaded first) says nothing of the others'.
func ChooseDepth(compile func(depth int) (*Program, error), replay func(runtime.Engine) error, max int) DepthChoice {
	choice := DepthChoice{Depth: Unbounded}
	var unsampled []string
	budget := int64(SampleWork)
	cut := false // full depth's replay reached the budget
	for _, d := range []int{Unbounded, 1} {
		c := DepthCost{Depth: d}
		p, err := compile(d)
		if err == nil {
			in := NewInterp(p)
			s := &sampler{Engine: in, max: max, seen: map[int]bool{}, work: in.Work, budget: budget}
			err = replay(s)
			if errors.Is(err, ErrSampleDone) {
				err = nil
			}
			c.Events = s.n
			if c.Events > 0 {
				c.Work = float64(in.Work()) / float64(c.Events)
			}
			if d == Unbounded {
				// First-order IVM replays the same events, within the work
				// that would still let it be chosen.
				cut = s.over
				max = s.n
				budget = int64(FirstOrderGain*float64(in.Work())) + 1
			} else if s.over {
				c.Work = math.Max(c.Work, float64(budget)/float64(max))
			}
			if d == Unbounded {
				for i, r := range in.Relations() {
					if r.Stream && r.Source != nil && !r.Unread && !s.seen[i] {
						unsampled = append(unsampled, r.Name)
					}
				}
			}
		}
		c.Err = err
		choice.Costs = append(choice.Costs, c)
	}
	full, first := choice.Costs[0], choice.Costs[1]
	switch {
	case full.Err != nil || first.Err != nil:
		choice.Reason = "a candidate did not compile or run on the sample"
	case full.Events == 0:
		choice.Reason = "no input to sample"
	case full.Events < MinSample && !cut:
		choice.Reason = fmt.Sprintf("a sample of %d events is too small to choose by (fewer than %d)", full.Events, MinSample)
	case len(unsampled) > 0:
		choice.Reason = fmt.Sprintf("the sample's %d events hold none of %s", full.Events, strings.Join(unsampled, ", "))
	case first.Work <= FirstOrderGain*full.Work:
		choice.Depth = 1
		choice.Reason = fmt.Sprintf("first-order IVM did %.2g× the work of full depth on the sample", first.Work/full.Work)
	default:
		choice.Reason = "full depth did the least work on the sample"
		if full.Work > 0 {
			choice.Reason = fmt.Sprintf("first-order IVM did %.2g× the work of full depth on the sample (preferred at ≤ %.1f×)", first.Work/full.Work, FirstOrderGain)
		}
	}
	return choice
}

// sampler applies events to an engine until it has applied max, noting
// the relations they belong to.
// and stops once the engine's work (work) exceeds budget (over).
type sampler struct {
	runtime.Engine
	n, max int
	seen   map[int]bool
	work   func() int64
	budget int64
	over   bool
}

func (s *sampler) Apply(rel int, insert bool, f [][]byte) error {
	if s.n >= s.max {
		return ErrSampleDone
	}
	if s.work() > s.budget {
		s.over = true
		return ErrSampleDone
	}
	s.n++
	s.seen[rel] = true
	return s.Engine.Apply(rel, insert, f)
}
