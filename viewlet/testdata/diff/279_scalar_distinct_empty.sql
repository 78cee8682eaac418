-- Plain SQL (issue 11): ungrouped DISTINCT aggregates, 0 over no rows in
-- dialect dbtoaster (deletes empty the tables now and then), with
-- constant filters and functions of constants.
-- diff: ints=4 events=800 deletes=0.45
CREATE STREAM R(A int, B int);
SELECT SUM(DISTINCT r.A), AVG(DISTINCT r.B), MAX(DISTINCT r.A), MIN(DISTINCT r.B + 1), COUNT(ALL r.A) FROM R r WHERE r.B > 0;
SELECT ROUND(2.675, 2) + SUM(DISTINCT r.A * r.B), LENGTH('abc' || r.A), COUNT(*) FROM R r GROUP BY LENGTH('abc' || r.A);
