package calculus

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/toastgen/toastgen/lang"
)

// FromSQL translates every query of a resolved file. An unsupported
// construct is a positioned error; an internal inconsistency of the
// translation (a panic) is returned as an error naming the file, never
// propagated.
func FromSQL(f *lang.File) (qs []*Query, err error) {
	defer func() {
		if r := recover(); r != nil {
			qs, err = nil, InternalError(f.Path, "calculus.FromSQL", r)
		}
	}()
	return fromSQL(f)
}

// InternalError describes a panic r recovered at the boundary of stage
// (an exported entry point) while compiling the file path: a compiler bug,
// reported with the frames where it happened. Call it from the deferred
// function that recovered.
func InternalError(path, stage string, r any) error {
	lines := strings.Split(strings.TrimSpace(string(debug.Stack())), "\n")
	// Skip the frames of the recovery itself: up to the panic call.
	for i := range lines {
		if strings.HasPrefix(lines[i], "panic(") && i+2 <= len(lines) {
			lines = lines[i+2:]
			break
		}
	}
	lines = lines[:min(len(lines), 8)]
	return fmt.Errorf("%s: internal error in %s: %v (a compiler bug; please report it with the query)\n%s", path, stage, r, strings.Join(lines, "\n"))
}
