-- UNION ALL and UNION views, and a UNION of joins in a derived table.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, r.B FROM R r WHERE r.A > 2 UNION ALL SELECT s.C, s.B FROM S s;
SELECT r.B FROM R r UNION SELECT s.B FROM S s WHERE s.C < 3;
SELECT u.X, COUNT(*) AS n FROM (SELECT r.A AS X FROM R r, S s WHERE r.B = s.B UNION ALL SELECT s2.C AS X FROM S s2) u GROUP BY u.X;
