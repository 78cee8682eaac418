-- MAX over a derived table (grouped COUNT).
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT MAX(d.n) AS m FROM (SELECT s.B, COUNT(*) AS n FROM S s GROUP BY s.B) d;
SELECT MIN(d.t) AS m FROM (SELECT r.A, SUM(r.B) AS t FROM R r GROUP BY r.A) d;
