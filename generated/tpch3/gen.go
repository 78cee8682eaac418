package tpch3

// tpch3.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -dialect dbtoaster -pkg tpch3 -o tpch3.go ../../examples/tpch/q3.sql
