-- Combinations: COUNT(DISTINCT) in a correlated subquery over a derived
-- table, in a derived table's HAVING read by an outer subquery, MAX of a
-- column equated with the group key, a three-level nest in SELECT.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, (SELECT MAX(t.C) FROM T t WHERE t.C = s.C) AS v FROM S s GROUP BY s.C;
SELECT COUNT(*) AS n FROM S s WHERE s.B <= (SELECT COUNT(DISTINCT d.y) FROM (SELECT t.C AS x, t.D + 1 AS y FROM T t) d WHERE d.x = s.C);
SELECT s.B, SUM(s.C) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t GROUP BY t.C HAVING COUNT(DISTINCT t.D) >= 2) GROUP BY s.B;
SELECT s.C, (SELECT MIN(t.D) FROM T t WHERE t.C = s.C AND t.D > (SELECT COUNT(DISTINCT s2.B) FROM S s2 WHERE s2.C = t.C)) AS v FROM S s GROUP BY s.C;
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING (SELECT COUNT(DISTINCT t.D) FROM T t WHERE t.C = s.C) < COUNT(*) + 1 AND (SELECT MAX(t.D) FROM T t) > s.C;
