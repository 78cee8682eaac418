-- Dialect sql: ROW_NUMBER() OVER ([PARTITION BY …] [ORDER BY x [DESC]])
-- over rows and over groups. Peers of x are numbered in the order of the
-- view's keys (SELECT columns without windows, then unselected keys),
-- ascending, NULLs first; a row's copies (a bag's multiplicity) get
-- consecutive numbers, a row each, as SQLite numbers them (two ROW_NUMBERs
-- of a bag pair the copies' numbers in order). Nullable tie columns,
-- NULL partitions, several tie levels, a window without ORDER BY, over a
-- join; streams with few values, so that rows repeat and tie.
-- diff: sql ints=3 events=900
CREATE STREAM R(A int, B int NOT NULL, C int);
CREATE STREAM S(A int NOT NULL, D int NOT NULL);
SELECT A, B, ROW_NUMBER() OVER (PARTITION BY A ORDER BY B DESC) AS n FROM R;
SELECT A, B, C, ROW_NUMBER() OVER (ORDER BY B) AS n, RANK() OVER (ORDER BY B) AS rk FROM R;
SELECT C, A, ROW_NUMBER() OVER (PARTITION BY B) AS n FROM R;
SELECT A, ROW_NUMBER() OVER (ORDER BY C DESC) AS n FROM R;
SELECT s.D, r.C, ROW_NUMBER() OVER (PARTITION BY s.A ORDER BY r.B) AS n FROM R r, S s WHERE r.A = s.A;
SELECT A, C, SUM(B), ROW_NUMBER() OVER (ORDER BY A DESC) AS n, ROW_NUMBER() OVER (PARTITION BY C ORDER BY A) AS m FROM R GROUP BY A, C;
SELECT B, COUNT(*), ROW_NUMBER() OVER (PARTITION BY B) AS n FROM R GROUP BY B, C;
SELECT A, ROW_NUMBER() OVER (ORDER BY B) AS n, ROW_NUMBER() OVER (PARTITION BY A ORDER BY C DESC) AS m, COUNT(*) OVER (PARTITION BY A) AS c FROM R;
SELECT A, ROW_NUMBER() OVER (PARTITION BY A ORDER BY A) AS n FROM R;
