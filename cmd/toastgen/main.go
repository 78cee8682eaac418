// Command toastgen compiles SQL aggregate queries into Go packages that keep
// their results fresh under inserts and deletes.
//
//	toastgen gen   [-pkg NAME] [-o DIR] [-depth N] QUERY.sql   write the Go package
//	toastgen m3    [-depth N] QUERY.sql                        print the compiled Program
//	toastgen run   [-engine go|interp] [-format table|json] [-depth N] QUERY.sql
//	toastgen bench [-depth N] [-repeat K] QUERY.sql
//
// run and bench replay the files named in the query's FROM FILE clauses,
// relative to the working directory. With -engine go (the default) the
// package is generated into a temporary module, built with the local Go
// toolchain against a copy of toastgen's runtime embedded in this binary,
// and run.
package main

import (
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

const usage = `usage:
  toastgen gen   [-pkg NAME] [-o DIR] [-depth N] QUERY.sql
  toastgen m3    [-depth N] QUERY.sql
  toastgen run   [-engine go|interp] [-format table|json] [-depth N] QUERY.sql
  toastgen bench [-depth N] [-repeat K] QUERY.sql
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = cmdGen(os.Args[2:])
	case "m3":
		err = cmdM3(os.Args[2:])
	case "run":
		err = cmdRun(os.Args[2:])
	case "bench":
		err = cmdBench(os.Args[2:])
	case "-h", "-help", "--help", "help":
		fmt.Print(usage)
		return
	default:
		err = fmt.Errorf("unknown command %q\n%s", os.Args[1], usage)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "toastgen:", err)
		os.Exit(1)
	}
}

// parseArgs parses flags placed before or after the one query file.
func parseArgs(fs *flag.FlagSet, args []string) (string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return "", err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		return "", fmt.Errorf("expected one query file, got %d\n%s", len(files), usage)
	}
	return files[0], nil
}

func depthFlag(fs *flag.FlagSet) *int {
	return fs.Int("depth", viewlet.Unbounded, "viewlet recursion depth: 0 re-evaluates, 1 is first-order IVM, -1 (default) is unbounded")
}

// compile runs the pipeline up to the Program.
func compile(path string, depth int) (*viewlet.Program, error) {
	f, err := lang.ParseFile(path)
	if err != nil {
		return nil, err
	}
	qs, err := calculus.FromSQL(f)
	if err != nil {
		return nil, err
	}
	return viewlet.Compile(f, qs, viewlet.Options{Depth: depth})
}

// packageName derives a Go package name from a query file name.
func packageName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "query"
	}
	return b.String()
}

func cmdGen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	pkg := fs.String("pkg", "", "package name (default: derived from the file name)")
	out := fs.String("o", "", "output directory (default: the working directory, as go generate runs it)")
	depth := depthFlag(fs)
	path, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *pkg == "" {
		*pkg = packageName(path)
	}
	src, err := generate(path, *pkg, *depth)
	if err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, *pkg+".go"), src, 0o644)
}

func generate(path, pkg string, depth int) ([]byte, error) {
	p, err := compile(path, depth)
	if err != nil {
		return nil, err
	}
	return codegen.Generate(p, codegen.Options{Package: pkg, Source: filepath.ToSlash(path)})
}

func cmdM3(args []string) error {
	fs := flag.NewFlagSet("m3", flag.ContinueOnError)
	depth := depthFlag(fs)
	path, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	p, err := compile(path, *depth)
	if err != nil {
		return err
	}
	fmt.Print(p)
	return nil
}

func cmdRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	engine := fs.String("engine", "go", "go (generate, build and run the package) or interp")
	format := fs.String("format", "table", "table or json")
	depth := depthFlag(fs)
	path, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *format != "table" && *format != "json" {
		return fmt.Errorf("-format must be table or json, got %q", *format)
	}
	switch *engine {
	case "interp":
		p, err := compile(path, *depth)
		if err != nil {
			return err
		}
		in := viewlet.NewInterp(p)
		if err := runtime.Replay(in, runtime.ReplayOptions{}); err != nil {
			return err
		}
		views := in.Views()
		if err := in.Err(); err != nil {
			return err
		}
		if *format == "json" {
			return runtime.WriteJSON(os.Stdout, views)
		}
		return runtime.WriteTable(os.Stdout, views)
	case "go":
		src, err := generate(path, "query", *depth)
		if err != nil {
			return err
		}
		bin, cleanup, err := buildDriver(src, "run")
		if err != nil {
			return err
		}
		defer cleanup()
		return execDriver(bin, "-format", *format)
	}
	return fmt.Errorf("-engine must be go or interp, got %q", *engine)
}

func cmdBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	depth := depthFlag(fs)
	repeat := fs.Int("repeat", 1, "replay the stream K times (each pass followed by its inverse)")
	path, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	src, err := generate(path, "query", *depth)
	if err != nil {
		return err
	}
	bin, cleanup, err := buildDriver(src, "bench")
	if err != nil {
		return err
	}
	defer cleanup()
	return execDriver(bin, "-repeat", fmt.Sprint(*repeat))
}
