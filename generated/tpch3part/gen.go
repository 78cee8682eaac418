package tpch3part

// TPC-H Q3 generated with its partition plan (lineitem and orders by
// orderkey, customer broadcast): a runtime.Partitioned that
// runtime.Workers and runtime/kafka run on several engines; its tests run
// it on an in-process Kafka.
//
// tpch3part.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -partitioned -depth -1 -pkg tpch3part -o tpch3part.go ../../examples/tpch/q3.sql
