-- Dialect sql: running window aggregates SUM, COUNT and AVG OVER
-- ([PARTITION BY …] ORDER BY x [DESC]) and RANK, DENSE_RANK, with the
-- default frame (peers included), over NOT NULL and nullable ORDER BY
-- columns (NULL first ascending, last descending, NULLs peers), with NULL
-- partitions and NULL arguments, over a join; streams delete a partition's
-- first rows and rows with ties. A window ordered by one of its PARTITION
-- BY expressions has only peers (its ranks are 1). The oracle lets SQLite
-- compute them.
-- diff: sql ints=4 events=900
CREATE STREAM R(A int, B int NOT NULL, C float);
CREATE STREAM T(A int, B int, C float);
CREATE STREAM S(A int NOT NULL, D int NOT NULL);
SELECT A, B, SUM(C) OVER (PARTITION BY A ORDER BY B) AS run, COUNT(*) OVER (ORDER BY B DESC) AS n FROM R;
SELECT A, B, RANK() OVER (PARTITION BY A ORDER BY B DESC) AS rk, DENSE_RANK() OVER (ORDER BY B) AS dr FROM R;
SELECT B, AVG(C) OVER (ORDER BY B RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS m, COUNT(C) OVER (PARTITION BY A ORDER BY B) FROM R;
SELECT s.D, r.B, SUM(r.B) OVER (PARTITION BY s.A ORDER BY s.D) AS t, RANK() OVER (ORDER BY r.B) FROM R r, S s WHERE r.A = s.A;
SELECT A, B, RANK() OVER (PARTITION BY A ORDER BY B) AS rk FROM R ORDER BY rk, A, B LIMIT 4;
SELECT A, B, SUM(B) OVER (PARTITION BY B ORDER BY B) AS p, RANK() OVER (PARTITION BY A, B ORDER BY B) AS one, DENSE_RANK() OVER (PARTITION BY A ORDER BY A) FROM R;
SELECT A, B, SUM(C) OVER (PARTITION BY A ORDER BY B) AS run, RANK() OVER (ORDER BY B DESC) AS rk, DENSE_RANK() OVER (PARTITION BY A ORDER BY B) AS dr, COUNT(*) OVER (ORDER BY B) FROM T;
SELECT C, AVG(C) OVER (ORDER BY C DESC) AS m, RANK() OVER (PARTITION BY A ORDER BY C) FROM T;
