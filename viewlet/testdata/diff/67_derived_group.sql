-- A derived table with its own GROUP BY, joined with a stream.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT d.B, SUM(d.total * r.A) FROM (SELECT s.B, SUM(s.C) AS total FROM S s GROUP BY s.B) d, R r
WHERE d.B = r.B GROUP BY d.B;
