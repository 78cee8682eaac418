package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

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
// Cancelling ctx interrupts the build (and the build's error is ctx's).
func buildDriver(ctx context.Context, src []byte, kind string) (bin string, cleanup func(), err error) {
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
	switch kind {
	case "bench":
		files["main.go"] = driverBench
	case "kafka":
		req, err := kafkaRequires()
		if err != nil {
			return "", nil, err
		}
		files["main.go"] = driverKafka
		files["go.mod"] += req
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
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, ".")
	cmd.Dir = dir
	// Offline: the runtime is copied in, and the Kafka driver's modules
	// are those of this binary, in the module cache since it was built
	// (verified then against toastgen's go.sum: no checksum database).
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off")
	interruptOnCancel(cmd)
	if isTerminal(os.Stderr) {
		fmt.Fprint(os.Stderr, "toastgen: building the generated package…")
	}
	out, err := cmd.CombinedOutput()
	if isTerminal(os.Stderr) {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	if err != nil {
		// The temporary directory's path means nothing to the user.
		msg := strings.ReplaceAll(string(out), dir+string(filepath.Separator), "")
		return "", nil, fmt.Errorf("building the generated package: %v\n%s", err, msg)
	}
	return bin, cleanup, nil
}

// interruptOnCancel makes cmd's context cancellation send an interrupt
// (so that go build stops its compilers and removes its own work
// directory) and a kill only if it has not exited 5 s later.
func interruptOnCancel(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
}

// withSignals runs fn with a context that SIGINT and SIGTERM cancel. fn
// is expected to clean up (remove its temporary directory) and return;
// withSignals then returns an exitError with the conventional status
// 128+signal (130, 143) and no message.
func withSignals(fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	caught := make(chan os.Signal, 1)
	go func() {
		select {
		case s := <-sigs:
			caught <- s
			cancel()
		case <-ctx.Done():
		}
	}()
	err := fn(ctx)
	select {
	case s := <-caught:
		if n, ok := s.(syscall.Signal); ok {
			return exitError{128 + int(n)}
		}
		return exitError{130}
	default:
		return err
	}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// execDriver runs the built driver in the working directory, so relative
// FROM FILE paths resolve as the user wrote them (or against -dir).
//
// The driver is named toastgen (argv[0]), so its errors read as toastgen's
// and carry no temporary path; when it fails, it has printed its error, and
// toastgen exits with its status without a second message. A driver
// killed by SIGPIPE (its reader went away: toastgen run … | head -1) ends
// toastgen quietly too, with the shell's status for it, 141.
func execDriver(ctx context.Context, bin string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Args[0] = "toastgen"
	cmd.Stdout, cmd.Stderr, cmd.Stdin = os.Stdout, os.Stderr, os.Stdin
	interruptOnCancel(cmd)
	err := cmd.Run()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return exitError{128 + int(ws.Signal())}
		}
		return exitError{ee.ExitCode()}
	}
	return err
}
