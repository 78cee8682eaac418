-- NOT IN over a grouped subquery with HAVING on COUNT.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) AS s FROM R r
WHERE r.B NOT IN (SELECT s.B FROM S s GROUP BY s.B HAVING COUNT(*) > 3) GROUP BY r.A;
