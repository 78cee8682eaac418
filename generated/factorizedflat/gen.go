package factorizedflat

// factorizedflat.go is generated; go generate rewrites it, and generated/regen_test.go
// fails when the checked-in file differs from what the compiler produces.
//go:generate go run ../../cmd/toastgen gen -depth -1 -flat-views -pkg factorizedflat -o factorizedflat.go ../../examples/factorized/views.sql
