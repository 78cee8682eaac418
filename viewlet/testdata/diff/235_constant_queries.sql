-- SELECT without FROM: constant views hold their row from the start, and
-- constant subqueries (scalar, IN, derived tables) are constants
-- (issue 9, item 3).
-- diff: ints=4 depth0
CREATE STREAM R(A int, B int);
SELECT 1;
SELECT (SELECT 1) AS a, 2 AS b;
SELECT COUNT(*) AS n FROM R r WHERE r.A IN (SELECT 1);
SELECT t.c, SUM(r.B) AS v FROM R r, (SELECT 3 AS c) t WHERE r.A <= t.c GROUP BY t.c;
SELECT SUM(r.B) AS v FROM R r WHERE r.A < (SELECT 2) AND r.B <> (SELECT r.A + 1);
SELECT r.A, COUNT(*) AS n FROM R r WHERE r.B NOT IN (SELECT 0) GROUP BY r.A;
