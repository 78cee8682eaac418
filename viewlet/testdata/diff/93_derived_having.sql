-- A derived table with HAVING, joined with a stream.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(*) AS n FROM R r, (SELECT s.B, COUNT(*) AS c FROM S s GROUP BY s.B HAVING COUNT(*) > 2) d
WHERE r.B = d.B GROUP BY r.A;
