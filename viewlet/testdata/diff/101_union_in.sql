-- UNION inside IN (...).
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT r.B, COUNT(*) AS n FROM R r
WHERE r.A IN (SELECT s.C FROM S s WHERE s.B = 1 UNION SELECT t.D FROM T t WHERE t.C > 3) GROUP BY r.B;
