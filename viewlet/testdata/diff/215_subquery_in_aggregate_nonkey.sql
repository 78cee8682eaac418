-- Scalar subqueries inside aggregates, correlated with a column that is not
-- a group key (SQL allows it there): SUM, MAX and COUNT(DISTINCT) of them,
-- and in HAVING.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, SUM((SELECT COUNT(*) FROM T t WHERE t.C = s.B)) AS v FROM S s GROUP BY s.C;
SELECT s.C, MAX((SELECT SUM(t.D) FROM T t WHERE t.C = s.B)) AS v FROM S s GROUP BY s.C;
SELECT s.C, COUNT(DISTINCT (SELECT COUNT(*) FROM T t WHERE t.C = s.B)) AS v FROM S s GROUP BY s.C;
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING SUM((SELECT COUNT(*) FROM T t WHERE t.C = s.B)) > 1;
