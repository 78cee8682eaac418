-- A correlated subquery inside CASE inside SUM, ungrouped, with a < correlation.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(CASE WHEN (SELECT COUNT(*) FROM S s WHERE s.B < r.A) > 2 THEN r.A * r.B ELSE r.B END) AS x FROM R r;
