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
//   - SUM(DISTINCT e) and AVG(DISTINCT e) are built as COUNT(DISTINCT e) is,
//     a sum over the Exists of each (group, value), weighed by the value
//     (distinctagg.go).
//   - A join whose factors split into groups that share no variable is
//     the product of the groups' aggregates, multiplied when the view is
//     read (factor.go): cross products of many tables, or of one table many
//     times, then compile without the exponential delta of self-joins.
//
// NULLs, three-valued logic and outer joins (dialect sql). The design, landing
// in steps (lang first); the dbtoaster dialect declares every column NOT NULL
// and keeps today's terms exactly. Its one NULL, an empty grouped scalar
// subquery, is spelled out above as presence conditions and never held;
// dialect sql can use that spelling for NULLs that a term computes, while a
// NULL that comes with the data is held as a value:
//
//   - Values. Ring values (multiplicities, sums, counts) are never NULL.
//     Variables are: a nullable column, a Lift of a nullable value or an
//     outer join's padding binds NULL, and a map key may hold NULL (one NULL
//     group, as GROUP BY and DISTINCT want). lang.MayBeNull says which
//     expressions can be NULL; only those pay for it.
//   - Conditions. Val of a boolean expression is 1 when it is TRUE, else 0
//     (FALSE and UNKNOWN alike), which is what WHERE, ON and HAVING keep. AND
//     is a product and OR inclusion–exclusion, both exact under Kleene logic;
//     NOT is not 1 − [p] (NOT UNKNOWN is UNKNOWN), so lang pushes NOT down to
//     the atoms (De Morgan holds in three-valued logic; NOT (a < b) is
//     a >= b; NOT (x IS NULL) is x IS NOT NULL); 1 − t stays for two-valued t
//     (EXISTS, counts).
//   - Equalities. x = y between nullable columns is unified as today and
//     guarded by [x IS NOT NULL] (NULL keys never join); x IS NOT DISTINCT
//     FROM y is unified without the guard, so NULL meets NULL and the join is
//     still an indexed lookup.
//   - Aggregates. SUM(e), AVG(e), MIN(e), MAX(e) and COUNT(e) range over
//     body·[e IS NOT NULL] when e may be NULL; SUM, AVG, MIN and MAX also
//     keep the non-NULL count AggSum(g, body·[e IS NOT NULL]) and are NULL
//     where it is 0, so a group's SUM returns to NULL when its last non-NULL
//     value is deleted. Lift gains a definedness term: Lift(z, t, d) binds z
//     to NULL where d is 0, else to t (scalar subqueries and derived-table
//     aggregates over no non-NULL input); its delta is the non-linear rule of
//     Lift, applied to t and d together. Extreme is NULL over no rows.
//   - IN and NOT IN. x IN (SELECT y …) is Exists(AggSum(…, body·[y = x])):
//     TRUE only on a match. x NOT IN (SELECT y …) is TRUE when the subquery
//     is empty, or when x is not NULL, nothing equals x and no y is NULL:
//     [n = 0] + [n > 0]·[x IS NOT NULL]·[m(x) = 0]·[k = 0], with n the
//     subquery's count, m(x) its matches and k its NULL count — three maps.
//   - Outer joins (Larson & Zhou). A LEFT JOIN S ON p is
//     A·S·p + A·(1 − Exists(AggSum(vars(A), S·p)))·Lift(s1, NULL)·…·Lift(sn, NULL):
//     the inner join plus the anti-join padded with NULLs. ON equalities are
//     unified in the first branch only (the padded branch binds S's columns
//     to NULL, A's keep their values). RIGHT is LEFT mirrored; FULL adds the
//     other side's anti-join. Nesting composes: the left operand's term is A.
//     With the viewlet transform the match count AggSum(vars(A), S·p) is a
//     map keyed by the join keys, so an insert into S that ends a row's
//     dangling (or a delete that starts it) is a lookup: an equi outer join
//     stays O(1) per event, like an inner join.
//   - Arithmetic. INT / INT truncates toward zero; x / 0 and x % 0 are NULL;
//     NULL propagates through arithmetic and functions. Under an aggregate's
//     [e IS NOT NULL] guard the ring decomposition of e stays valid.
package calculus
