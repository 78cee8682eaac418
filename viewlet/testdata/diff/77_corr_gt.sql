-- Correlated scalar subquery with a > correlation, grouped outer.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.B, SUM(r.A) AS s FROM R r
WHERE r.A * 2 > (SELECT COUNT(*) FROM S s WHERE s.C > r.B) GROUP BY r.B;
