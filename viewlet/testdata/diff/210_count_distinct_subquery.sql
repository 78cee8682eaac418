-- COUNT(DISTINCT) in scalar subqueries: correlated by equality and
-- uncorrelated, in WHERE, in a grouped SELECT and inside an aggregate.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS n FROM S s WHERE (SELECT COUNT(DISTINCT t.D) FROM T t WHERE t.C = s.C) >= 2;
SELECT s.B, SUM(s.C) AS v FROM S s WHERE s.C < (SELECT COUNT(DISTINCT t.D) FROM T t) GROUP BY s.B;
SELECT s.B, SUM((SELECT COUNT(DISTINCT t.C) FROM T t WHERE t.D = s.B)) AS v FROM S s GROUP BY s.B;
SELECT s.C, (SELECT COUNT(DISTINCT t.D) FROM T t WHERE t.C = s.C) AS v FROM S s GROUP BY s.C;
