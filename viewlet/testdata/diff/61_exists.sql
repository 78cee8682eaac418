-- EXISTS with an equality correlation.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(*) FROM R r
WHERE EXISTS (SELECT s.C FROM S s WHERE s.B = r.B AND s.C > 2)
GROUP BY r.A;
