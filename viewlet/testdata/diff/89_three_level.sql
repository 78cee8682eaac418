-- Nested aggregate of a nested aggregate: three levels of scalar subqueries.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT SUM(r.A) AS s FROM R r
WHERE r.B < (SELECT COUNT(*) FROM S s WHERE s.B = r.A
             AND s.C > (SELECT COUNT(*) FROM T t WHERE t.C = s.B AND t.D > 3));
