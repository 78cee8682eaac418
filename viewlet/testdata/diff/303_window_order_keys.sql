-- Dialect sql: windows ordered by several expressions, lexicographically,
-- each ascending or descending and maybe NULL (first ascending, last
-- descending): RANK, DENSE_RANK, ROW_NUMBER (ties then by the remaining
-- keys), running SUM, COUNT and AVG (peers included) over rows and over
-- groups, with a first key that is a PARTITION BY expression, repeated
-- keys, and a filter on a rank. Each key beyond the first adds one range
-- read of a map grouped by the keys before it.
-- diff: sql ints=3 events=900
CREATE STREAM R(A int, B int NOT NULL, C int);
CREATE STREAM S(A int NOT NULL, D int NOT NULL);
SELECT A, B, C, RANK() OVER (PARTITION BY A ORDER BY B, C DESC) AS rk, DENSE_RANK() OVER (ORDER BY C DESC, B) AS dr FROM R;
SELECT A, B, C, ROW_NUMBER() OVER (ORDER BY C, A DESC) AS n FROM R;
SELECT A, B, C, SUM(B) OVER (PARTITION BY A ORDER BY C, B DESC) AS run, COUNT(*) OVER (ORDER BY B DESC, C) AS k, AVG(C) OVER (ORDER BY A, C) AS m FROM R;
SELECT A, B, RANK() OVER (PARTITION BY A ORDER BY A, B DESC) AS rk, SUM(C) OVER (ORDER BY B, B, A) AS run FROM R;
SELECT A, C, SUM(B), RANK() OVER (ORDER BY C DESC, A) AS rk, SUM(SUM(B)) OVER (ORDER BY A, C DESC) AS run, ROW_NUMBER() OVER (ORDER BY C, A) AS n FROM R GROUP BY A, C;
SELECT A, B, C FROM R QUALIFY DENSE_RANK() OVER (PARTITION BY A ORDER BY B DESC, C) <= 2;
SELECT s.D, r.B, r.C, RANK() OVER (PARTITION BY s.D ORDER BY r.B, r.C) AS rk FROM R r, S s WHERE r.A = s.A;
