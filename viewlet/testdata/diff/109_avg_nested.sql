-- AVG in a nested (correlated) subquery.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(*) AS n FROM R r WHERE r.B > (SELECT AVG(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A;
