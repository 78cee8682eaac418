-- IN over a grouped subquery with HAVING on AVG, over a join outside.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT t.D, SUM(r.A) AS s FROM R r, T t WHERE r.B = t.C
  AND r.A IN (SELECT s.B FROM S s GROUP BY s.B HAVING AVG(s.C) > 2) GROUP BY t.D;
