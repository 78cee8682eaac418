-- MIN/MAX over many distinct values per group (few groups, a wide value
-- domain) under heavy deletes: the current extreme is deleted now and then,
-- and groups empty and refill.
-- diff: events=700 deletes=0.4 R.A=3 R.C=2 R.B=300 R.F=100
CREATE STREAM R(A int, B int, C int, F float);
SELECT r.A, MIN(r.B) AS lo, MAX(r.B) AS hi, MIN(r.F) AS lf, MAX(r.F - r.B) AS hf, COUNT(*) AS n FROM R r GROUP BY r.A;
SELECT MIN(r.B) AS lo, MAX(r.B + r.A) AS hi FROM R r;
SELECT r.A, r.C, MIN(r.B) AS lo, MAX(r.F) AS hf FROM R r GROUP BY r.A, r.C;
