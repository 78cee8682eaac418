-- A derived table used twice (self-join of two grouped derived tables).
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT d1.B, SUM(d1.total * d2.total) AS x
FROM (SELECT s.B, SUM(s.C) AS total FROM S s GROUP BY s.B) d1,
     (SELECT s2.B, SUM(s2.C) AS total FROM S s2 GROUP BY s2.B) d2
WHERE d1.B < d2.B GROUP BY d1.B;
