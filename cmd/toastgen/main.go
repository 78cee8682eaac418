// Command toastgen compiles SQL aggregate queries into Go packages that keep
// their results fresh under inserts and deletes.
//
//	toastgen gen     [-pkg NAME] [-o DIR|FILE.go] [-depth N] [-dialect D] QUERY.sql   write the Go package
//	toastgen m3      [-depth N] [-dialect D] QUERY.sql                                print the compiled Program
//	toastgen run     [-engine go|interp] [-format table|json] [-depth N] [-dialect D] [-data DIR] QUERY.sql
//	toastgen bench   [-depth N] [-dialect D] [-repeat K] [-format text|json] [-data DIR] QUERY.sql
//	toastgen run     -kafka BROKERS -group G [-name N] [-topic-prefix P] QUERY.sql   a member on Kafka
//	toastgen produce -kafka BROKERS [-topic-prefix P] [-data DIR] QUERY.sql            publish the data
//	toastgen merge   -kafka BROKERS [-topic-prefix P] [-format table|json] [-follow] QUERY.sql
//	toastgen version
//	toastgen help [COMMAND]
//
// QUERY.sql may be -, standard input. run and bench replay the files named
// in the query's FROM FILE clauses, relative to the working directory (or
// to -data DIR). With -engine go (the default) the package is generated
// into a temporary module, built with the local Go toolchain against a copy
// of toastgen's runtime embedded in this binary, and run. run prints each
// view's keys (in SELECT order, then unselected GROUP BY keys) and values;
// -format json adds "columns", the SELECT list as key and value indexes.
//
// Exit status: 0 on success (and for help), 2 for usage errors (bad flags,
// flag values or arguments), 1 for other failures. Each error is printed
// once, on standard error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
	"github.com/toastgen/toastgen/viewlet"
)

// A command is one toastgen subcommand. flags defines the command's flags
// on fs and returns the function that runs it on the query path.
type command struct {
	name  string
	args  string // the arguments after the flags, for the usage line
	short string // one-line description
	flags func(fs *flag.FlagSet) func(query string) error
}

var commands []*command // set by init, to break the help ↔ commands cycle

func init() {
	commands = []*command{
		{"gen", "QUERY.sql", "write the Go package that maintains the query's views", genFlags},
		{"m3", "QUERY.sql", "print the compiled program: maps, views and triggers", m3Flags},
		{"run", "QUERY.sql", "replay the query's FROM FILE data and print the final views", runFlags},
		{"bench", "QUERY.sql", "build the generated package and measure its triggers on the query's data", benchFlags},
		{"produce", "QUERY.sql", "publish the query's FROM FILE data to its Kafka input topics (for run -kafka)", produceFlags},
		{"merge", "QUERY.sql", "print the views merged from the states that run -kafka members commit", mergeFlags},
		{"version", "", "print toastgen's version", nil},
		{"help", "[COMMAND]", "print help for toastgen or one command", nil},
	}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is a usage error: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// exitError ends toastgen with a status and no message (the message, if
// any, was printed already, e.g. by the generated driver).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs toastgen with args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr)
		return 2
	}
	err := dispatch(args, stdout)
	var ue usageError
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "toastgen: %v\n", err)
		fmt.Fprintf(stderr, "run 'toastgen help%s' for usage\n", helpTopic(args))
		return 2
	default:
		fmt.Fprintf(stderr, "toastgen: %v\n", err)
		return 1
	}
}

// helpTopic is " CMD" when args start with a known command, for the hint
// after a usage error.
func helpTopic(args []string) string {
	if len(args) > 0 && lookup(args[0]) != nil && args[0] != "help" && args[0] != "version" {
		return " " + args[0]
	}
	return ""
}

func dispatch(args []string, stdout io.Writer) error {
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 2 {
			return usagef("help takes at most one command, got %d arguments", len(args)-1)
		}
		if len(args) == 2 {
			c := lookup(args[1])
			if c == nil {
				return usagef("unknown command %q", args[1])
			}
			writeHelp(stdout, c)
			return nil
		}
		writeUsage(stdout)
		return nil
	case "version", "-version", "--version":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "-help" || args[1] == "--help") {
			writeHelp(stdout, lookup("version"))
			return nil
		}
		if len(args) > 1 {
			return usagef("version takes no arguments")
		}
		fmt.Fprintf(stdout, "toastgen %s\n", version())
		return nil
	}
	c := lookup(args[0])
	if c == nil || c.flags == nil {
		return usagef("unknown command %q", args[0])
	}
	fs := newFlagSet(c.name)
	runCmd := c.flags(fs)
	query, err := parseArgs(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		writeHelp(stdout, c)
		return nil
	}
	if err != nil {
		return err
	}
	return runCmd(query)
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned and printed once, by run
	return fs
}

// writeUsage prints the list of commands.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "toastgen compiles SQL aggregate queries into Go packages that keep their results\nfresh under inserts and deletes.\n\nusage: toastgen COMMAND [flags] [QUERY.sql]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, "\nQUERY.sql may be - (standard input). 'toastgen help COMMAND' lists a command's flags.\n")
}

// writeHelp prints a command's description, usage line and flags.
func writeHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "toastgen %s: %s\n\nusage: toastgen %s", c.name, c.short, c.name)
	if c.flags != nil {
		fmt.Fprint(w, " [flags]")
	}
	if c.args != "" {
		fmt.Fprint(w, " ", c.args)
	}
	fmt.Fprintln(w)
	if c.flags == nil {
		return
	}
	fs := newFlagSet(c.name)
	c.flags(fs)
	fmt.Fprint(w, "\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// parseArgs parses flags placed before or after the one query file.
func parseArgs(fs *flag.FlagSet, args []string) (string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", err
			}
			return "", usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return "", usagef("%s: expected one query file, got %d", fs.Name(), len(files))
	}
	return files[0], nil
}

// compileOpts are the flags every command shares: how the query compiles.
type compileOpts struct {
	depth   int
	auto    bool // -depth auto: choose from a sample of the input (viewlet.ChooseDepth)
	dialect lang.Dialect
	dataDir string // resolves relative FROM FILE paths when sampling (run's and bench's -data)
	flat    bool   // -flat-views: no factorized views (viewlet.Options.FlatViews)
	// choices, if set, receives the choices of -depth auto, one per view.
	choices *[]viewChoice
	// partition, if set, receives the query file's partition plan
	// (calculus.Partition); when the plan splits the work, the views are
	// compiled flat (a view tree's factors multiply: they do not merge).
	partition **calculus.PartitionPlan
}

// viewChoice is the depth -depth auto chose for one view.
type viewChoice struct {
	view string
	viewlet.DepthChoice
}

// sampleEvents is the number of events -depth auto replays per candidate.
const sampleEvents = 2000

// compileFlags defines -depth and -dialect on fs; the function it returns
// validates them (a usage error) once fs is parsed.
func compileFlags(fs *flag.FlagSet) func() (compileOpts, error) {
	depth := fs.String("depth", "auto", "viewlet recursion depth `N`: 0 re-evaluates, 1 is first-order IVM, -1 is unbounded;\n"+
		"auto compiles -1 and 1 and keeps the one that does less work per event on the first\n"+
		"2,000 events of the FROM FILE data (-1 when there is none; m3 -explain shows why)")
	dialect := fs.String("dialect", "sql", "the query's semantics: `sql` (SQL's: NULLs, three-valued logic, outer joins, INT / INT truncates,\n"+
		"an aggregate over no rows is NULL) or dbtoaster (DBToaster's: no NULLs, / is real division, an aggregate over no rows is 0)")
	flat := fs.Bool("flat-views", false, "keep every view a flat map of its rows: no factorized views (view trees) for\n"+
		"q-hierarchical joins whose flat view an event would update once per partner")
	return func() (compileOpts, error) {
		co := compileOpts{auto: *depth == "auto", flat: *flat}
		if !co.auto {
			n, err := strconv.Atoi(*depth)
			if err != nil || n < viewlet.Unbounded {
				return compileOpts{}, usagef("-depth must be auto, -1 (unbounded) or at least 0, got %s", *depth)
			}
			co.depth = n
		}
		d, err := lang.ParseDialect(*dialect)
		if err != nil {
			return compileOpts{}, usagef("-dialect: %v", err)
		}
		co.dialect = d
		return co, nil
	}
}

// parseQuery parses the query file at path, or standard input for "-".
func parseQuery(path string, d lang.Dialect) (*lang.File, error) {
	c := lang.Config{Dialect: d}
	if path != "-" {
		return c.ParseFile(path)
	}
	src, err := io.ReadAll(os.Stdin)
	if err != nil {
		return nil, fmt.Errorf("reading the query from standard input: %v", err)
	}
	return c.Parse("<stdin>", src)
}

// compile runs the pipeline up to the Program.
func compile(path string, co compileOpts) (*lang.File, *viewlet.Program, error) {
	f, err := parseQuery(path, co.dialect)
	if err != nil {
		return nil, nil, err
	}
	if len(f.Queries) == 0 {
		// A schema alone (what INCLUDE reads) compiles to an engine with
		// no view: almost certainly the wrong file.
		name := path
		if path == "-" {
			name = "<stdin>"
		}
		return nil, nil, fmt.Errorf("%s: no SELECT: the file declares relations but no query to maintain", name)
	}
	// Names whose Go identifiers would clash are rejected by every
	// command, not only by those that generate code.
	if err := codegen.CheckNames(f); err != nil {
		return nil, nil, err
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, nil, err
	}
	if co.partition != nil {
		plan := calculus.Partition(f.Relations, qs)
		*co.partition = plan
		co.flat = co.flat || plan.Partitionable()
	}
	opts := viewlet.Options{Depth: co.depth, FlatViews: co.flat}
	if co.auto {
		// Each view's depth is chosen on its own program: one view of a
		// file may gain from first-order IVM where another loses.
		opts.Depth, opts.Depths = viewlet.Unbounded, make([]int, len(qs))
		for i := range qs {
			one := qs[i : i+1]
			choice := viewlet.ChooseDepth(func(d int) (*viewlet.Program, error) {
				return viewlet.Compile(f, one, viewlet.Options{Depth: d, FlatViews: co.flat})
			}, func(e runtime.Engine) error {
				return runtime.Replay(e, runtime.ReplayOptions{Dir: co.dataDir})
			}, sampleEvents)
			opts.Depths[i] = choice.Depth
			if co.choices != nil {
				*co.choices = append(*co.choices, viewChoice{qs[i].Name, choice})
			}
		}
	}
	p, err := viewlet.Compile(f, qs, opts)
	return f, p, err
}

const modulePath = "github.com/toastgen/toastgen"

// pseudoVersion matches the tail of a module pseudo-version
// (v0.0.0-20240102150405-abcdef123456).
var pseudoVersion = regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}$`)

// version is toastgen's module version from the build information: the
// version of github.com/toastgen/toastgen that a downstream module
// required (go tool, go run pkg@version, go install pkg@version), or
// "(devel)" for a build of a replaced module or in the checkout. A
// checkout's VCS-stamped version (a pseudo-version, "+dirty") counts as
// "(devel)", so that regenerating in the repository does not change the
// headers from commit to commit; a checkout at a clean tag reports it.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	m := &bi.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				m = d
			}
		}
	}
	if m == nil || m.Replace != nil || m.Version == "" || m.Version == "(devel)" {
		return "(devel)"
	}
	for _, kv := range bi.Settings {
		if kv.Key == "vcs.revision" && (strings.Contains(m.Version, "+") || pseudoVersion.MatchString(m.Version)) {
			return "(devel)" // built in a checkout, between tags
		}
	}
	return m.Version
}
