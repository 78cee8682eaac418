-- A derived table with HAVING, then MAX and COUNT over it.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT MAX(d.t) AS m, COUNT(*) AS n FROM (SELECT s.B, SUM(s.C) AS t FROM S s GROUP BY s.B HAVING SUM(s.C) > 4) d;
