package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os/exec"
	"path"
	"strings"
	"sync"

	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/runtime"
)

// Type-checking generated code before it is written: a query that gen
// accepts must give a package that compiles. A type error is toastgen's
// bug, never the user's; it is reported at the query whose code holds it
// (the generated function's name starts with the view's), so that the
// user sees which query to report or work around, and nothing is
// written.

// runtimeImportPath is the import path of the package generated code uses.
const runtimeImportPath = "github.com/toastgen/toastgen/runtime"

// checkImporter imports the standard library from source and the runtime
// from the sources this binary embeds (runtime.Sources), as the generated
// package will be built against them. It is built once per process; nil
// when the standard library's sources cannot be found (a binary built with
// -trimpath and no go command on PATH): the code is then not checked.
var checkImporter = sync.OnceValues(func() (*sourceImporter, error) {
	if build.Default.GOROOT == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil || len(bytes.TrimSpace(out)) == 0 {
			return nil, nil
		}
		build.Default.GOROOT = string(bytes.TrimSpace(out))
	}
	fset := token.NewFileSet()
	im := &sourceImporter{fset: fset, std: importer.ForCompiler(fset, "source", nil).(types.ImporterFrom)}
	var files []*ast.File
	entries, err := fs.ReadDir(runtime.Sources, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".go" {
			continue
		}
		src, err := fs.ReadFile(runtime.Sources, e.Name())
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, "runtime/"+e.Name(), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: im.std}
	rt, err := conf.Check(runtimeImportPath, fset, files, nil)
	if err != nil {
		return nil, fmt.Errorf("type-checking the embedded runtime: %v", err)
	}
	im.runtime = rt
	return im, nil
})

type sourceImporter struct {
	fset    *token.FileSet
	std     types.ImporterFrom
	runtime *types.Package
}

func (im *sourceImporter) Import(p string) (*types.Package, error) {
	if p == runtimeImportPath {
		return im.runtime, nil
	}
	return im.std.Import(p)
}

// checkGenerated type-checks the generated file src (named file in
// messages). An error names the query of f whose code fails, positioned at
// the query, with the Go compiler's message.
func checkGenerated(f *lang.File, file string, src []byte) error {
	im, err := checkImporter()
	if err != nil || im == nil {
		return err
	}
	fset := im.fset
	af, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return generatedError(f, nil, fmt.Sprint(err))
	}
	var first *types.Error
	conf := types.Config{Importer: im, Error: func(err error) {
		if te, ok := err.(types.Error); ok && first == nil {
			first = &te
		}
	}}
	if _, err := conf.Check("generated", fset, []*ast.File{af}, nil); err == nil {
		return nil
	} else if first == nil {
		return generatedError(f, nil, err.Error())
	}
	return generatedError(f, queryOf(f, af, first.Pos), first.Error())
}

// queryOf finds the query whose view the function holding pos is generated
// for: the longest view name that the function's name starts with (case
// and underscores aside); nil if none.
func queryOf(f *lang.File, af *ast.File, pos token.Pos) *lang.Query {
	fn := ""
	for _, d := range af.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos <= fd.End() {
			fn = fd.Name.Name
		}
	}
	fold := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	var best *lang.Query
	for _, q := range f.Queries {
		stem := fold(q.Name)
		for _, p := range []string{"", "on", "changerow", "snapshot"} {
			if strings.HasPrefix(fold(fn), p+stem) && (best == nil || len(stem) > len(fold(best.Name))) {
				best = q
			}
		}
	}
	return best
}

// generatedError is the error for generated code that does not compile:
// at query q when known.
func generatedError(f *lang.File, q *lang.Query, msg string) error {
	const what = "toastgen generated Go code for this query that does not compile, a bug of toastgen (please report it with the query): "
	if q != nil {
		return f.Errorf(q.Pos, "%s%s", what, msg)
	}
	return fmt.Errorf("%s%s", strings.Replace(what, "this query", "this file", 1), msg)
}

// explainBuild returns the error of a failed build of generated file src:
// the type error at its query when the code does not type-check (run and
// bench build without checking first: the build checks), else err.
func explainBuild(f *lang.File, src []byte, err error) error {
	if cerr := checkGenerated(f, "query.go", src); cerr != nil {
		return cerr
	}
	return err
}
