-- TPC-H Q18's shape: a grouped view filtered by IN over a grouped subquery
-- with HAVING, correlated by equality; the re-evaluation on S touches only
-- the entries of the event's key (affectedKeys through the equality).
-- diff: events=600 deletes=0.4
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(A int, D int);
SELECT r.A, r.B, SUM(s.C) FROM R r, S s WHERE r.B = s.B AND r.B IN (SELECT s2.B FROM S s2 GROUP BY s2.B HAVING SUM(s2.C) > 6) GROUP BY r.A, r.B;
SELECT t.D, r.B, COUNT(*) FROM T t, R r WHERE t.A = r.A AND r.B IN (SELECT s2.B FROM S s2 GROUP BY s2.B HAVING COUNT(*) > 1) GROUP BY t.D, r.B;
SELECT r.A, COUNT(*) FROM R r WHERE r.B NOT IN (SELECT s.B FROM S s WHERE s.C > 1) GROUP BY r.A;
