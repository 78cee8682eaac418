-- A grouped view lists its keys in SELECT order, then its unselected GROUP
-- BY keys in GROUP BY order (issue 9, item 5): the oracle's view (lang's
-- View and Columns) and the engines' must agree on the keys, the values and
-- the output columns, also where a subquery, a MIN/MAX or a HAVING reads
-- the keys by position.
-- diff: depth0 ints=4 words=3 days=3 events=600
CREATE STREAM R (A INT, B STRING, C INT, D DATE);
CREATE STREAM S (A INT, E INT);
SELECT B, A, SUM(C) AS s FROM R GROUP BY A, B;
SELECT B, SUM(C) AS s FROM R GROUP BY A, B;
SELECT A, SUM(C) AS s, B FROM R GROUP BY B, A;
SELECT D, COUNT(*) AS n, A, B FROM R GROUP BY B, A, D HAVING SUM(C) > 1;
SELECT A + 1 AS a1, SUM(C) AS s, B FROM R GROUP BY B, A + 1;
SELECT B, A * 2 AS a2, COUNT(*) AS n FROM R GROUP BY A, B;
SELECT B, A, B AS b2, COUNT(*) AS n FROM R GROUP BY A, B;
SELECT D, B, MAX(C) AS hi, MIN(A) AS lo FROM R GROUP BY B, D;
SELECT DISTINCT B, A, COUNT(*) AS n FROM R GROUP BY A, B;
SELECT DISTINCT B, COUNT(*) AS n FROM R GROUP BY A, B;
SELECT s.E, r.B, SUM(r.C) AS sc FROM R r, S s WHERE r.A = s.A GROUP BY r.B, s.E;
SELECT r.D, r.A, (SELECT SUM(s.E) FROM S s WHERE s.A = r.A) AS se, COUNT(*) AS n FROM R r GROUP BY r.A, r.D;
SELECT r.B, r.A, (SELECT MAX(s.E) FROM S s WHERE s.A = r.A) AS me FROM R r GROUP BY r.A, r.B;
