-- EXISTS with two equality correlation columns.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) AS s FROM R r
WHERE EXISTS (SELECT s.C FROM S s WHERE s.B = r.B AND s.C = r.A) GROUP BY r.A;
