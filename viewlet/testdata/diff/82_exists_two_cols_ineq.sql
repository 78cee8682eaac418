-- EXISTS with two correlation columns, one equality and one inequality, ungrouped.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int, D int);
SELECT COUNT(*) AS n FROM R r
WHERE EXISTS (SELECT 1 FROM S s WHERE s.B = r.B AND s.C <= r.A AND s.D > 2);
