package tpch6

// tpch6.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -dialect dbtoaster -pkg tpch6 -o tpch6.go ../../examples/tpch/q6.sql
