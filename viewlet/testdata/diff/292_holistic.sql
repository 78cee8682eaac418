-- Dialect sql: MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC (ascending and
-- descending) and MODE (both call forms; ties go to the least value, or the
-- greatest in descending order), grouped and not, over INT, FLOAT and
-- STRING columns with NULLs and duplicates; beside other aggregates, in
-- HAVING, in correlated and uncorrelated scalar subqueries in WHERE and in
-- SELECT, and over a grouped derived table. Streams delete the median
-- element and the last value of a group. The oracle sorts SQLite's values.
-- diff: sql ints=5 events=900
CREATE STREAM R(A int, B int, C float, D string);
CREATE STREAM S(A int, E int);
SELECT A, MEDIAN(B), PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY C), COUNT(*) FROM R GROUP BY A;
SELECT MEDIAN(C), PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY B), PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY D DESC), MODE(B) FROM R;
SELECT A, MODE() WITHIN GROUP (ORDER BY B DESC), MODE() WITHIN GROUP (ORDER BY D), PERCENTILE_CONT(1) WITHIN GROUP (ORDER BY B DESC) FROM R GROUP BY A;
SELECT A, SUM(B) FROM R GROUP BY A HAVING MEDIAN(C) > 0.5;
SELECT A + B, PERCENTILE_CONT(0.3) WITHIN GROUP (ORDER BY C - B) FROM R GROUP BY A + B;
SELECT r.A, COUNT(*) FROM R r WHERE r.B > (SELECT MEDIAN(s.E) FROM S s WHERE s.A = r.A) GROUP BY r.A;
SELECT COUNT(*), SUM(r.B) FROM R r WHERE r.B >= (SELECT MODE(s.E) FROM S s);
SELECT r.A, (SELECT PERCENTILE_DISC(0.75) WITHIN GROUP (ORDER BY s.E) FROM S s WHERE s.A = r.A) FROM R r GROUP BY r.A;
SELECT d.A, d.M FROM (SELECT A, MEDIAN(E) AS M FROM S GROUP BY A) d WHERE d.M > 1;
SELECT MEDIAN(d.M) FROM (SELECT A, MEDIAN(E) AS M FROM S GROUP BY A) d;
