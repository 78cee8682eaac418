-- UNION inside a derived table, aggregated with SUM and grouped.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT u.K, SUM(u.V) AS s FROM (SELECT r.A AS K, r.B AS V FROM R r UNION SELECT s.B AS K, s.C AS V FROM S s) u GROUP BY u.K;
