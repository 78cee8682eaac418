-- MIN/MAX per group and of an expression, under heavy deletes.
-- diff: events=400 deletes=0.45
CREATE STREAM R(A int, B int, F float);
SELECT r.A, MIN(r.B) AS lo, MAX(r.B) AS hi FROM R r GROUP BY r.A;
SELECT r.B, MIN(r.A * r.F - 1) AS lo, MAX(r.A + r.B) AS hi FROM R r GROUP BY r.B;
SELECT MIN(r.F) AS lf FROM R r;
