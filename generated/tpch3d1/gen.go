package tpch3d1

// tpch3d1.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -dialect dbtoaster -pkg tpch3d1 -depth 1 -o tpch3d1.go ../../examples/tpch/q3.sql
