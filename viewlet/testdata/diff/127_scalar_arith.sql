-- Arithmetic over two correlated scalar subqueries in WHERE.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(r.A) AS s FROM R r
WHERE (SELECT SUM(s.C) FROM S s WHERE s.B = r.A) - (SELECT COUNT(*) FROM S s2 WHERE s2.B = r.B) > 1;
