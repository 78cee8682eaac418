-- SELECT DISTINCT of expressions.
-- diff: events=400
CREATE STREAM R(A int, B int);
SELECT DISTINCT r.A + r.B AS x FROM R r;
SELECT DISTINCT r.A * 2 AS y, CASE WHEN r.B > 2 THEN 1 ELSE 0 END AS big FROM R r;
