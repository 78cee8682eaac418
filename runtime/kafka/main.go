package kafka

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/toastgen/toastgen/runtime"
)

// Main is the main function of the program toastgen run -kafka and
// toastgen merge build around a generated package: a member of a
// consumer group that runs until SIGINT or SIGTERM (or, with -exit-idle,
// until its input has been idle that long), or with -merge a merger that
// prints the merged views once the state topic has been idle for -idle,
// or with -follow prints every change of the merged views as a JSON line
// until stopped. Errors go to standard error with exit status 1.
func Main(e runtime.Partitioned) {
	fs := flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	brokers := fs.String("brokers", "", "the seed brokers, host:port, comma-separated")
	group := fs.String("group", "", "the consumer group of the members")
	name := fs.String("name", "", "this member's name in the group (default: host name and process id)")
	prefix := fs.String("prefix", "", "the topics' name prefix")
	every := fs.Int("commit-every", 0, "the most records applied per transaction (default 10000)")
	exitIdle := fs.Duration("exit-idle", 0, "a member stops once no record has arrived for this long (0: runs until stopped)")
	merge := fs.Bool("merge", false, "merge the tasks' states instead of running a member")
	format := fs.String("format", "table", "the merged views' format: table or json")
	follow := fs.Bool("follow", false, "with -merge, print every change of the merged views as a JSON line, until stopped")
	idle := fs.Duration("idle", time.Second, "with -merge, print the views once no state has arrived for this long")
	reach := fs.Duration("reach-timeout", DefaultReachTimeout, "fail when no broker answers within this long")
	_ = fs.Parse(os.Args[1:])
	cfg := Config{Brokers: strings.Split(*brokers, ","), Group: *group, Name: *name, Prefix: *prefix, CommitEvery: *every, ReachTimeout: *reach}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := Reach(ctx, cfg)
	switch {
	case err != nil:
	case *merge:
		err = mergeMain(ctx, cfg, e, *format, *follow, *idle, os.Stdout)
	default:
		err = memberMain(ctx, cfg, e, *exitIdle)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "toastgen: %v\n", err)
		os.Exit(1)
	}
}

func memberMain(ctx context.Context, cfg Config, e runtime.Partitioned, exitIdle time.Duration) error {
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	m, err := NewMember(cfg, e)
	if err != nil {
		return err
	}
	defer m.Close()
	m.exitIdle = exitIdle
	err = m.Run(ctx)
	st := m.stats
	fmt.Fprintf(os.Stderr, "toastgen: member %s: %d records applied (%d redelivered skipped), %d transactions committed, %d aborted, %d tasks restored\n",
		cfg.Name, st.applied, st.redelivered, st.commits, st.aborts, st.restored)
	return err
}

// coverage prints offsets as "topic:partition<offset" (every record
// below the offset), sorted.
func coverage(offsets map[string]int64) string {
	if len(offsets) == 0 {
		return "no input"
	}
	var parts []string
	for _, src := range slices.Sorted(maps.Keys(offsets)) {
		parts = append(parts, fmt.Sprintf("%s<%d", src, offsets[src]))
	}
	return strings.Join(parts, " ")
}

func mergeMain(ctx context.Context, cfg Config, e runtime.Partitioned, format string, follow bool, idle time.Duration, w io.Writer) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("-format must be table or json, got %q", format)
	}
	m, err := NewMerger(cfg, e)
	if err != nil {
		return err
	}
	defer m.Close()
	if follow {
		var werr error
		m.OnChanges(func(c runtime.Change) {
			if werr == nil {
				werr = runtime.WriteChangeJSON(w, 0, c)
			}
		})
		for ctx.Err() == nil && werr == nil {
			if err := m.Poll(ctx); err != nil && ctx.Err() == nil {
				return err
			}
		}
		return werr
	}
	// First every state committed before now, however long the first
	// fetch takes; then until no state arrives for idle.
	if err := m.CatchUp(ctx); err != nil {
		return err
	}
	for {
		pctx, cancel := context.WithTimeout(ctx, idle)
		before := m.Offsets()
		err := m.Poll(pctx)
		timedOut := pctx.Err() != nil
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		if timedOut && maps.Equal(before, m.Offsets()) {
			break
		}
	}
	fmt.Fprintf(os.Stderr, "toastgen: merged the states of %d tasks, covering %s\n", m.Tasks(), coverage(m.Offsets()))
	if format == "json" {
		return runtime.WriteJSON(w, m.Views())
	}
	return runtime.WriteTable(w, m.Views())
}
