-- NOT EXISTS with an inequality correlation.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(r.A * r.B) FROM R r
WHERE NOT EXISTS (SELECT s.C FROM S s WHERE s.B < r.B);
