-- Division by zero: 0, as in DBToaster (SQLite's NULL is reported as 0 too).
-- diff: events=400
CREATE STREAM R(A int, B int);
SELECT r.B, SUM(r.A) / r.B AS q FROM R r GROUP BY r.B;
SELECT SUM(r.A / r.B) AS s FROM R r;
