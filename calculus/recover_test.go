package calculus

import (
	"strings"
	"testing"
)

func panicsHere() { panic("boom") }

// TestInternalError checks the report of a recovered panic: the file, the
// entry point, the panic's value, and the frame that panicked first (not
// the recovery's own frames).
func TestInternalError(t *testing.T) {
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = InternalError("q.sql", "calculus.FromSQL", r)
			}
		}()
		panicsHere()
	}()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "q.sql: internal error in calculus.FromSQL: boom") {
		t.Errorf("message %q", msg)
	}
	lines := strings.Split(msg, "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], "panicsHere") {
		t.Errorf("the first frame is not the panicking function:\n%s", msg)
	}
}
