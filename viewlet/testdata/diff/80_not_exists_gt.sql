-- NOT EXISTS with a > correlation plus an equality, grouped outer.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(*) AS n FROM R r
WHERE NOT EXISTS (SELECT 1 FROM S s WHERE s.B = r.A AND s.C > r.B) GROUP BY r.A;
