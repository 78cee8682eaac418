-- MIN/MAX per group over a join.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, MIN(s.C) AS lo, MAX(r.B + s.C) AS hi FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
