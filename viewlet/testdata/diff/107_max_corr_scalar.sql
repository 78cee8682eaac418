-- MAX inside a correlated scalar subquery with an inequality correlation.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT COUNT(*) AS n FROM R r WHERE r.A >= (SELECT MAX(s.C) FROM S s WHERE s.B > r.B);
