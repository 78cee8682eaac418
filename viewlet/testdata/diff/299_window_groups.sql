-- Dialect sql: windows over a grouped query's groups: SUM and AVG of the
-- groups' SUM or COUNT OVER () or OVER (PARTITION BY a GROUP BY key), and
-- COUNT(*) OVER (the number of groups), as a share of the total, with an
-- unselected GROUP BY key, NULL groups and NULL arguments, with ORDER BY …
-- LIMIT, and in an ungrouped aggregate query (one group); RANK, DENSE_RANK
-- and running SUM, COUNT, AVG over groups ordered by a (nullable) GROUP BY
-- key.
-- diff: sql ints=4 events=800
CREATE STREAM R(A int, B int, C int);
CREATE STREAM S(A int, D float);
SELECT A, SUM(B), SUM(SUM(B)) OVER () AS total, COUNT(*) OVER () AS groups, AVG(COUNT(*)) OVER (PARTITION BY A) FROM R GROUP BY A, C;
SELECT A, SUM(B) * 1.0 / SUM(SUM(B)) OVER () AS share FROM R GROUP BY A;
SELECT r.A, SUM(s.D), AVG(SUM(s.D)) OVER () AS mean FROM R r, S s WHERE r.A = s.A GROUP BY r.A ORDER BY 2 DESC, 1 LIMIT 2;
SELECT COUNT(*), SUM(COUNT(*)) OVER (), COUNT(*) OVER () FROM R;
SELECT C, COUNT(B), SUM(COUNT(B)) OVER (PARTITION BY C) FROM R GROUP BY C, A;
SELECT A, C, SUM(B), RANK() OVER (ORDER BY A DESC) AS rk, DENSE_RANK() OVER (PARTITION BY C ORDER BY A) AS dr, SUM(SUM(B)) OVER (PARTITION BY C ORDER BY A) AS run, COUNT(*) OVER (ORDER BY A) AS n, AVG(COUNT(*)) OVER (ORDER BY C) FROM R GROUP BY A, C;
