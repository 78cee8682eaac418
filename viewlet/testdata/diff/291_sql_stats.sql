-- Dialect sql: VAR_POP, VAR_SAMP, VARIANCE, STDDEV_POP, STDDEV_SAMP and
-- STDDEV, grouped and not, over INT and FLOAT columns with NULLs, beside
-- other aggregates and in HAVING; NULL over fewer than two values (one for
-- the _POP forms); deletes down to one and no value in a group; in
-- correlated and uncorrelated scalar subqueries and a grouped derived
-- table. The oracle computes them by two passes over SQLite's rows.
-- diff: sql ints=4 events=900
CREATE STREAM R(A int, B int, C float);
CREATE STREAM S(A int, D float);
SELECT A, VAR_SAMP(B), VAR_POP(B), STDDEV(C), COUNT(*) FROM R GROUP BY A;
SELECT VARIANCE(B), STDDEV_POP(C), STDDEV_SAMP(B + C), AVG(B) FROM R;
SELECT A, STDDEV_POP(B) FROM R WHERE C > 0.5 GROUP BY A HAVING VAR_SAMP(B) > 0.4142;
SELECT A + 1, VARIANCE(C * 2.5) FROM R GROUP BY A + 1;
SELECT r.A, COUNT(*) FROM R r WHERE r.C > (SELECT STDDEV(s.D) FROM S s WHERE s.A = r.A) GROUP BY r.A;
SELECT COUNT(*), SUM(r.B) FROM R r WHERE r.B < (SELECT VAR_POP(s.D) FROM S s);
SELECT d.A, d.V FROM (SELECT A, VARIANCE(D) AS V FROM S GROUP BY A) d WHERE d.V > 0.4142;
