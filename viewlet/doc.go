// Package viewlet compiles queries in the calculus into a Program: the maps
// to keep, the views read out of them, and for every insert and delete of a
// base relation the statements that keep each map equal to its definition.
//
// In: the calculus.Query values of a file (calculus.FromSQL). Out: a
// *Program (Compile), printable as M3-like text (Program.String, shown by
// `toastgen m3`) and runnable by Interp, the reference engine; codegen turns
// it into Go.
//
// Compile applies the viewlet transform. A map m defined by AggSum(keys, t)
// gets, for each event of a relation in t, the statement m[keys] += Δt, with
// Δt simplified (calculus.Delta, SimplifyMonomial). The relation atoms that
// remain in Δt are materialized as further maps, compiled the same way, down
// to the depth the options allow. Decisions, each explained where it is made:
//
//   - materialize groups the remaining atoms into components joined by
//     variables the event does not bind; each component becomes one map keyed
//     by what the rest of the statement needs. A condition that is a
//     conjunction counts as its conjuncts, {A AND B} = {A} * {B}, so that
//     dialect sql's presence conditions, ANDed over a product's operands, do
//     not join the operands' relations. Maps are shared between views
//     and statements up to variable renaming (canonical).
//   - splitAtHub keeps a component whose key groups meet only through one
//     summed-over variable from becoming the cross product of those groups.
//   - factorize computes independent loops once, as local sums.
//   - compileNested materializes nested aggregates (scalar subqueries,
//     EXISTS, IN, derived tables, MIN/MAX) as maps keyed by their correlation
//     variables; events inside them re-evaluate the enclosing map (:=), only
//     for the entries the event can change (heldVars). Where the event fixes
//     a variable summed over outside them, or some of the map's keys but not
//     all (Q18's order key, with its customers looped over), the statement
//     subtracts the old value of that slice and adds its new one after the
//     updates (Stmt.After): a guard the slice's value depends on (HAVING
//     SUM(quantity) > 300) then skips it while false before and after.
//   - no map is keyed by a variable its definition does not range-restrict
//     (correlate.go): a condition on a parameter — an inequality
//     correlation, a computed column bound outside the component — stays in
//     the statement, a nested aggregate reading one is evaluated in place
//     (its conditions become range reads), and a view aggregate correlated
//     with group keys by an inequality is restricted to the view's groups
//     (guardGroups). Compile rejects what remains at the query's position.
//   - emptyWhileLoading drops statements on a static table's events for maps
//     that join a stream: tables are loaded before any stream event.
//   - orderStatements orders each trigger so that every statement reads the
//     state before the event, buffering where no order works.
//   - factorizeViews (viewtree.go) keeps a view as a tree of factors
//     (calculus.Factorize, View.Tree) where the flat view's map is updated
//     in a loop, one entry per partner of the event's tuple, and the join
//     is q-hierarchical: each factor takes one update per event, and each
//     trigger ends with the Touches that tell engines which tree nodes to
//     recount. A view map that counts a cycle of three relations is kept
//     by a heavy/light kernel instead of statements (kernel.go, Map.Kernel,
//     Trigger.Syncs). -flat-views (Options.FlatViews) keeps both as delta
//     plans.
//   - setTriggers (settrigger.go) gives each relation whose triggers
//     qualify a set-at-a-time form (Program.SetTriggers): the batch
//     pre-aggregated by the event columns each statement's non-event
//     factors read, then each statement once per group. Engines apply
//     batches by it under runtime.Policy.
//   - pinFlags (flags.go) binds a presence flag key to 1 before a loop over
//     a map by it where the flag must be non-zero and one free key is left
//     (dialect sql), so that codegen's range and threshold reads apply to
//     nullable columns as to NOT NULL ones.
//   - dropPinnedKeys (flagkeys.go) then removes from a map a flag key that
//     is 1 in every entry and that every read binds to 1: the map is keyed
//     as a NOT NULL column's would be, and fuses with those.
//   - hashKeys records, per map, the keys that determine its other keys
//     through the relations' PRIMARY KEYs (Map.HashKey, from
//     calculus.Determinant): code generators may hash entries by them
//     alone. Nothing else depends on it, results included.
//
// The depth is the caller's choice, or ChooseDepth's: it compiles full depth
// and first-order IVM, replays a sample of the input through Interp under
// each and keeps the one that touched fewer map entries per event (Work),
// first-order only by a wide margin and only on a sample that reaches every
// stream, each replay within a work budget (choose.go). The depth may differ per view (Options.Depths):
// toastgen chooses it for each view on its own program.
//
// Compile ends with Program.Validate, which NewInterp and codegen.Generate
// run too: every variable a statement reads is bound (by the trigger's
// arguments or an earlier factor), every map read is declared with its
// arity. A Program that fails it is a compiler bug, reported as an error
// naming the file, query, event and statement, by every engine alike; no
// entry point (FromSQL, Compile, NewInterp/Fire/Views, Generate) panics.
package viewlet
