-- MIN/MAX scalar subqueries in HAVING, correlated with a group key or not,
-- next to the view's own MIN/MAX.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING COUNT(*) < (SELECT MAX(t.D) FROM T t WHERE t.C = s.C);
SELECT s.C, MIN(s.B) AS lo FROM S s GROUP BY s.C HAVING MIN(s.B) <= (SELECT MIN(t.D) FROM T t);
SELECT s.B, SUM(s.C) AS v FROM S s GROUP BY s.B HAVING (SELECT MIN(t.D) FROM T t WHERE t.C = s.B) > 2 AND (SELECT MAX(t.C) FROM T t) > s.B;
