package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/runtime/kafka"
	"github.com/toastgen/toastgen/viewlet"
)

// Running on Kafka (runtime/kafka). run -kafka runs a member of a
// consumer group, merge a merger of the members' states, both as a driver
// built around the generated package (compiled with its partition plan);
// produce publishes the query's FROM FILE data to the input topics from
// this process. -depth auto, which samples the FROM FILE data, compiles
// unbounded here: members and mergers on other machines must compile the
// same maps (a snapshot of other maps is an error).

// kafkaFlags are the flags every Kafka command shares.
type kafkaFlags struct {
	brokers, prefix *string
	timeout         *time.Duration
}

func defineKafkaFlags(fs *flag.FlagSet) kafkaFlags {
	return kafkaFlags{
		brokers: fs.String("kafka", "", "run on Kafka: the seed `BROKERS`, host:port, comma-separated (see the README's \"Running on Kafka\")"),
		prefix:  fs.String("topic-prefix", "", "with -kafka, the `PREFIX` of the topics' names: PREFIX + each relation's lower-case name,\nPREFIX + \"state\", PREFIX + \"changes\""),
		timeout: fs.Duration("kafka-timeout", kafka.DefaultReachTimeout, "with -kafka, fail when no broker answers within this `long`"),
	}
}

// reach checks, before anything is built, that a broker answers.
func (kf kafkaFlags) reach(ctx context.Context) error {
	if *kf.timeout <= 0 {
		return usagef("-kafka-timeout must be positive, got %v", *kf.timeout)
	}
	return kafka.Reach(ctx, kf.config())
}

// config is the Config of the flags' brokers, prefix and timeout.
func (kf kafkaFlags) config() kafka.Config {
	return kafka.Config{Brokers: strings.Split(*kf.brokers, ","), Prefix: *kf.prefix, ReachTimeout: *kf.timeout}
}

// kafkaProgram compiles the query for Kafka: unbounded for -depth auto,
// with its partition plan; a query that is not partitionable is an error.
func kafkaProgram(path string, co compileOpts) (*viewlet.Program, *calculus.PartitionPlan, error) {
	if co.auto {
		co.auto, co.depth = false, viewlet.Unbounded
	}
	var plan *calculus.PartitionPlan
	co.partition = &plan
	_, p, err := compile(path, co)
	if err != nil {
		return nil, nil, err
	}
	if why := viewlet.MergeReason(p, plan); why != "" {
		return nil, nil, fmt.Errorf("%s: not partitionable (%s): it cannot run on Kafka's partitions", sourceName(path), why)
	}
	return p, plan, nil
}

// cmdKafkaDriver builds the Kafka driver of the query at path and runs it
// with args (a member, or with -merge a merger).
func cmdKafkaDriver(path string, co compileOpts, kf kafkaFlags, args ...string) error {
	p, plan, err := kafkaProgram(path, co)
	if err != nil {
		return err
	}
	if err := kf.reach(context.Background()); err != nil {
		return err
	}
	args = append(args, "-reach-timeout", kf.timeout.String())
	src, err := codegen.Generate(p, codegen.Options{Package: "query", Partition: plan, Source: sourceName(path), Version: version()})
	if err != nil {
		return err
	}
	return withSignals(func(ctx context.Context) error {
		bin, cleanup, err := buildDriver(ctx, src, "kafka")
		if err != nil {
			return err
		}
		defer cleanup()
		return execDriver(ctx, bin, args...)
	})
}

const driverKafka = `package main

import (
	"toastgenrun/query"

	"github.com/toastgen/toastgen/runtime/kafka"
)

func main() { kafka.Main(query.New()) }
`

// kafkaModules are the modules runtime/kafka needs, required by the
// Kafka driver's module at the versions this binary was built with (so
// that the build finds them in the module cache, offline).
var kafkaModules = []string{"github.com/twmb/franz-go", "github.com/klauspost/compress", "github.com/pierrec/lz4"}

// kafkaRequires returns the require lines of the Kafka driver's go.mod.
func kafkaRequires() (string, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", fmt.Errorf("this toastgen binary has no module information: build it with the go command to run on Kafka")
	}
	var b strings.Builder
	for _, d := range bi.Deps {
		for _, m := range kafkaModules {
			if strings.HasPrefix(d.Path, m) {
				if d.Replace != nil {
					d = d.Replace
				}
				fmt.Fprintf(&b, "require %s %s\n", d.Path, d.Version)
			}
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("this toastgen binary was built without github.com/twmb/franz-go")
	}
	return b.String(), nil
}

func mergeFlags(fs *flag.FlagSet) func(string) error {
	copts := compileFlags(fs)
	kf := defineKafkaFlags(fs)
	format := fs.String("format", "table", "output `format` of the merged views: table or json (as run's)")
	follow := fs.Bool("follow", false, "print every change of the merged views as a JSON line (as run -changes', event 0), until interrupted")
	idle := fs.Duration("idle", time.Second, "print the merged views, after every state committed before the start, once no task's state has arrived for this `long`")
	return func(query string) error {
		co, err := copts()
		if err != nil {
			return err
		}
		if *kf.brokers == "" {
			return usagef("merge needs -kafka BROKERS")
		}
		if *format != "table" && *format != "json" {
			return usagef("-format must be table or json, got %q", *format)
		}
		if *idle <= 0 {
			return usagef("-idle must be positive, got %v", *idle)
		}
		args := []string{"-merge", "-brokers", *kf.brokers, "-prefix", *kf.prefix, "-format", *format, "-idle", idle.String()}
		if *follow {
			args = append(args, "-follow")
		}
		return cmdKafkaDriver(query, co, kf, args...)
	}
}

// kafkaMemberArgs checks run's Kafka flags and returns the driver's.
func kafkaMemberArgs(kf kafkaFlags, group, name string, every int, exitIdle time.Duration) ([]string, error) {
	if group == "" {
		return nil, usagef("-kafka needs -group G")
	}
	if every < 0 {
		return nil, usagef("-commit-every must not be negative, got %d", every)
	}
	if exitIdle < 0 {
		return nil, usagef("-exit-idle must not be negative, got %v", exitIdle)
	}
	args := []string{"-brokers", *kf.brokers, "-prefix", *kf.prefix, "-group", group, "-commit-every", fmt.Sprint(every), "-exit-idle", exitIdle.String()}
	if name != "" {
		args = append(args, "-name", name)
	}
	return args, nil
}

func produceFlags(fs *flag.FlagSet) func(string) error {
	copts := compileFlags(fs)
	kf := defineKafkaFlags(fs)
	data := dataFlag(fs)
	return func(query string) error {
		co, err := copts()
		if err != nil {
			return err
		}
		if *kf.brokers == "" {
			return usagef("produce needs -kafka BROKERS")
		}
		if *kf.timeout <= 0 {
			return usagef("-kafka-timeout must be positive, got %v", *kf.timeout)
		}
		return cmdProduce(query, co, *data, kf.config())
	}
}

// cmdProduce publishes the events of the query's FROM FILE sources to
// its input topics, in the order run replays them.
func cmdProduce(path string, co compileOpts, data string, cfg kafka.Config) error {
	p, plan, err := kafkaProgram(path, co)
	if err != nil {
		return err
	}
	e, err := viewlet.NewPartitionedInterp(p, plan)
	if err != nil {
		return err
	}
	if err := kafka.Reach(context.Background(), cfg); err != nil {
		return err
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(cfg.Brokers...))
	if err != nil {
		return err
	}
	defer cl.Close()
	pr := &producer{Partitioned: e, cfg: cfg, cl: cl, ctx: context.Background(), failed: make(chan error, 1)}
	if err := runtime.Replay(pr, runtime.ReplayOptions{Dir: data}); err != nil {
		return err
	}
	if err := cl.Flush(pr.ctx); err != nil {
		return err
	}
	if err := pr.error(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "toastgen: produced %d events\n", pr.n)
	return nil
}

// producer is the Engine that runtime.Replay feeds: it publishes each
// event as a record (kafka.NewRecord) instead of applying it.
type producer struct {
	runtime.Partitioned // the relations and partition columns
	cfg                 kafka.Config
	cl                  *kgo.Client
	ctx                 context.Context
	n                   int
	failed              chan error
}

func (pr *producer) Apply(rel int, insert bool, fields [][]byte) error {
	if err := pr.error(); err != nil {
		return err
	}
	fs := make([]string, len(fields))
	for i, f := range fields {
		fs[i] = string(f)
	}
	rec, err := kafka.NewRecord(pr.cfg, pr.Partitioned, rel, insert, fs)
	if err != nil {
		return err
	}
	pr.cl.Produce(pr.ctx, rec, func(_ *kgo.Record, err error) {
		if err != nil {
			select {
			case pr.failed <- err:
			default:
			}
		}
	})
	pr.n++
	return nil
}

func (pr *producer) error() error {
	select {
	case err := <-pr.failed:
		return fmt.Errorf("producing to Kafka: %w", err)
	default:
		return nil
	}
}
