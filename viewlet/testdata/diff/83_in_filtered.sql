-- IN over a subquery with its own WHERE.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.B, COUNT(*) AS n FROM R r WHERE r.A IN (SELECT s.B FROM S s WHERE s.C > 3) GROUP BY r.B;
