package viewlet

import (
	"errors"
	"fmt"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/runtime"
)

// Partitioned engines. Under a partition plan (calculus.Partition) that
// splits a file's work, engines that each saw one partition's events
// (and every broadcast relation's) merge by their views' aggregate maps:
// MergeMaps says which are added up and which — the aggregates over
// broadcast relations alone — are taken from one engine. The merged maps
// hold what one engine fed the whole stream holds: each engine's map is
// its initial entries plus its slice's contribution, so the merge is the
// initial entries plus the sum of each engine's entries less them. A view
// tree's factors multiply (they do not add) and a triangle kernel is kept
// beside its inputs: views that read them do not merge so. Generated
// packages merge by the same rule (codegen, Options.Partition), the
// interpreter through PartitionedInterp.

// MergeMaps returns the maps of p's views that partitions merge by under
// plan: sum (added up) and one (the first partition's), or why the views
// cannot be merged by their maps ("" when they can).
func MergeMaps(p *Program, plan *calculus.PartitionPlan) (sum, one []*Map, why string) {
	if !plan.Partitionable() {
		return nil, nil, plan.Reason
	}
	if len(plan.Views) != len(p.Views) {
		return nil, nil, "the plan's views are not the program's"
	}
	how := map[string]bool{} // map name → replicated
	for vi, v := range p.Views {
		if v.Tree != nil {
			return nil, nil, fmt.Sprintf("view %s is a factorized view tree", v.Name)
		}
		rep := map[int]bool{}
		for _, i := range plan.Views[vi].Replicated {
			rep[i] = true
		}
		for i, m := range v.Aggs {
			if m == nil {
				continue
			}
			if m.Kernel != nil {
				return nil, nil, fmt.Sprintf("view %s reads a triangle kernel", v.Name)
			}
			if r, seen := how[m.Name]; seen {
				if r != rep[i] {
					return nil, nil, fmt.Sprintf("map %s is both summed and replicated", m.Name)
				}
				continue
			}
			how[m.Name] = rep[i]
			if rep[i] {
				one = append(one, m)
			} else {
				sum = append(sum, m)
			}
		}
	}
	return sum, one, ""
}

// MergeReason returns why the views of p cannot be merged from several
// engines under plan, or "" when they can (MergeMaps).
func MergeReason(p *Program, plan *calculus.PartitionPlan) string {
	_, _, why := MergeMaps(p, plan)
	return why
}

// PartitionColumns returns, per relation of p, its partition column under
// plan, or runtime.Broadcast (also for a relation no query reads: it has
// no events to route).
func PartitionColumns(p *Program, plan *calculus.PartitionPlan) []int {
	col := map[string]int{}
	for _, r := range plan.Relations {
		col[r.Relation.Name] = r.Column
	}
	cols := make([]int, len(p.Relations))
	for i, r := range p.Relations {
		c, ok := col[r.Name]
		if !ok || c < 0 {
			c = runtime.Broadcast
		}
		cols[i] = c
	}
	return cols
}

// MergeInterps returns an interpreter of p whose maps sum and one are
// those of parts merged: each map in sum the sum of the parts' maps (less
// the initial entries every part started with, but once), each in one
// parts[0]'s. Interpreters that each saw a slice of a stream, split by a
// calculus.Partition plan, merge so into one whose views — read from the
// maps of the views' aggregates (MergeMaps) — are those of the whole
// stream. Other maps of the result are empty: it is for reading views,
// not for events.
func MergeInterps(p *Program, parts []*Interp, sum, one []string) *Interp {
	out := NewInterp(p)
	for _, name := range sum {
		init := out.maps[name]
		if init == nil {
			continue
		}
		merged := newIMap(init.isInt)
		addIMap(merged, init, 1)
		for _, part := range parts {
			addIMap(merged, part.maps[name], 1)
			addIMap(merged, init, -1)
		}
		out.maps[name] = merged
	}
	for _, name := range one {
		if m := out.maps[name]; m != nil && len(parts) > 0 {
			merged := newIMap(m.isInt)
			addIMap(merged, parts[0].maps[name], 1)
			out.maps[name] = merged
		}
	}
	return out
}

// addIMap adds sign times the entries of from to m.
func addIMap(m, from *imap, sign int) {
	if from == nil {
		return
	}
	for _, e := range from.entries {
		if m.isInt {
			m.addInt(e.keys, int64(sign)*e.i)
		} else {
			// The two parts of the compensated sum: the merged sum is
			// rounded once.
			hi, lo := e.f.Parts()
			m.addFloat(e.keys, float64(sign)*hi)
			m.addFloat(e.keys, float64(sign)*lo)
		}
	}
}

// PartitionedInterp is an interpreter that runtime.Workers can run on
// several engines: the runtime.Partitioned methods under a partition
// plan.
type PartitionedInterp struct {
	*Interp
	p        *Program
	cols     []int
	sum, one []string
}

// NewPartitionedInterp returns an interpreter of p, partitioned by plan,
// or an error saying why p's views do not merge under it (MergeMaps).
func NewPartitionedInterp(p *Program, plan *calculus.PartitionPlan) (*PartitionedInterp, error) {
	sum, one, why := MergeMaps(p, plan)
	if why != "" {
		return nil, errors.New("not partitionable: " + why)
	}
	pi := &PartitionedInterp{Interp: NewInterp(p), p: p, cols: PartitionColumns(p, plan)}
	for _, m := range sum {
		pi.sum = append(pi.sum, m.Name)
	}
	for _, m := range one {
		pi.one = append(pi.one, m.Name)
	}
	return pi, nil
}

// PartitionColumns returns each relation's partition column, or
// runtime.Broadcast.
func (pi *PartitionedInterp) PartitionColumns() []int { return pi.cols }

// NewPartition returns a new interpreter of the same program and plan.
func (pi *PartitionedInterp) NewPartition() runtime.Partitioned {
	return &PartitionedInterp{Interp: NewInterp(pi.p), p: pi.p, cols: pi.cols, sum: pi.sum, one: pi.one}
}

// MergeViews returns the views of the parts' events together (MergeInterps).
func (pi *PartitionedInterp) MergeViews(parts []runtime.Partitioned) ([]runtime.View, error) {
	ins := make([]*Interp, len(parts))
	for i, part := range parts {
		p, ok := part.(*PartitionedInterp)
		if !ok {
			return nil, fmt.Errorf("MergeViews: part %d is a %T, not an interpreter", i, part)
		}
		ins[i] = p.Interp
	}
	m := MergeInterps(pi.p, ins, pi.sum, pi.one)
	vs := m.Views()
	return vs, m.Err()
}

var _ runtime.Partitioned = (*PartitionedInterp)(nil)
