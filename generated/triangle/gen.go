package triangle

// triangle.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -depth -1 -pkg triangle -o triangle.go ../../examples/factorized/triangle.sql
