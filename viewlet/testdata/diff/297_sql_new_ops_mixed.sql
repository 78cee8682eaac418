-- Dialect sql: the operators of issue 12 over outer joins and mixed with
-- each other: an ordered-set aggregate of a padded column, a window whose
-- partition is a padded (NULL) column, top-K over an outer join and over a
-- median, MODE of strings, a top-K view reading an uncorrelated subquery
-- (ordered when read), a running window beside a top-K.
-- diff: sql ints=4 events=800
CREATE STREAM R(A int, B int, N string);
CREATE STREAM S(A int, D int);
SELECT o.A, PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY s.D), MEDIAN(s.D) FROM R o LEFT JOIN S s ON o.A = s.A GROUP BY o.A;
SELECT r.A, s.D, SUM(r.B) OVER (PARTITION BY s.D) AS t, COUNT(*) OVER (PARTITION BY s.D ORDER BY r.A DESC) AS c FROM R r LEFT JOIN S s ON r.A = s.A;
SELECT r.A, COUNT(s.D) AS n FROM R r LEFT JOIN S s ON r.A = s.A GROUP BY r.A ORDER BY n DESC LIMIT 2;
SELECT A, MEDIAN(B) AS m, MODE(N) AS common FROM R GROUP BY A ORDER BY m DESC LIMIT 2 OFFSET 1;
SELECT A, SUM(B) - (SELECT SUM(D) FROM S) AS x FROM R GROUP BY A ORDER BY x LIMIT 2;
SELECT A, N, RANK() OVER (PARTITION BY A ORDER BY N) AS rk FROM R ORDER BY rk DESC, A LIMIT 3;
SELECT MODE() WITHIN GROUP (ORDER BY N DESC), PERCENTILE_DISC(0.2) WITHIN GROUP (ORDER BY N) FROM R;
