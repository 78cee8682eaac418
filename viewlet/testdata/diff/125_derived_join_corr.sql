-- A grouped derived table joined with a stream, filtered by a correlated scalar subquery.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(d.t) AS s FROM R r, (SELECT s.B, SUM(s.C) AS t FROM S s GROUP BY s.B) d
WHERE r.B = d.B AND r.A < (SELECT COUNT(*) FROM S s2 WHERE s2.C = r.A) GROUP BY r.A;
