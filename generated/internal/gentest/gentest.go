// Package gentest holds the checks shared by the tests of the generated
// packages under generated/: regenerating a package's source in memory,
// replaying its example data through the package, the viewlet interpreter
// and SQLite in lockstep, and benchmarking its triggers.
//
// Every generated package has a gen.go whose go:generate line is the only
// record of how the package was produced:
//
//	//go:generate go run ../../cmd/toastgen gen -pkg tpch3d1 -depth 1 -o tpch3d1.go ../../examples/tpch/q3.sql
//
// ReadSpec parses that line, so the tests need no table of their own: a new
// package under generated/ is covered once it has a gen.go and a test file
// that calls CheckReplay and BenchTriggers.
//
// Paths. Like go generate, the functions here that read the query file
// expect the working directory to be the package directory (which is where
// go test runs a package's tests); the query's FROM FILE paths are relative
// to the repository root, RepoRoot.
package gentest

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/viewlet"
)

// RepoRoot is the repository root relative to a generated package's
// directory: the directory that the FROM FILE paths of the example queries
// are relative to.
const RepoRoot = "../.."

// Spec is what a package's go:generate line says.
type Spec struct {
	Pkg   string // -pkg
	Depth int    // -depth (viewlet.Unbounded when absent)
	// Dialect is -dialect (sql when absent, as for the CLI).
	Dialect lang.Dialect
	Query   string // the query file, as written (relative to the package directory)
	Out     string // -o
	Flat    bool   // -flat-views
	// Partitioned is -partitioned: the package implements
	// runtime.Partitioned under the query's partition plan.
	Partitioned bool
}

// GoFile is the name of the file the CLI writes for the package: -o when
// it names a file, else the query's base name plus .go (q3.sql.go).
func (s Spec) GoFile() string {
	if strings.HasSuffix(s.Out, ".go") {
		return s.Out
	}
	return filepath.Base(s.Query) + ".go"
}

// ReadSpec parses the go:generate line of dir/gen.go.
func ReadSpec(dir string) (Spec, error) {
	path := filepath.Join(dir, "gen.go")
	data, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, err
	}
	const prefix = "//go:generate go run ../../cmd/toastgen gen "
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), prefix)
		if !ok {
			continue
		}
		s, err := parseGenArgs(strings.Fields(rest))
		if err != nil {
			return Spec{}, fmt.Errorf("%s: %v", path, err)
		}
		return s, nil
	}
	return Spec{}, fmt.Errorf("%s: no %q line", path, strings.TrimSpace(prefix))
}

// parseGenArgs parses the arguments of `toastgen gen` as the CLI does.
func parseGenArgs(args []string) (Spec, error) {
	var s Spec
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	fs.StringVar(&s.Pkg, "pkg", "", "")
	fs.StringVar(&s.Out, "o", ".", "")
	fs.IntVar(&s.Depth, "depth", viewlet.Unbounded, "")
	fs.BoolVar(&s.Flat, "flat-views", false, "")
	fs.BoolVar(&s.Partitioned, "partitioned", false, "")
	dialect := fs.String("dialect", "sql", "")
	if err := fs.Parse(args); err != nil {
		return s, err
	}
	d, err := lang.ParseDialect(*dialect)
	if err != nil {
		return s, err
	}
	s.Dialect = d
	if fs.NArg() != 1 {
		return s, fmt.Errorf("want flags then one query file, got %q", fs.Args())
	}
	if s.Pkg == "" {
		return s, errors.New("no -pkg flag")
	}
	if s.Out != "." && (!strings.HasSuffix(s.Out, ".go") || strings.ContainsAny(s.Out, `/\`)) {
		return s, fmt.Errorf("-o %s: the package must be generated into its own directory (-o . or -o FILE.go)", s.Out)
	}
	s.Query = fs.Arg(0)
	return s, nil
}

// Compile parses the query file and compiles it at the spec's depth. The
// working directory must be the package directory.
func (s Spec) Compile() (*lang.File, *viewlet.Program, error) {
	f, p, _, err := s.compile()
	return f, p, err
}

// compile is Compile that also returns the partition plan with
// -partitioned (the views then flat, as the CLI compiles them).
func (s Spec) compile() (*lang.File, *viewlet.Program, *calculus.PartitionPlan, error) {
	f, err := lang.Config{Dialect: s.Dialect}.ParseFile(s.Query)
	if err != nil {
		return nil, nil, nil, err
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, nil, nil, err
	}
	var plan *calculus.PartitionPlan
	flat := s.Flat
	if s.Partitioned {
		plan = calculus.Partition(f.Relations, qs)
		flat = flat || plan.Partitionable()
	}
	p, err := viewlet.Compile(f, qs, viewlet.Options{Depth: s.Depth, FlatViews: flat})
	if err != nil {
		return nil, nil, nil, err
	}
	if s.Partitioned {
		if why := viewlet.MergeReason(p, plan); why != "" {
			return nil, nil, nil, fmt.Errorf("%s: -partitioned: not partitionable: %s", s.Query, why)
		}
	}
	return f, p, plan, nil
}

// Generate returns the source that `toastgen gen` writes for the spec. The
// working directory must be the package directory.
func (s Spec) Generate() ([]byte, error) {
	_, p, plan, err := s.compile()
	if err != nil {
		return nil, err
	}
	// The CLI names the query file in the header relative to the output
	// directory, which is the package directory here: the argument as
	// written. A checkout's build has version (devel), the default.
	return codegen.Generate(p, codegen.Options{Package: s.Pkg, Source: filepath.ToSlash(s.Query), Partition: plan})
}

// DiffHint describes where got first differs from want, line by line, with
// a little context and long lines clipped, or returns "" when they are
// equal. It is a hint, not a diff: lines after an insertion show as changed.
func DiffHint(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	const width = 160 // generated comments hold whole map definitions
	clip := func(s string) string {
		if len(s) > width {
			return s[:width] + "…"
		}
		return s
	}
	line := func(ls []string, j int) string {
		if j < len(ls) {
			return clip(ls[j])
		}
		return "(end of file)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (checked in %d lines, regenerated %d lines):\n", i+1, len(wl), len(gl))
	for j := max(0, i-2); j < i; j++ {
		fmt.Fprintf(&b, "    %s\n", clip(wl[j]))
	}
	for j := i; j < i+3; j++ {
		if j >= len(wl) && j >= len(gl) {
			break
		}
		fmt.Fprintf(&b, "  - %s\n  + %s\n", line(wl, j), line(gl, j))
	}
	return b.String()
}
