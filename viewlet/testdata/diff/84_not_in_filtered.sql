-- NOT IN over a subquery with its own WHERE.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(r.A + r.B) AS s FROM R r WHERE r.A NOT IN (SELECT s.C FROM S s WHERE s.B < 2);
