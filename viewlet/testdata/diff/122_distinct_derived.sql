-- Aggregation over a SELECT DISTINCT derived table.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT d.A, COUNT(*) AS n FROM (SELECT DISTINCT r.A, s.C FROM R r, S s WHERE r.B = s.B) d GROUP BY d.A;
