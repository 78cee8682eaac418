package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/toastgen/toastgen/runtime"
)

const driverRun = `package main

import (
	"toastgenrun/query"

	"github.com/toastgen/toastgen/runtime"
)

func main() { runtime.Main(query.New()) }
`

const driverBench = `package main

import (
	"toastgenrun/query"

	"github.com/toastgen/toastgen/runtime"
)

func main() { runtime.BenchMain(func() runtime.Engine { return query.New() }) }
`

// buildDriver writes a temporary module holding the generated package, a
// copy of the runtime (embedded in this binary, so no checkout is needed)
// and a driver main, and builds it with the local Go toolchain.
func buildDriver(src []byte, kind string) (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "toastgen-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	files := map[string]string{
		"go.mod":          "module toastgenrun\n\ngo 1.26\n\nrequire github.com/toastgen/toastgen v0.0.0\n\nreplace github.com/toastgen/toastgen => ./toastgen\n",
		"toastgen/go.mod": "module github.com/toastgen/toastgen\n\ngo 1.26\n",
		"query/query.go":  string(src),
		"main.go":         driverRun,
	}
	if kind == "bench" {
		files["main.go"] = driverBench
	}
	for name, content := range files {
		if err := writeFile(filepath.Join(dir, name), []byte(content)); err != nil {
			return "", nil, err
		}
	}
	err = fs.WalkDir(runtime.Sources, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := runtime.Sources.ReadFile(p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dir, "toastgen", "runtime", p), b)
	})
	if err != nil {
		return "", nil, err
	}
	bin = filepath.Join(dir, "driver")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("building the generated package: %v\n%s", err, out)
	}
	return bin, cleanup, nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// execDriver runs the built driver in the working directory, so relative
// FROM FILE paths resolve as the user wrote them.
func execDriver(bin string, args ...string) error {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr, cmd.Stdin = os.Stdout, os.Stderr, os.Stdin
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); ok {
			return fmt.Errorf("the generated program failed")
		}
		return err
	}
	return nil
}
