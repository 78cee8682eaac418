// Package calculus is the aggregate calculus (AGCA) toastgen compiles through.
//
// In: resolved queries from package lang. Out: Terms — Rel, Val, Sum, Prod,
// Neg, AggSum, Lift, Exists, MapRef — with a stable printer (String), the
// delta rules (Delta), a simplifier (Simplify) and the SQL translation
// (FromSQL, which returns one Query per SELECT: its key variables and one
// term per aggregate).
//
// Scalar expressions inside Val and Lift terms reuse lang's expression nodes,
// with columns replaced by *VarRef leaves naming calculus variables. Ring
// values are int64 or float64; a tuple's multiplicity is its value.
//
// Decisions:
//   - Equality conjuncts between columns are unified at translation time, so
//     a join on R.B = S.B uses one variable for both columns. A subquery's
//     equality never unifies two variables of enclosing blocks (t.C = s.B
//     AND t.C = s.C): it stays a condition of the subquery (s.B = s.C is
//     tested per outer row, inside the aggregate).
//   - Each copy of an aggregate body gets fresh local variables, MIN/MAX's
//     argument included; an Extreme binds its argument (not a free variable).
//   - A SELECT DISTINCT without aggregates, as a derived table, union branch
//     or subquery, contributes Exists(AggSum(items, rows)): each distinct row
//     once. DISTINCT on an aggregated query means nothing here (lang has
//     rewritten the cases where it matters).
//   - UNION [ALL] is the sum of its branches' rows, each lifted to the
//     output variables (Exists over it for UNION). INTERSECT and EXCEPT
//     combine the two sides' counts per output row, l = AggSum(out, left)
//     and r = AggSum(out, right): Exists(l) * (a ^= l) * {a > 0} * (n ^= r)
//     times {n > 0} (INTERSECT), {n > 0} * [min(a, n)] (INTERSECT ALL),
//     {n = 0} (EXCEPT) or {a > n} * [a − n] (EXCEPT ALL): each row's
//     multiplicity is read from its new counts, so an event on either side
//     re-evaluates the one row it touches (the viewlet keeps l and r as
//     maps keyed by the row). A branch column that is a column of one of
//     its relations is renamed to the output variable instead of lifted,
//     so that the event's tuple binds the row (fromsql.go, setOp).
//   - Arithmetic in aggregated expressions is decomposed into ring operations
//     (e1*e2 → Val(e1)*Val(e2), e1+e2 → Val(e1)+Val(e2), CASE → guarded sum),
//     so that the viewlet transform can split values between maps.
//   - A conjunct mentioning no relation variable at all is kept as a
//     condition; OR, NOT, LIKE, IN-lists stay atomic conditions (Val of a
//     boolean expression, value 1 or 0).
//   - A scalar subquery with GROUP BY (every key fixed by the WHERE) or
//     HAVING is the ungrouped aggregate over the same rows, lifted to a
//     variable that is NULL where the group is empty or fails HAVING
//     (grouped.go). No term holds NULL: where an expression becomes a term,
//     SQL's three-valued logic is spelled out over the condition under which
//     each such variable has a value (nullable.go).
//   - VAR_POP, VAR_SAMP/VARIANCE and the STDDEVs are read out of three
//     ring aggregates, a count, a FLOAT sum and a FLOAT sum of squares of
//     the non-NULL values, in views and in subqueries (stats.go).
//   - The ordered-set aggregates PERCENTILE_CONT, PERCENTILE_DISC (MEDIAN
//     is PERCENTILE_CONT(0.5)) and MODE are built as MIN and MAX are: the
//     count of each (group, value), AggSum(keys ∪ {arg}, …), read by an
//     ExtremeRef (in a view) or an Extreme under a Lift (in a subquery)
//     whose Holistic names the aggregate; the reader counts each value with
//     its entry's multiplicity (MIN and MAX only test it for zero). MIN,
//     MAX and the ordered-set aggregates of one argument share the map.
//   - SUM(DISTINCT e) and AVG(DISTINCT e) are built as COUNT(DISTINCT e) is,
//     a sum over the Exists of each (group, value), weighed by the value
//     (distinctagg.go).
//   - A join whose factors split into groups that share no variable is
//     the product of the groups' aggregates, multiplied when the view is
//     read (factor.go): cross products of many tables, or of one table many
//     times, then compile without the exponential delta of self-joins.
//   - A q-hierarchical join's view may be factorized (Factorize,
//     viewtree.go): a product of aggregates keyed by root paths of a
//     variable order over its group variables (Query.Tree), read at each
//     row's key; viewlet decides where it pays. A count over a cycle of
//     three relations splits into the relations' weights (Triangle,
//     triangle.go), for viewlet's heavy/light kernel.
//
// NULLs, three-valued logic and outer joins (dialect sql). The dbtoaster
// dialect declares every column NOT NULL and keeps today's terms exactly.
// In both dialects no variable and no map ever holds NULL: a value that may
// be NULL is a pair, its value (its type's zero where NULL) and the
// condition under which it is present (translator.present, nullable.go),
// and every expression that becomes a term spells SQL's three-valued logic
// out two-valued over those conditions. Landed: values, conditions,
// aggregates, keys, arithmetic, IN and NOT IN, outer joins (below):
//
//   - Values. A nullable column of a relation (dialect sql) is two event
//     variables (EventVars): the column's value, zero where the field is
//     NULL, and a presence flag, 1 or 0, after all the columns; the Rel atom
//     lists both, so the maps built from it are keyed by both and NULL never
//     equals a value. The column's presence is flag != 0. Computed NULLs
//     (the NULL literal, x / 0, NULLIF, CASE without ELSE, an aggregate or a
//     scalar subquery over no non-NULL input) have a presence condition
//     derived from their operands'. A view key that may be NULL is lifted
//     to such a pair, both keys of the view's maps (Column.Present: NULL is
//     one group, apart from the zero); a view value that may be NULL carries
//     its presence (Value.Present). The engines show NULL where the presence
//     fails.
//   - Conditions. Val of a boolean expression is 1 when it is TRUE, else 0
//     (FALSE and UNKNOWN alike), which is what WHERE, ON and HAVING keep. AND
//     is a product and OR inclusion–exclusion, both exact under Kleene logic;
//     NOT is not 1 − [p] (NOT UNKNOWN is UNKNOWN), so lang pushes NOT down to
//     the atoms (De Morgan holds in three-valued logic; NOT (a < b) is
//     a >= b; NOT (x IS NULL) is x IS NOT NULL); 1 − t stays for two-valued t
//     (EXISTS, counts).
//   - Equalities. x = y between nullable columns is a condition (its truth
//     is [x present]·[y present]·[x = y]); an equality of two columns is
//     unified, values and flags, under the guard [flag != 0], so NULL keys
//     never join and the join is still one indexed lookup.
//   - Aggregates. SUM(e), AVG(e), MIN(e), MAX(e) and COUNT(e) range over
//     body·[e present] when e may be NULL; SUM, AVG, MIN and MAX are present
//     where the count of that body is non-zero (a second aggregate), so a
//     group's SUM returns to NULL when its last non-NULL value is deleted;
//     in dialect sql an ungrouped one too (SUM over no rows is NULL, COUNT
//     is 0). A scalar subquery's lifted value gets the same presence.
//   - IN and NOT IN. x IN (SELECT y …) is Exists(AggSum(…, body·[y = x])): TRUE only on a
//     match. x NOT IN (SELECT y …) is TRUE when the subquery
//     is empty, or when x is not NULL, nothing equals x and no y is NULL:
//     [n = 0] + [n > 0]·[x IS NOT NULL]·[m(x) = 0]·[k = 0], with n the
//     subquery's count, m(x) its matches and k its NULL count — three maps.
//   - Outer joins (Larson & Zhou, outerjoin.go). Over lang's join tree,
//     L LEFT JOIN R ON p is
//     L·R·[p] + L·(n ^= AggSum([], R'·[p]'))·[n = 0]·pad(R):
//     the inner join plus the rows of L that match nothing, with R's
//     variables lifted to zero (values, presence flags) and a row flag per
//     item of R lifted to 0 (1 in the leaf), which is the presence of R's
//     NOT NULL columns. RIGHT is LEFT mirrored; FULL adds the other side's
//     anti-join; nesting composes (an operand is any tree). ON equalities
//     stay conditions (unifying them would bind R's columns in the padded
//     branch too); a single-tuple delta turns them into lookups all the
//     same. The anti-join is not linear in R, so a delta of R re-evaluates
//     the affected padded rows, old subtracted before the update and new
//     added after it; with the viewlet transform the match count n is a map
//     keyed by the join's correlation, so an insert that ends a row's
//     dangling (or a delete that starts it) is a lookup: an equi outer join
//     stays O(1) per event, like an inner join.
//   - Arithmetic. INT / INT truncates toward zero; x / 0 and x % 0 are NULL
//     (present where the divisor is non-zero; the divisor is replaced by 1
//     where it is 0, so that no engine divides by zero); NULL propagates
//     through arithmetic and functions. Under an aggregate's [e present]
//     guard the ring decomposition of e stays valid.
package calculus
