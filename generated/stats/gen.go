package stats

// stats.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -dialect dbtoaster -pkg stats -o stats.go ../../examples/simple/stats.sql
