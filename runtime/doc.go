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
//     interpreter; Policy (Auto, Incremental, SetAtATime) and WithPolicy,
//     how ApplyBatch applies a batch; SetChooser, Auto's timed choice per
//     relation; PreAgg, a batch pre-aggregated by key for set-at-a-time
//     triggers; Lazy, an engine whose events wait for the next read;
//     Partitioned and Workers, N engines of a partitionable query on N
//     goroutines, events routed by their partition column, views merged.
//   - SQL functions for generated code (no allocation on the hot path):
//     CompileLike / LikePattern.Match, Substring, DatePart, DateAdd,
//     CompileRegexp / RegexpMatch, the Cast* functions, ListMin, ListMax, Div;
//     with SQLite's exact semantics (a port of SQLite's float formatting and
//     parsing where it matters): AbsInt, AbsFloat, Round, Length, Upper,
//     Lower, Trim, LTrim, RTrim (and the *Set forms), Substr, SubstrLen,
//     RealText, IntFromText, IntFromReal, RealFromText.
//   - Ordered multisets for MIN and MAX in generated code: Multiset (a treap
//     with O(log n) Add, Min and Max, no allocation once warm) and
//     OrderedIndex (one such multiset per group key, sharing node storage).
//   - Range sums for inequality-correlated sums in generated code: RangeSum
//     (a B+-tree with subtree sums: O(log n) Add and SumLess/SumGreater/…),
//     RangeSumIndex (a treap with subtree sums per group key, sharing node
//     storage) and RangeSumPairIndex (a two-lane B+-tree per group key,
//     two maps' values per entry, for two fused maps summed over one key:
//     one descent updates or reads both; without groups, while its values
//     are exact and its keys few and settled, sorted arrays with a Fenwick
//     tree per lane instead, SetAt taking the caller's position hint).
//     Threshold reads take a pred function or a SumBound (sum compared
//     with a bound, inline).
//   - FloatIndex: the primary index of generated maps keyed by one FLOAT
//     column (a hash table of the key's bits, tombstones on delete).
//   - Numbers for both engines: AddInt, SubInt, MulInt (checked int64
//     arithmetic), OverflowError and EventError (an event rejected for an
//     integer overflow, ErrOverflow), FloatSum (a compensated float sum).
//   - DBToaster's math library: Radians, Degrees, Pow, Sqrt, Cos, Sin,
//     VecLength, VecDot, VectorAngle, DihedralAngle, and Hash, HashFloat,
//     HashString.
//   - Field parsers (no allocation): ParseInt, ParseFloat, ParseDate, and
//     ParseString; ParseValue for the interpreter; their errors ErrInt,
//     ErrIntRange, ErrFloat, ErrFloatRange, ErrDate, ErrDateInvalid. Engines
//     report a field that does not parse with NewColumnError; Replay
//     positions it as a FieldError ("path:row: column C: expected FLOAT, got
//     \"abc\"", "path:row: column C: INT out of range, got \"…\"").
//   - Sources: Source (CSV, ORDERBOOK), Replay, Collect.
//   - Output: WriteJSON, WriteTable, FormatValue, SortRows, CompareValues.
//   - Drivers: Main and Run (toastgen run, with -changes, -snapshot,
//     -resume and -load: Load), BenchMain and Bench (toastgen bench).
//   - Snapshots: SnapshotWriter and SnapshotReader (the format, in
//     snapshot.go), SnapshotHeader, SourceCount, SnapshotError, and the
//     Snapshotter interface of engines that save and restore their state.
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
// A UTF-8 byte order mark at the start of a file is dropped (only there).
//
// Numbers in data are finite. An INT field is a decimal int64 ("-42", "+7");
// one beyond int64 is a data error "INT out of range", never wrapped. A FLOAT
// (or DECIMAL, which is float64) field is a plain decimal with an optional
// exponent: [+-](d+[.d*]|.d+)([eE][+-]d+). NaN, infinities in any spelling,
// hexadecimal floats and digit separators ("1_000"), which strconv accepts,
// are data errors "expected FLOAT", and a number beyond float64 ("1e400") is
// "FLOAT out of range" rather than +Inf: a NaN or an infinity in a sum or a
// MIN/MAX would stay there after its tuple is deleted (NaN - NaN is NaN,
// Inf - Inf is NaN), so no data may hold one. Every such error stops Replay
// as a *FieldError naming the file, the row and the column. Both engines
// agree: generated code calls ParseInt/ParseFloat/ParseDate, the interpreter
// ParseValue, which calls them, and NewColumnError re-parses the field to
// report the same reason. The generated typed API (InsertR, DeleteR) does
// not check its arguments: the same rule is the caller's to keep — floats
// finite (math.IsNaN, math.IsInf), dates valid (ValidDate).
//
// Dates are proleptic Gregorian. Data and DATE('…') literals (the lang
// package checks them with ParseDate) accept yyyy-mm-dd from 0001-01-01 to
// 9999-12-31 naming a day that exists: "2024-02-30", "2023-02-29" and
// "0000-01-01" are "no such DATE". Date arithmetic may leave that range; a
// Date prints every year its int32 encoding holds, with ISO 8601's sign and
// extra digits outside 0000–9999 ("-0001-12-31", "10000-01-01").
//
// Strings are counted in runes by SUBSTRING and LIKE's '_' (as SQLite does);
// LIKE has no ESCAPE. Date arithmetic normalizes overflowing days like SQLite
// and Go's time package (2021-01-31 + 1 MONTH = 2021-03-03).
//
// Integer overflow is an error, not a wrapped value: an engine rejects an
// event during which an INT sum, count or product would leave int64 (it
// undoes the event and returns an *EventError, which Replay positions at
// the event's line). FLOAT sums are FloatSums, so that deletes bring them
// back exactly in the common cases.
//
// Division by zero yields 0, as in DBToaster (see Div). NaN and infinities
// cannot come from data but can from functions whose domain is not guarded
// (SQRT(-1), POW(10, 400)) and from float overflow. The table output prints
// them as NaN, +Inf, -Inf; JSON output writes them as null, since JSON has no
// such numbers and a string in a number column would break its consumers
// (the sign of an infinity is lost there; the table keeps it).
//
// The order-book adaptor's non-deterministic broker assignment uses a PCG
// generator with a fixed seed, so that every run sees the same stream.
package runtime
