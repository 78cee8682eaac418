-- A grouped derived table joined with two streams.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT t.D, SUM(d.n * r.A) AS x FROM (SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C) d, R r, T t
WHERE d.C = r.B AND t.C = d.C GROUP BY t.D;
