-- Nested aggregates re-evaluated from the base relations (depth 0): MIN/MAX
-- in correlated scalar subqueries read the base maps (no relation atom is
-- left in a statement), a correlated derived table sums per group of the
-- nested AggSum, and IN / EXISTS / ALL over unions and grouped sums.
-- diff: events=300 depth0
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) AS s FROM R r WHERE r.B = (SELECT MIN(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A;
SELECT r.A, COUNT(*) AS n FROM R r WHERE r.B <= (SELECT MAX(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A;
SELECT SUM(r.A) AS x FROM R r WHERE r.B > (SELECT SUM(d.X) FROM (SELECT s.C AS X FROM S s WHERE s.B = r.A) d);
SELECT r.A, SUM(r.B) AS x FROM R r WHERE r.B = ALL (SELECT s.B FROM S s UNION SELECT s.C FROM S s) GROUP BY r.A;
SELECT COUNT(*) AS n FROM R r WHERE r.A IN (SELECT s.B FROM S s UNION SELECT s.C FROM S s);
SELECT COUNT(*) AS n FROM R r WHERE NOT EXISTS (SELECT s.B FROM S s WHERE s.B = r.B);
SELECT SUM(r.A) AS x FROM R r WHERE r.B > (SELECT SUM(d.X) FROM (SELECT s.C AS X, s.B AS Y FROM S s UNION ALL SELECT s.C AS X, s.B AS Y FROM S s WHERE s.C > 1) d WHERE d.Y = r.A);
