-- A derived table over a join, aggregated outside.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT d.A, SUM(d.v) AS s, COUNT(*) AS n
FROM (SELECT r.A, s.C, r.B * s.C AS v FROM R r, S s WHERE r.B = s.B) d
WHERE d.C > 1 GROUP BY d.A;
