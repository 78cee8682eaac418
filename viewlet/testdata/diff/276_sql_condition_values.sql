-- Plain SQL (issue 11) in dialect sql: a condition used as a value is 1 or
-- 0, as in SQLite.
-- diff: sql ints=5
CREATE STREAM R(A int NOT NULL, B int NOT NULL);
SELECT r.A = r.B, r.A < 3, COUNT(*) FROM R r GROUP BY r.A = r.B, r.A < 3;
SELECT r.A, SUM(r.B > 1), SUM((r.A = 1) + (r.B = 2)) FROM R r GROUP BY r.A;
SELECT r.B, SUM(CASE WHEN r.A > 2 THEN 1 ELSE 0 END = (r.B < 2)) FROM R r GROUP BY r.B;
SELECT r.B FROM R r WHERE (r.A > 1) = (r.B > 1);
