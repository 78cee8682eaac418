-- HAVING with an uncorrelated subquery over another stream, on COUNT.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.B, COUNT(*) AS n FROM R r GROUP BY r.B HAVING COUNT(*) > (SELECT COUNT(*) FROM S s WHERE s.C = 5);
