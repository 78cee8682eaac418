package viewlet_test

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// TestPartitionMerge checks calculus.Partition's plans on every file of
// the diff suite: a random stream is split across three interpreters as
// the plan says (a partitioned relation's tuples by the hash of their
// partition column, a broadcast relation's to all), and their maps, merged
// (MergeInterps: the views' aggregate maps added, the replicated ones
// taken from one), must give the views of one interpreter fed the whole
// stream.
func TestPartitionMerge(t *testing.T) {
	paths, err := filepath.Glob("testdata/diff/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var planned, skipped atomic.Int32
	t.Cleanup(func() {
		t.Logf("%d files partitionable and checked, %d not partitionable", planned.Load(), skipped.Load())
	})
	for _, path := range paths {
		c, err := oracle.ReadCase(path, diffEvents, diffDeleteFrac)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(path), ".sql"), func(t *testing.T) {
			t.Parallel()
			if c.KnownBug != "" {
				t.Skip(c.KnownBug)
			}
			f, err := lang.Config{Dialect: c.Dialect}.Parse(path, c.Src)
			if err != nil {
				t.Fatal(err)
			}
			qs, err := calculus.FromSQL(f)
			if err != nil {
				t.Fatal(err)
			}
			plan := calculus.Partition(f.Relations, qs)
			if !plan.Partitionable() {
				skipped.Add(1)
				return
			}
			planned.Add(1)
			// Flat views: the factors of a view tree multiply, they do not add.
			p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: viewlet.Unbounded, FlatViews: true})
			if err != nil {
				t.Fatal(err)
			}
			col := map[string]int{}
			for _, r := range plan.Relations {
				col[r.Relation.Name] = r.Column
			}
			sumMaps, oneMaps, why := viewlet.MergeMaps(p, plan)
			if why != "" {
				t.Skipf("partitionable, but the views do not merge by their maps: %s", why)
			}
			var sum, one []string
			for _, m := range sumMaps {
				sum = append(sum, m.Name)
			}
			for _, m := range oneMaps {
				one = append(one, m.Name)
			}
			const n = 3
			s := oracle.Generate(f, 1, min(c.Events, 400), c.DeleteFrac, c.Domain)
			whole := viewlet.NewInterp(p)
			parts := make([]*viewlet.Interp, n)
			for i := range parts {
				parts[i] = viewlet.NewInterp(p)
			}
			for i, ev := range s.Events {
				if err := whole.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil {
					t.Skipf("event %d: %v", i, err) // an overflow: the split would reject other events
				}
				c, ok := col[ev.Rel]
				targets := parts
				if ok && c >= 0 {
					h := fnv.New32a()
					fmt.Fprint(h, ev.Tuple[c])
					targets = parts[h.Sum32()%n : h.Sum32()%n+1]
				}
				for _, part := range targets {
					if err := part.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil {
						t.Skipf("event %d in a partition: %v", i, err)
					}
				}
			}
			want := whole.Views()
			got := viewlet.MergeInterps(p, parts, sum, one).Views()
			for i := range want {
				if err := oracle.Compare(want[i], got[i], diffTol); err != nil {
					t.Fatalf("%s\nmerged partitions differ from the whole stream: %v", plan, err)
				}
			}
		})
	}
}
