package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toastgen/toastgen/lang"
)

// Paired range-sum indexes. Two maps fused in a table whose range-sum
// indexes have the same group and ordered key (AXFinder's count and volume
// of each broker's asks by price) are kept as one
// runtime.RangeSumPairIndex: per group one tree whose nodes hold both
// maps' values (lanes 1 and 2). An update finds the group once and writes
// both values in one descent (an entry scope that adds to both slots sets
// both lanes at its end), and the two hoisted reads of one range, one per
// lane, are one descent returning both sums (hoist.code). A threshold
// read (threshold.go) searches lane 1 and sums lane 2 over the ray found
// in the same descent (ThresholdSum2): VWAP's volume and price × volume.
// Two maps that threshold reads both search (a sum and its count in the
// sql dialect) pair too, each searched on its lane (Threshold1,
// Threshold2), and two members of one threshold read summing the two
// lanes of a pair over the same rays read both in one descent
// (threshold.go, pairedRaySums).
//
// The pair type has the reads that range and threshold reads make
// (laneReads); the first pass records every method generated code calls
// on each index (rangeUses), and only indexes read by those alone are
// paired, before the second pass.

// rangePair is two members' range-sum indexes stored as one.
type rangePair struct {
	field string      // of the table
	lanes [2]*mapInfo // the maps of lanes 1 and 2
	ix    [2]int      // their range-sum index numbers
}

// index returns the group and ordered key positions the pair's indexes share.
func (p *rangePair) index() ordIndex { return p.lanes[0].ranges[p.ix[0]] }

// laneReads are the methods a paired index has per lane, the lane's
// number appended; the range reads, SumLess … SumWhereEither, SumSplit,
// SumRay and SumRays, also for both lanes at once (hoist.lanes,
// hoist.splitLanes, pairedRaySums).
var laneReads = map[string]bool{
	"SumLess": true, "SumLessEq": true, "SumGreater": true, "SumGreaterEq": true, "SumBetween": true,
	"SumWhere": true, "SumWhereEither": true, "SumSplit": true, "Negative": true, "SumRay": true, "SumRays": true, "Threshold": true, "ThresholdBound": true, "GroupSumRay": true, "GroupSumRays": true,
}

// hinted reports whether the entries of the pair's table keep the key's
// position in the pair's index (hintField), for SetAt: an index without
// groups, whose flat form finds a key by its position.
func (p *rangePair) hinted() bool { return len(p.index().group) == 0 }

// hintField is the entry field of a hinted pair.
func (p *rangePair) hintField() string { return p.field + "At" }

// hintedPairs returns the hinted pairs of table t, in a stable order.
func (t *table) hintedPairs() []*rangePair {
	var pairs []*rangePair
	seen := map[*rangePair]bool{}
	for _, mi := range t.members {
		for ix := range mi.ranges {
			if p, _ := mi.pairOf(ix); p != nil && p.hinted() && !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	return pairs
}

// pairOf returns the pair holding map mi's range-sum index ix and its lane
// (0 or 1), or nil.
func (mi *mapInfo) pairOf(ix int) (*rangePair, int) {
	p := mi.pairs[ix]
	if p == nil {
		return nil, 0
	}
	if p.lanes[0] == mi && p.ix[0] == ix {
		return p, 0
	}
	return p, 1
}

// args returns the arguments of a pair's read from those of a one-index
// read: an index without groups is a pair's one group, struct{}{}.
func (p *rangePair) args(args []jen.Code) []jen.Code {
	if len(p.index().group) > 0 {
		return args
	}
	return append([]jen.Code{jen.Struct().Values()}, args...)
}

// rangeMethod returns the method fn of map mi's range-sum index ix: a
// paired index's method of mi's lane. The first pass records fn.
func (g *gen) rangeMethod(mi *mapInfo, ix int, fn string) *jen.Statement {
	if g.recording {
		if mi.rangeUses == nil {
			mi.rangeUses = map[int]map[string]bool{}
		}
		if mi.rangeUses[ix] == nil {
			mi.rangeUses[ix] = map[string]bool{}
		}
		mi.rangeUses[ix][fn] = true
	}
	e := jen.Id("e").Dot(mi.field)
	p, lane := mi.pairOf(ix)
	if p == nil {
		return e.Dot(rngName(mi, ix)).Dot(fn)
	}
	if !laneReads[fn] {
		panic(fmt.Sprintf("%s's paired range-sum index %d has no method %s for lane %d (the first pass did not record it)", mi.m.Name, ix, fn, lane+1))
	}
	return e.Dot(p.field).Dot(fmt.Sprintf("%s%d", fn, lane+1))
}

// rangeCall is a call of method fn of map mi's range-sum index ix with the
// arguments of a one-index read (see rangeMethod).
func (g *gen) rangeCall(mi *mapInfo, ix int, fn string, args ...jen.Code) *jen.Statement {
	if p, _ := mi.pairOf(ix); p != nil && fn != "Negative" {
		args = p.args(args)
	}
	return g.rangeMethod(mi, ix, fn).Call(args...)
}

// pairRanges pairs the range-sum indexes of the members of each table (see
// above), the first two members with an index of one group and key.
func (g *gen) pairRanges() {
	readable := func(mi *mapInfo, ix int) bool {
		for fn := range mi.rangeUses[ix] {
			if !laneReads[fn] {
				return false
			}
		}
		return mi.pairs[ix] == nil
	}
	searched := func(mi *mapInfo, ix int) bool {
		return mi.rangeUses[ix]["Threshold"] || mi.rangeUses[ix]["ThresholdBound"]
	}
	// A map that a threshold read searches goes to lane 1 when its partner
	// is not searched: the read summing the partner over the ray is then
	// one descent (ThresholdSum2).
	for _, t := range g.tables {
		for a, ma := range t.members {
			for ia, oa := range ma.ranges {
				if !readable(ma, ia) {
					continue
				}
			partner:
				for _, mb := range t.members[a+1:] {
					for ib, ob := range mb.ranges {
						if ob.val != oa.val || !equalInts(ob.group, oa.group) || !readable(mb, ib) {
							continue
						}
						p := &rangePair{field: "pair" + rngName(ma, ia)[len("rng"):], lanes: [2]*mapInfo{ma, mb}, ix: [2]int{ia, ib}}
						if searched(mb, ib) && !searched(ma, ia) {
							p.lanes, p.ix = [2]*mapInfo{mb, ma}, [2]int{ib, ia}
						}
						for i, mi := range p.lanes {
							if mi.pairs == nil {
								mi.pairs = map[int]*rangePair{}
							}
							mi.pairs[p.ix[i]] = p
						}
						break partner
					}
				}
			}
		}
	}
}

// deferPairs returns the pairs of the table that a run of units updating
// one of its entries writes (entryScope): their lanes are set once, at the
// end of the scope, from the entry's values (pairSets), instead of per
// unit, so both in one descent. Not when a unit reads a map of the table:
// it would read the index before the writes of the units before it.
func (g *gen) deferPairs(run []*unit, t *table) []*rangePair {
	member := map[string]bool{}
	for _, mi := range t.members {
		member[mi.m.Name] = true
	}
	var pairs []*rangePair
	seen := map[*rangePair]bool{}
	for _, u := range run {
		for _, name := range u.s.Reads() {
			if member[name] {
				return nil
			}
		}
		mi := g.maps[u.s.Map.Name]
		for ix := range mi.ranges {
			if p, _ := mi.pairOf(ix); p != nil && !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	return pairs
}

// pairSets sets both lanes of each pair at the key of an entry scope to
// the values of the entry ent.
func (g *gen) pairSets(pairs []*rangePair, ent, key string) []jen.Code {
	var code []jen.Code
	for _, p := range pairs {
		vals := make([]jen.Code, 2)
		for i, mi := range p.lanes {
			v := jen.Id(ent).Dot(mi.slot)
			if mi.m.Type != lang.TInt {
				v = v.Dot("Value").Call()
			}
			vals[i] = v
		}
		mi := p.lanes[0]
		k := jen.Id(key)
		args := []jen.Code{g.pairGroup(mi, k, p), keyField(k.Clone(), len(mi.m.Keys), p.index().val), vals[0], vals[1]}
		set := "Set"
		if p.hinted() {
			set, args = "SetAt", append([]jen.Code{jen.Op("&").Id(ent).Dot(p.hintField())}, args...)
		}
		code = append(code, jen.Id("e").Dot(mi.field).Dot(p.field).Dot(set).Call(args...))
	}
	return code
}

// writesRanges reports whether an addition to map mi updates a range-sum
// index at once: one it has that the entry scope does not set at its end.
func (g *gen) writesRanges(mi *mapInfo) bool {
	for ix := range mi.ranges {
		if p, _ := mi.pairOf(ix); p == nil || !g.deferred[p] {
			return true
		}
	}
	return false
}

// pairGroup is the group key of pair p at the key k of a map's entry.
func (g *gen) pairGroup(mi *mapInfo, k *jen.Statement, p *rangePair) jen.Code {
	if len(p.index().group) == 0 {
		return jen.Struct().Values()
	}
	return g.partialKeyOf(mi.m, k, p.index().group)
}
