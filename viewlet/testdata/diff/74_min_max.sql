-- MIN and MAX per group under deletes of the current extreme, and nested
-- (TPC-H Q2's correlated MIN, Q15's MAX over a derived table).
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, MIN(r.B) AS lo, MAX(r.B * 2) AS hi, COUNT(*) AS n FROM R r GROUP BY r.A;
SELECT MAX(r.B) AS top FROM R r;
SELECT COUNT(*) AS n2 FROM R r WHERE r.B = (SELECT MIN(s.C) FROM S s WHERE s.B = r.A);
SELECT d.B, d.total FROM (SELECT s.B, SUM(s.C) AS total FROM S s GROUP BY s.B) d
WHERE d.total = (SELECT MAX(d2.total) FROM (SELECT s2.B, SUM(s2.C) AS total FROM S s2 GROUP BY s2.B) d2);
