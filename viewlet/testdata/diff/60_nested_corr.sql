-- A correlated scalar subquery in WHERE.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(r.A) FROM R r
WHERE r.A > (SELECT SUM(s.C) FROM S s WHERE s.B = r.B);
