-- MIN/MAX scalar subqueries in SELECT: correlated with a group key,
-- uncorrelated, in an expression, in a scalar view, over a derived table.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, (SELECT MAX(t.D) FROM T t WHERE t.C = s.C) AS v, COUNT(*) AS n FROM S s GROUP BY s.C;
SELECT s.C, (SELECT MIN(t.D) FROM T t) AS v FROM S s GROUP BY s.C;
SELECT s.B, s.C, SUM(s.B) - (SELECT MIN(t.D) FROM T t WHERE t.C = s.C AND t.D > 1) AS v FROM S s GROUP BY s.B, s.C;
SELECT (SELECT MAX(t.D) FROM T t) AS v, SUM(s.B) AS w FROM S s;
SELECT s.C, (SELECT MAX(d.n) FROM (SELECT t.C AS c, COUNT(*) AS n FROM T t GROUP BY t.C) d WHERE d.c = s.C) AS v FROM S s GROUP BY s.C;
