-- A derived table without aggregates, and one with DISTINCT.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT d.A, SUM(d.B) FROM (SELECT r.A, r.B FROM R r WHERE r.A > 1) d GROUP BY d.A;
SELECT COUNT(*) AS n FROM (SELECT DISTINCT s.C FROM S s) d, R r WHERE d.C = r.A;
