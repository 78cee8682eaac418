package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

func m3Flags(fs *flag.FlagSet) func(string) error {
	copts := compileFlags(fs)
	explain := fs.Bool("explain", false, "print first how the depth was chosen (-depth auto): each candidate's work per event on the sample")
	partitions := fs.Bool("partitions", false, "print instead how N engines could share the work (calculus.Partition): per relation its\n"+
		"partition column or broadcast, per view how the partitions' views merge — or why the\n"+
		"queries are not partitionable")
	return func(query string) error {
		co, err := copts()
		if err != nil {
			return err
		}
		if *partitions {
			f, err := parseQuery(query, co.dialect)
			if err != nil {
				return err
			}
			qs, err := calculus.FromSQL(f)
			if err != nil {
				return err
			}
			fmt.Print(calculus.Partition(f.Relations, qs))
			return nil
		}
		var choices []viewChoice
		co.choices = &choices
		_, p, err := compile(query, co)
		if err != nil {
			return err
		}
		if *explain {
			printChoices(co, choices)
		}
		fmt.Print(p)
		// The storage codegen gives the maps: those updated together at
		// one key share a table.
		fused, err := codegen.Fused(p)
		if err != nil {
			return err
		}
		for _, g := range fused {
			fmt.Printf("\nFUSED %s (one table in generated code: an entry per key, a value per map)\n", strings.Join(g, ", "))
		}
		return nil
	}
}

// printChoices prints the depth decisions of m3 -explain as comment
// lines: one per view when the file has several.
func printChoices(co compileOpts, cs []viewChoice) {
	if !co.auto {
		fmt.Printf("-- depth %d, as -depth says\n\n", co.depth)
		return
	}
	for _, c := range cs {
		if len(cs) == 1 {
			fmt.Printf("-- depth auto: %d (%s)\n", c.Depth, c.Reason)
		} else {
			fmt.Printf("-- depth auto for %s: %d (%s)\n", c.view, c.Depth, c.Reason)
		}
		printCosts(c.DepthChoice)
	}
	fmt.Println()
}

// printCosts prints each candidate depth's work per event.
func printCosts(c viewlet.DepthChoice) {
	for _, k := range c.Costs {
		name := fmt.Sprintf("depth %d", k.Depth)
		switch {
		case k.Err != nil:
			fmt.Printf("--   %s: %v\n", name, k.Err)
		case k.Events > 0:
			fmt.Printf("--   %s: %.1f map entries looked up, visited or updated per event over %d events\n", name, k.Work, k.Events)
		}
	}
}

func dataFlag(fs *flag.FlagSet) *string {
	return fs.String("data", "", "resolve relative FROM FILE paths against `DIR` (default: the working directory)")
}

func runFlags(fs *flag.FlagSet) func(string) error {
	engine := fs.String("engine", "go", "`engine`: go (generate, build and run the package) or interp")
	format := fs.String("format", "table", "output `format`: table or json; each view lists its keys (in SELECT order, then\n"+
		"unselected GROUP BY keys), then its values; json's \"columns\" is the SELECT list,\n"+
		"each {\"name\":…,\"key\":i} or {\"name\":…,\"value\":i} (row cell i or len(keys)+i)")
	changes := fs.Bool("changes", false, "print every view change as a JSON line before the views:\n"+
		"{\"event\": N, \"view\": …, \"key\": […], \"old\": […] | null, \"new\": […] | null}, N counting events from 1,\n"+
		"keys and values in the order of -format json")
	snapshot := fs.String("snapshot", "", "write a snapshot of the engine's state to `FILE` when the replay ends (see -snapshot-every)")
	every := fs.Int64("snapshot-every", 0, "also write the snapshot after every `N` events applied (needs -snapshot)")
	resume := fs.String("resume", "", "restore the engine from the snapshot in `FILE` (of the same query and options),\n"+
		"then replay only the events of each source it does not cover")
	load := fs.String("load", "", "apply the existing tables in `DIR` first (each relation's source file by its base\n"+
		"name, where there is one) as one batch, set-at-a-time where it pays (see -policy)")
	policy := fs.String("policy", "auto", "how -load's batch is applied: auto (set-at-a-time for the relations with many\n"+
		"events), incremental (event by event) or set (set-at-a-time wherever the triggers allow)")
	copts := compileFlags(fs)
	data := dataFlag(fs)
	workers := workersFlag(fs)
	kf := defineKafkaFlags(fs)
	group := fs.String("group", "", "with -kafka, the consumer `G`roup of the members")
	name := fs.String("name", "", "with -kafka, this member's `NAME` in the group, kept across restarts (default: host name and process id)")
	commitEvery := fs.Int("commit-every", 0, "with -kafka, the most records applied per transaction, `N` (default 10000)")
	exitIdle := fs.Duration("exit-idle", 0, "with -kafka, stop once no record has arrived for this `long` and every input partition held is read to its end (default: run until interrupted)")
	return func(query string) error {
		if *kf.brokers != "" {
			set := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
			for _, n := range []string{"engine", "format", "changes", "snapshot", "snapshot-every", "resume", "load", "policy", "data", "workers"} {
				if set[n] {
					return usagef("-kafka runs a member of a consumer group: -%s does not apply", n)
				}
			}
			args, err := kafkaMemberArgs(kf, *group, *name, *commitEvery, *exitIdle)
			if err != nil {
				return err
			}
			co, err := copts()
			if err != nil {
				return err
			}
			return cmdKafkaDriver(query, co, kf, args...)
		}
		pol, ok := runtime.ParsePolicy(*policy)
		if !ok {
			return usagef("-policy must be auto, incremental or set, got %q", *policy)
		}
		if *load != "" && *resume != "" {
			return usagef("-load and -resume exclude each other")
		}
		if *every < 0 {
			return usagef("-snapshot-every must not be negative, got %d", *every)
		}
		if *every > 0 && *snapshot == "" {
			return usagef("-snapshot-every needs -snapshot FILE")
		}
		if *format != "table" && *format != "json" {
			return usagef("-format must be table or json, got %q", *format)
		}
		if *engine != "go" && *engine != "interp" {
			return usagef("-engine must be go or interp, got %q", *engine)
		}
		co, err := copts()
		if err != nil {
			return err
		}
		if *workers < 1 {
			return usagef("-workers must be at least 1, got %d", *workers)
		}
		if *workers > 1 && (*changes || *snapshot != "" || *resume != "") {
			return usagef("-workers runs one engine per partition: -changes, -snapshot and -resume need one engine")
		}
		co.dataDir = *data
		ro := runtime.RunOptions{Format: *format, Dir: *data, Changes: *changes, Snapshot: *snapshot, SnapshotEvery: *every, Resume: *resume, Load: *load, Policy: pol}
		return cmdRun(query, *engine, *workers, co, ro)
	}
}

// cmdRun compiles the query at path and runs it on engine, with workers
// partitions where the query allows, as ro says.
func cmdRun(path, engine string, workers int, co compileOpts, ro runtime.RunOptions) error {
	data := ro.Dir
	var plan *calculus.PartitionPlan
	if workers > 1 {
		co.partition = &plan
	}
	f, p, err := compile(path, co)
	if err != nil {
		return err
	}
	if err := checkDataFiles(f, data); err != nil {
		return err
	}
	switch engine {
	case "interp":
		in := viewlet.NewInterp(p)
		if err := in.Err(); err != nil {
			return err
		}
		if _, workerArgs := partitionOptions(p, plan, workers); workerArgs != nil {
			pi, err := viewlet.NewPartitionedInterp(p, plan)
			if err != nil {
				return err
			}
			w, err := runtime.NewWorkers(pi, workers)
			if err != nil {
				return err
			}
			defer w.Close()
			return runtime.Run(w, ro, os.Stdout)
		}
		return runtime.Run(in, ro, os.Stdout)
	default: // "go"
		gopts, workerArgs := partitionOptions(p, plan, workers)
		gopts.Source, gopts.Version = sourceName(path), version()
		src, err := codegen.Generate(p, gopts)
		if err != nil {
			return err
		}
		return withSignals(func(ctx context.Context) error {
			bin, cleanup, err := buildDriver(ctx, src, "run")
			if err != nil {
				return explainBuild(f, src, err)
			}
			defer cleanup()
			args := append([]string{"-format", ro.Format}, workerArgs...)
			if ro.Changes {
				args = append(args, "-changes")
			}
			// The driver runs in another directory: paths made absolute.
			for _, fl := range []struct{ name, path string }{{"-snapshot", ro.Snapshot}, {"-resume", ro.Resume}} {
				if fl.path == "" {
					continue
				}
				abs, err := filepath.Abs(fl.path)
				if err != nil {
					return err
				}
				args = append(args, fl.name, abs)
			}
			if ro.SnapshotEvery > 0 {
				args = append(args, "-snapshot-every", fmt.Sprint(ro.SnapshotEvery))
			}
			if ro.Load != "" {
				abs, err := filepath.Abs(ro.Load)
				if err != nil {
					return err
				}
				args = append(args, "-load", abs, "-policy", ro.Policy.String())
			}
			return execDriver(ctx, bin, driverArgs(data, args...)...)
		})
	}
}

func benchFlags(fs *flag.FlagSet) func(string) error {
	copts := compileFlags(fs)
	repeat := fs.Int("repeat", 1, "replay the stream `K` times (each pass followed by its inverse)")
	format := fs.String("format", "text", "output `format`: text (lines triggers, end-to-end, peak heap, events, state heap,\nthen live state when the maps hold entries, partitions with -workers) or json (one object:\ntrigger_events_per_s, trigger_ns_per_event, trigger_allocs_per_event, trigger_ns,\ntrigger_allocs, end_to_end_events_per_s (null if skipped), end_to_end_events,\nend_to_end_ns, peak_heap_bytes, events_per_pass, passes, events_applied, elapsed_ns,\nstate_heap_bytes, event_buffer_bytes, live_state_bytes, map_entries, partitions)")
	data := dataFlag(fs)
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the trigger run (not of parsing) to `FILE`,\nfor go tool pprof")
	workers := workersFlag(fs)
	return func(query string) error {
		co, err := copts()
		if err != nil {
			return err
		}
		if *repeat < 1 {
			return usagef("-repeat must be at least 1, got %d", *repeat)
		}
		if *format != "text" && *format != "json" {
			return usagef("-format must be text or json, got %q", *format)
		}
		args := []string{"-repeat", fmt.Sprint(*repeat), "-format", *format}
		if *cpuprofile != "" {
			abs, err := filepath.Abs(*cpuprofile)
			if err != nil {
				return err
			}
			args = append(args, "-cpuprofile", abs)
		}
		if *workers < 1 {
			return usagef("-workers must be at least 1, got %d", *workers)
		}
		co.dataDir = *data
		return cmdBench(query, co, *data, *workers, args...)
	}
}

// cmdBench builds the benchmark driver of the query at path and runs it with
// the driver flags args, on workers partitions where the query allows.
func cmdBench(path string, co compileOpts, data string, workers int, args ...string) error {
	var plan *calculus.PartitionPlan
	if workers > 1 {
		co.partition = &plan
	}
	f, p, err := compile(path, co)
	if err != nil {
		return err
	}
	if err := checkDataFiles(f, data); err != nil {
		return err
	}
	gopts, workerArgs := partitionOptions(p, plan, workers)
	gopts.Source, gopts.Version = sourceName(path), version()
	args = append(args, workerArgs...)
	src, err := codegen.Generate(p, gopts)
	if err != nil {
		return err
	}
	return withSignals(func(ctx context.Context) error {
		bin, cleanup, err := buildDriver(ctx, src, "bench")
		if err != nil {
			return explainBuild(f, src, err)
		}
		defer cleanup()
		return execDriver(ctx, bin, driverArgs(data, args...)...)
	})
}

func driverArgs(data string, args ...string) []string {
	if data != "" {
		args = append(args, "-dir", data)
	}
	return args
}

func sourceName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return filepath.ToSlash(path)
}

// checkDataFiles checks, before anything is built, that the file of every
// FROM FILE clause of a relation that a query reads exists and is
// readable (the others' sources are not read: runtime.Relation.Unread);
// the error names the file and the clause's position in the query.
func checkDataFiles(f *lang.File, dir string) error {
	read := f.Referenced()
	for _, r := range f.Relations {
		if r.Source == nil || !read[r.Name] {
			continue
		}
		path := r.Source.Path
		if dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		fh, err := os.Open(path)
		if err == nil {
			var fi os.FileInfo
			fi, err = fh.Stat()
			if err == nil && fi.IsDir() {
				err = fmt.Errorf("is a directory")
			}
			fh.Close()
		}
		if err != nil {
			if pe, ok := err.(*os.PathError); ok {
				err = pe.Err
			}
			return f.Errorf(r.Source.Pos, "data file %s of %s: %v", path, r.Name, err)
		}
	}
	return nil
}

func workersFlag(fs *flag.FlagSet) *int {
	return fs.Int("workers", 1, "run `N` engines on N goroutines, each event routed to one by the query's partition plan\n"+
		"(toastgen m3 -partitions) and the views merged when read; a query that is not\n"+
		"partitionable runs on one engine, with a note on standard error")
}

// partitionOptions returns the codegen options for a run on workers
// partitions under plan, and the driver flags that ask for them; when the
// query is not partitionable it says so on standard error, and the run
// keeps one engine.
func partitionOptions(p *viewlet.Program, plan *calculus.PartitionPlan, workers int) (codegen.Options, []string) {
	opts := codegen.Options{Package: "query"}
	if workers <= 1 || plan == nil {
		return opts, nil
	}
	if why := viewlet.MergeReason(p, plan); why != "" {
		fmt.Fprintf(os.Stderr, "toastgen: -workers %d: not partitionable (%s): running one engine\n", workers, why)
		return opts, nil
	}
	opts.Partition = plan
	return opts, []string{"-workers", fmt.Sprint(workers)}
}
