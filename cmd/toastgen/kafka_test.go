package main

import (
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
)

// TestCLIKafka runs TPC-H Q3 on an in-process Kafka (kfake) as a user
// would: toastgen produce publishes the bundled data, two members (run
// -kafka) run at once (lineitem and orders split between them once both
// have joined; the first to join may apply most of the small data, the
// other then restores its tasks from the state topic), every task reads
// all of customer (broadcast), and toastgen merge prints the views that
// run prints. Flags that do not apply are usage errors; a query that is not
// partitionable is an error saying why.
func TestCLIKafka(t *testing.T) {
	root := repoRoot(t)
	usage := [][]string{
		{"run", "-kafka", "localhost:1", "examples/tpch/q3.sql"}, // no -group
		{"run", "-kafka", "localhost:1", "-group", "g", "-workers", "2", "examples/tpch/q3.sql"},
		{"run", "-kafka", "localhost:1", "-group", "g", "-format", "json", "examples/tpch/q3.sql"},
		{"merge", "examples/tpch/q3.sql"},
		{"produce", "examples/tpch/q3.sql"},
		{"merge", "-kafka", "localhost:1", "-idle", "0s", "examples/tpch/q3.sql"},
	}
	for _, args := range usage {
		if _, stderr, code := runCLI(t, root, "", nil, args...); code != 2 {
			t.Errorf("toastgen %s: exit status %d, want 2; stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
	if _, stderr, code := runCLI(t, root, "", nil, "produce", "-kafka", "localhost:1", "examples/finance/vwap.sql"); code != 1 || !strings.Contains(stderr, "not partitionable") {
		t.Errorf("produce of a query that is not partitionable: exit status %d, stderr %q", code, stderr)
	}
	if testing.Short() {
		t.Skip("-short: not building the generated packages")
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1),
		kfake.SeedTopics(3, "q3.lineitem", "q3.orders"),
		kfake.SeedTopics(2, "q3.customer"),
		kfake.SeedTopics(1, "q3.state", "q3.changes"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	brokers := strings.Join(c.ListenAddrs(), ",")
	kafka := []string{"-kafka", brokers, "-topic-prefix", "q3."}

	args := append([]string{"produce"}, kafka...)
	if _, stderr, code := runCLI(t, root, "", nil, append(args, "examples/tpch/q3.sql")...); code != 0 || !strings.Contains(stderr, "produced") {
		t.Fatalf("produce: exit status %d\n%s", code, stderr)
	}
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append([]string{"run"}, kafka...)
			args = append(args, "-group", "g", "-name", name, "-exit-idle", "3s", "-commit-every", "500", "examples/tpch/q3.sql")
			_, stderr, code := runCLI(t, root, "", nil, args...)
			if code != 0 || !strings.Contains(stderr, "member "+name+":") {
				t.Errorf("member %s: exit status %d\n%s", name, code, stderr)
			}
			t.Logf("%s", strings.TrimSpace(stderr))
		}()
	}
	wg.Wait()
	args = append([]string{"merge"}, kafka...)
	merged, mergeErr, code := runCLI(t, root, "", nil, append(args, "-format", "json", "examples/tpch/q3.sql")...)
	if code != 0 {
		t.Fatalf("merge: exit status %d\n%s", code, mergeErr)
	}
	one, stderr, code := runCLI(t, root, "", nil, "run", "-depth", "-1", "-format", "json", "examples/tpch/q3.sql")
	if code != 0 {
		t.Fatalf("run: exit status %d\n%s", code, stderr)
	}
	if merged != one {
		t.Errorf("merge:\n%s\n%s\nrun:\n%s", merged, mergeErr, one)
	}
}
