// Package runtime is what toastgen's generated packages and its drivers share:
// the DATE value type, the SQL functions of the dialect, stream sources (CSV
// with or without deletions, the order-book adaptor), and the small Engine
// interface through which drivers (toastgen run, toastgen bench, tests) feed
// events to a compiled query or to the interpreter and read its views.
//
// runtime depends on the standard library only, so that generated packages
// carry no other dependency.
//
// # Contents
//
//   - Values: Date, ColumnType, Column, Relation, SourceSpec, View.
//   - Engines: Engine and Batch, implemented by generated packages and the
//     interpreter.
//   - SQL functions for generated code (no allocation on the hot path):
//     CompileLike / LikePattern.Match, Substring, DatePart, DateAdd,
//     CompileRegexp / RegexpMatch, the Cast* functions, ListMin, ListMax, Div.
//   - Ordered multisets for MIN and MAX in generated code: Multiset (a treap
//     with O(log n) Add, Min and Max, no allocation once warm) and
//     OrderedIndex (one such multiset per group key, sharing node storage).
//   - Range sums for inequality-correlated sums in generated code: RangeSum
//     (a treap with subtree sums: O(log n) Add and SumLess/SumGreater/…) and
//     RangeSumIndex (one per group key).
//   - DBToaster's math library: Radians, Degrees, Pow, Sqrt, Cos, Sin,
//     VecLength, VecDot, VectorAngle, DihedralAngle, and Hash, HashFloat,
//     HashString.
//   - Field parsers (no allocation): ParseInt, ParseFloat, ParseDate, and
//     ParseString; ParseValue for the interpreter. Engines report a field that
//     does not parse with NewColumnError; Replay positions it as a FieldError
//     ("path:row: column C: expected FLOAT, got \"abc\"").
//   - Sources: Source (CSV, ORDERBOOK), Replay, Collect.
//   - Output: WriteJSON, WriteTable, FormatValue, SortRows, CompareValues.
//   - Drivers: Main (toastgen run), BenchMain and Bench (toastgen bench).
//   - Sources (the embed.FS): this package's own source files.
//
// # Decisions
//
// Event order. Static tables are loaded first, in declaration order; then the
// events of all streams are merged by (sequence number, relation index). A
// CSV line's sequence number is its line number, unless the source has
// deletions=true, in which case the line carries it; an order-book event's is
// the line number of the message that caused it.
//
// Deletes are not checked: deleting an absent tuple is passed on to the
// engine, whose Z-set semantics make its multiplicity negative.
//
// CSV has no quoting and no header; fields are taken verbatim (no trimming).
//
// Strings are counted in runes by SUBSTRING and LIKE's '_' (as SQLite does);
// LIKE has no ESCAPE. Date arithmetic normalizes overflowing days like SQLite
// and Go's time package (2021-01-31 + 1 MONTH = 2021-03-03).
//
// Division is IEEE division: x/0 is ±Inf and 0/0 is NaN; queries guard their
// divisors (LISTMAX(1, COUNT(*))). JSON output writes NaN and infinities as
// the strings "NaN", "+Inf", "-Inf".
//
// The order-book adaptor's non-deterministic broker assignment uses a PCG
// generator with a fixed seed, so that every run sees the same stream.
package runtime
