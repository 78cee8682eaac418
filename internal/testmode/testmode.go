// Package testmode says how long the project's long-running tests run.
//
// `go test ./...` runs the fast layer: every differential and shared-data
// suite, with fewer seeds, comparisons at a schedule rather than after every
// event, and shorter interpreter replays. Setting TOASTGEN_SOAK=1 (as .ci/run
// does in its second step) runs the soak layer: every seed and depth,
// comparisons after every event, full streams everywhere.
package testmode

import "os"

// Soak reports whether the soak layer is requested (TOASTGEN_SOAK set to a
// value other than "" or "0").
func Soak() bool {
	v := os.Getenv("TOASTGEN_SOAK")
	return v != "" && v != "0"
}

// CheckAt reports whether a differential test compares the views after
// event i (0-based) of n. The soak layer compares after every event; the
// fast layer after each of the first dense events, then every stride-th,
// and after the last. A wrong delta leaves the maps wrong, so it shows at
// the next comparison; transient errors that the sampling can miss are
// what the soak layer is for.
func CheckAt(i, n, dense, stride int) bool {
	if Soak() || i < dense || i == n-1 {
		return true
	}
	return (i-dense)%stride == stride-1
}
