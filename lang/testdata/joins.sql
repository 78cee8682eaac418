CREATE STREAM R (A INT, B INT);
CREATE STREAM S (B INT, C FLOAT);
CREATE STREAM T (C FLOAT, D STRING);

-- NATURAL JOIN: B and C resolve unambiguously after the join.
SELECT B, C, SUM(A * C) FROM R NATURAL JOIN S NATURAL JOIN T GROUP BY B, C;

-- JOIN ... ON, CROSS JOIN, aliases with and without AS
SELECT r1.A, COUNT(*) AS n
FROM R AS r1 JOIN R r2 ON r1.B = r2.A CROSS JOIN T
WHERE T.D = 'x'
GROUP BY r1.A;

-- derived table
SELECT agg.B, agg.total / 2 AS half
FROM (SELECT R.B, SUM(R.A) AS total FROM R GROUP BY R.B) AS agg, S
WHERE agg.B = S.B;

-- select without aggregates is a bag; DISTINCT; GROUP BY a column not selected
SELECT R.A, S.C FROM R, S WHERE R.B = S.B;
SELECT DISTINCT R.A FROM R;
SELECT SUM(R.A) / R.B FROM R GROUP BY R.B;
-- GROUP BY position and expression; HAVING
SELECT R.A + R.B AS ab, COUNT(*) AS cnt FROM R GROUP BY 1 HAVING COUNT(*) > 1;
SELECT R.A * 2, MAX(R.B) FROM R GROUP BY R.A * 2 ORDER BY 2 DESC;
