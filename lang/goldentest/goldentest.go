// Package goldentest holds the golden archives of the pipeline's stages:
// one txtar archive per query with a -- query.sql -- section and one
// section per stage's text form (calculus, m3, m3.depth1, go). The tests of
// packages calculus, viewlet and codegen each check, and with -update
// rewrite, only their own sections.
package goldentest

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/toastgen/toastgen/lang"
)

// sectionOrder is the canonical order of an archive's sections.
var sectionOrder = []string{"query.sql", "calculus", "m3", "m3.depth1", "go"}

// ForEach runs a subtest per archive in dir. run receives the
// resolved query file (parsed as query.sql, in dialect dbtoaster, or sql
// where a line of the archive's comment says "dialect: sql") and returns the text
// of the sections its stage owns. Without -update each returned section must
// equal the archive's; with -update the archive's copies are rewritten, the
// other sections kept. Updates hold a lock file in dir, so that the three
// stages' tests can run at once under `go test ./... -update`.
func ForEach(t *testing.T, dir string, update bool, run func(t *testing.T, f *lang.File) map[string]string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden archives in %s (%v)", dir, err)
	}
	if update {
		unlock, err := lockDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src, ok := section(a, "query.sql")
			if !ok {
				t.Fatalf("%s: no query.sql section", path)
			}
			cfg := lang.Config{}
			if bytes.Contains(a.Comment, []byte("\ndialect: sql\n")) || bytes.HasPrefix(a.Comment, []byte("dialect: sql\n")) {
				cfg.Dialect = lang.SQL
			}
			f, err := cfg.Parse("query.sql", []byte(src))
			if err != nil {
				t.Fatalf("lang.Parse: %v", err)
			}
			got := run(t, f)
			if t.Failed() {
				return
			}
			if update {
				if err := rewrite(path, got); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, name := range sectionOrder {
				g, ok := got[name]
				if !ok {
					continue
				}
				want, ok := section(a, name)
				if !ok {
					t.Errorf("%s: no %q section (run go test -update)", path, name)
					continue
				}
				if diff := cmp.Diff(want, fixNL(g)); diff != "" {
					t.Errorf("%s: section %q differs (-want +got):\n%s", path, name, diff)
				}
			}
		})
	}
}

// section returns the content of the archive's file name.
func section(a *txtar.Archive, name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data), true
		}
	}
	return "", false
}

// fixNL ends s with a newline, as txtar stores every section.
func fixNL(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// rewrite writes the archive at path with the sections in repl replaced (or
// added), in canonical order; sections with other names follow unchanged.
// The archive is re-read first: another stage's test may have rewritten it
// since the caller parsed it.
func rewrite(path string, repl map[string]string) error {
	a, err := txtar.ParseFile(path)
	if err != nil {
		return err
	}
	out := &txtar.Archive{Comment: a.Comment}
	for _, name := range sectionOrder {
		if s, ok := repl[name]; ok {
			out.Files = append(out.Files, txtar.File{Name: name, Data: []byte(fixNL(s))})
		} else if s, ok := section(a, name); ok {
			out.Files = append(out.Files, txtar.File{Name: name, Data: []byte(s)})
		}
	}
	for _, f := range a.Files {
		if !slices.Contains(sectionOrder, f.Name) {
			out.Files = append(out.Files, f)
		}
	}
	return os.WriteFile(path, txtar.Format(out), 0o644)
}

// lockDir takes an exclusive lock on dir by creating dir/.lock, waiting up
// to a minute for another holder, and returns the function that releases it.
func lockDir(dir string) (unlock func(), err error) {
	lock := filepath.Join(dir, ".lock")
	deadline := time.Now().Add(time.Minute)
	for {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(lock) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s has been held for a minute: remove it if no test is running", lock)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
