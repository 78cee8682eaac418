-- IN over a grouped subquery with HAVING (TPC-H Q18's shape).
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) FROM R r
WHERE r.A IN (SELECT s.B FROM S s GROUP BY s.B HAVING SUM(s.C) > 6)
GROUP BY r.A;
