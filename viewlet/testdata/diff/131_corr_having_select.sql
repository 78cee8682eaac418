-- Subqueries in SELECT and HAVING correlated with group keys.
-- diff: events=600
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) + (SELECT SUM(s.C) FROM S s WHERE s.B = r.A) AS x FROM R r GROUP BY r.A;
SELECT r.A, COUNT(*) AS n FROM R r GROUP BY r.A HAVING COUNT(*) > (SELECT COUNT(*) FROM S s WHERE s.B = r.A);
