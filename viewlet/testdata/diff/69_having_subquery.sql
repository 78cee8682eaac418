-- An uncorrelated subquery in HAVING (TPC-H Q11's shape).
CREATE STREAM R(A int, B int);
SELECT r.A, SUM(r.B) AS s FROM R r GROUP BY r.A
HAVING SUM(r.B) > (SELECT SUM(r2.B) * 0.2 FROM R r2);
