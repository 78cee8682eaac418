// Package runtime is what toastgen's generated packages and its drivers share:
// the DATE value type, the SQL functions of the dialect, stream sources (CSV
// with or without deletions, the order-book adaptor), and the small Engine
// interface through which drivers (toastgen run, toastgen bench, tests) feed
// events to a compiled query or to the interpreter and read its views.
//
// runtime depends on the standard library only, so that generated packages
// carry no other dependency.
package runtime
