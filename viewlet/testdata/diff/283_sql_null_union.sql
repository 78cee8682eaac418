-- Dialect sql: UNION and UNION ALL of columns that may be NULL (NULL is one
-- value, apart from the zero), at top level and as a derived table under an
-- aggregate.
-- diff: sql ints=3 depth0 events=1000
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int NOT NULL, C int);
SELECT r.B FROM R r UNION SELECT s.C FROM S s;
SELECT r.A, r.B FROM R r UNION ALL SELECT s.B, s.C FROM S s;
SELECT u.x, COUNT(*), SUM(u.y) FROM (SELECT r.B AS x, r.A AS y FROM R r UNION ALL SELECT s.C, s.B FROM S s) u GROUP BY u.x;
SELECT COUNT(*), COUNT(u.x) FROM (SELECT r.A AS x FROM R r UNION SELECT s.B FROM S s) u;
