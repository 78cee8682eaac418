-- SELECT DISTINCT over a grouped query that does not select all its GROUP
-- BY keys (issue 8, X): the distinct set of its output rows, value columns
-- included; the view is keyed by all its columns. Also as a derived table,
-- a UNION branch and inside IN/EXISTS.
-- diff: ints=5 events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT DISTINCT SUM(s.B) AS v FROM S s GROUP BY s.C;
SELECT DISTINCT MAX(s.B) AS v, COUNT(*) AS n FROM S s GROUP BY s.C HAVING COUNT(*) > 1;
SELECT DISTINCT s.B, MIN(s.C) AS lo FROM S s GROUP BY s.B, s.C;
SELECT COUNT(*) AS n, SUM(d.v) AS w FROM (SELECT DISTINCT SUM(s.B) AS v FROM S s GROUP BY s.C) d;
SELECT d.v, COUNT(*) AS n FROM (SELECT DISTINCT COUNT(*) AS v FROM T t GROUP BY t.C) d, S s WHERE s.B = d.v GROUP BY d.v;
SELECT DISTINCT COUNT(*) AS v FROM T t GROUP BY t.D UNION ALL SELECT s.B FROM S s;
SELECT COUNT(*) AS v FROM S s WHERE s.B IN (SELECT DISTINCT COUNT(*) FROM T t GROUP BY t.C);
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT DISTINCT SUM(t.D) FROM T t WHERE t.C = s.B GROUP BY t.D HAVING SUM(t.D) > s.C);
