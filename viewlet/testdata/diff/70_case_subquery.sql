-- A correlated subquery inside CASE.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(CASE WHEN r.B > (SELECT COUNT(*) FROM S s WHERE s.B = r.A) THEN r.B ELSE 1 END) AS x
FROM R r GROUP BY r.A;
