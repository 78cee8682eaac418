package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/codegen"
	"github.com/toastgen/toastgen/viewlet"
)

// genFlags defines gen's flags. gen writes the package as go generate
// tools do (stringer, sqlc): one file named after the query (sales.sql →
// sales.sql.go) in the output directory, never over a file that lacks the
// generated-code header.
func genFlags(fs *flag.FlagSet) func(string) error {
	pkg := fs.String("pkg", "", "package `name` (default: $GOPACKAGE when writing into the working directory, as go generate sets it, else the output directory's name)")
	out := fs.String("o", "", "output `path`: a directory, or the output file when it ends in .go (default: QUERY.sql.go in the working directory)")
	copts := compileFlags(fs)
	maxLines := fs.Int("max-lines", defaultMaxLines, "warn when the generated file has more than `N` lines (0: never)")
	partitioned := fs.Bool("partitioned", false, "make the package runtime.Partitioned when the query is partitionable (toastgen m3\n"+
		"-partitions; its views then compiled flat), so that runtime.NewWorkers runs it on several\n"+
		"engines; a query that is not is an error saying why")
	return func(query string) error {
		co, err := copts()
		if err != nil {
			return err
		}
		if *maxLines < 0 {
			return usagef("-max-lines must be at least 0, got %d", *maxLines)
		}
		file, err := outputFile(query, *out)
		if err != nil {
			return err
		}
		name, err := packageName(*pkg, filepath.Dir(file))
		if err != nil {
			return err
		}
		if err := checkClobber(file); err != nil {
			return err
		}
		var plan *calculus.PartitionPlan
		if *partitioned {
			co.partition = &plan
		}
		f, p, err := compile(query, co)
		if err != nil {
			return err
		}
		gopts := codegen.Options{Package: name, Source: headerPath(query, filepath.Dir(file)), Version: version()}
		if *partitioned {
			if why := viewlet.MergeReason(p, plan); why != "" {
				return fmt.Errorf("%s: -partitioned: not partitionable: %s", query, why)
			}
			gopts.Partition = plan
		}
		src, err := codegen.Generate(p, gopts)
		if err != nil {
			return err
		}
		if err := checkGenerated(f, file, src); err != nil {
			return err
		}
		if n := bytes.Count(src, []byte("\n")); *maxLines > 0 && n > *maxLines {
			// Higher-order IVM materializes a map per delta: self-join
			// chains and wide joins grow fast with the depth.
			fmt.Fprintf(os.Stderr, "toastgen: warning: %s: %d lines of Go for %d maps (over -max-lines %d); -depth 1 compiles first-order IVM, much smaller\n", file, n, len(p.Maps), *maxLines)
		}
		return writeAtomic(file, src)
	}
}

// defaultMaxLines is the size of a generated file above which gen warns:
// about six times the largest TPC-H query's (Q8, 8,175 lines).
const defaultMaxLines = 50000

// outputFile is the file gen writes: out itself when it ends in .go, else
// the query's base name plus .go in the directory out.
func outputFile(query, out string) (string, error) {
	if out == "" {
		out = "."
	}
	if strings.HasSuffix(out, ".go") {
		return out, nil
	}
	if query == "-" {
		return "", usagef("gen: with the query on standard input, -o must name the output file (FILE.go)")
	}
	return filepath.Join(out, filepath.Base(query)+".go"), nil
}

// packageName returns the package name: flag, else $GOPACKAGE when dir is
// the working directory (where go generate runs the command, naming the
// package of the //go:generate line), else dir's base name. It rejects
// names that would not build.
func packageName(flagValue, dir string) (string, error) {
	name, from := flagValue, "-pkg"
	goPackage := os.Getenv("GOPACKAGE")
	if name == "" && goPackage != "" && sameDir(dir, ".") {
		name, from = goPackage, "$GOPACKAGE"
	}
	if name == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		name, from = filepath.Base(abs), "the output directory "+abs
	}
	hint := ""
	if from != "-pkg" {
		hint = "; set -pkg"
	}
	switch {
	case token.IsKeyword(name):
		return "", usagef("gen: invalid package name %q (from %s): a Go keyword%s", name, from, hint)
	case !token.IsIdentifier(name):
		return "", usagef("gen: invalid package name %q (from %s): not a Go identifier%s", name, from, hint)
	case name == "_":
		return "", usagef("gen: invalid package name %q (from %s): the blank identifier%s", name, from, hint)
	case name == "main" && goPackage != "main":
		return "", usagef("gen: package name \"main\" (from %s) would not build: the generated package has no func main (main is allowed when $GOPACKAGE is main)%s", from, hint)
	}
	return name, nil
}

func sameDir(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && a == b
}

// generatedHeader is Go's convention for generated files
// (https://go.dev/s/generatedcode).
var generatedHeader = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// checkClobber refuses to overwrite a file that no generator wrote: one
// without the generated-code header before its package clause.
func checkClobber(file string) error {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		if fi, serr := os.Stat(file); serr == nil && fi.IsDir() {
			return fmt.Errorf("gen: %s is a directory", file)
		}
		return fmt.Errorf("gen: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ln := strings.TrimRight(sc.Text(), "\r")
		if generatedHeader.MatchString(ln) {
			return nil
		}
		if strings.HasPrefix(ln, "package ") {
			break
		}
	}
	return fmt.Errorf("gen: refusing to overwrite %s: it has no \"// Code generated … DO NOT EDIT.\" header, so it was not written by a generator (move it, or choose another file with -o)", file)
}

// headerPath is the query path for the header comment: relative to the
// output directory, with forward slashes.
func headerPath(query, dir string) string {
	if query == "-" {
		return "<stdin>"
	}
	absQ, err1 := filepath.Abs(query)
	absD, err2 := filepath.Abs(dir)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absD, absQ); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(query)
}

// writeAtomic writes data to path through a temporary file in the same
// directory, so that a failure leaves the old file whole.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".toastgen-*.go.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
