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
			lines := strings.Split(string(debug.Stack()), "\n")
			qs, err = nil, fmt.Errorf("%s: internal error in calculus.FromSQL: %v (please report it)\n%s", f.Path, r, strings.Join(lines[:min(len(lines), 12)], "\n"))
		}
	}()
	return fromSQL(f)
}
