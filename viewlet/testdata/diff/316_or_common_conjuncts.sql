-- Disjunctions whose branches share conjuncts (TPC-H Q19's shape): the
-- shared conjuncts are factored out (A AND B) OR (A AND C) = A AND (B OR
-- C), which holds in SQL's three-valued logic, so a shared equality joins
-- and shared conditions on one side guard the loop. Variants: a shared
-- equality between nullable columns, branches that share a condition on
-- the event only, a branch that is the shared part alone (A OR (A AND B)
-- is A), a shared correlated subquery, NOT over a disjunction, and a
-- three-way join whose branches share two equalities.
-- diff: sql ints=5 events=700
CREATE STREAM P(k int, b int, s int);
CREATE STREAM L(k int, q int, m int, v int);
SELECT SUM(l.v) AS rev, COUNT(*) AS c FROM L l, P p WHERE (p.k = l.k AND p.b = 1 AND l.q <= 2 AND l.m < 3) OR (l.m < 3 AND p.k = l.k AND p.b = 2 AND l.q >= 2) OR (p.k = l.k AND l.m < 3 AND p.s > 3);
SELECT p.b, COUNT(*) AS c FROM L l, P p WHERE (l.k = p.k AND l.q = 1) OR (l.k = p.k) GROUP BY p.b;
SELECT l.m, SUM(l.v) AS s FROM L l WHERE (l.q > 1 AND EXISTS (SELECT 1 FROM P p WHERE p.k = l.k AND p.b = l.m)) OR (l.v < 2 AND EXISTS (SELECT 1 FROM P p WHERE p.k = l.k AND p.b = l.m)) GROUP BY l.m;
SELECT COUNT(*) AS c FROM L l, P p WHERE NOT ((p.k = l.k AND p.b = 1) OR (p.k = l.k AND p.s = 2));
SELECT SUM(p.s) AS s FROM L l, P p, P p2 WHERE (p.k = l.k AND p2.b = l.q AND p.s < p2.s) OR (p.k = l.k AND p2.b = l.q AND l.m = 1);
