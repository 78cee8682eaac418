package tpch1

// tpch1.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -dialect dbtoaster -pkg tpch1 -o tpch1.go ../../examples/tpch/q1.sql
