-- Correlated scalar subquery with a < correlation.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(r.A) AS s FROM R r
WHERE r.B <= (SELECT SUM(s.C) FROM S s WHERE s.B < r.A);
