package viewlet_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toastgen/toastgen/calculus"
	"github.com/toastgen/toastgen/lang"
	"github.com/toastgen/toastgen/lang/oracle"
	"github.com/toastgen/toastgen/viewlet"
)

// FuzzCompile compiles every query file that parses, at full depth and at
// depth 1, and replays a short random stream through the interpreter of
// each: a query may be rejected with a positioned error, but no stage may
// panic or fail with an internal error. The seeds are the project's query
// files, so mutations stay near the language.
func FuzzCompile(f *testing.F) {
	for _, glob := range []string{"testdata/diff/*.sql", "../examples/*/*.sql"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil && !bytes.Contains(src, []byte("INCLUDE")) && !bytes.Contains(src, []byte("FROM FILE")) {
				f.Add(string(src), !bytes.Contains(src, []byte("-- diff: sql")))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string, dbtoaster bool) {
		if len(src) > 4096 {
			return // long inputs only slow the search down
		}
		d := lang.SQL
		if dbtoaster {
			d = lang.DBToaster
		}
		file, err := lang.Config{Dialect: d}.Parse("fuzz.sql", []byte(src))
		if err != nil {
			return
		}
		qs, err := calculus.FromSQL(file)
		if err != nil {
			internal(t, err)
			return
		}
		for _, depth := range []int{viewlet.Unbounded, 1} {
			p, err := viewlet.Compile(file, qs, viewlet.Options{Depth: depth})
			if err != nil {
				internal(t, err)
				continue
			}
			in := viewlet.NewInterp(p)
			s := oracle.Generate(file, 1, 30, 0.3, oracle.Domain{})
			for _, ev := range s.Events {
				if err := in.Fire(ev.Rel, ev.Insert, ev.Tuple); err != nil {
					internal(t, err)
					break
				}
			}
			in.Views()
			if err := in.Err(); err != nil {
				internal(t, err)
			}
		}
	})
}

// internal fails the fuzz run on an internal error (a recovered panic or
// a program that does not validate); other errors are the input's.
func internal(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); strings.Contains(msg, "internal error") || strings.Contains(msg, "interp:") {
		t.Fatal(err)
	}
}
