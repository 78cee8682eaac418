-- Dialect sql: filters on window values, written as a WHERE over a derived
-- table with windows or as QUALIFY: per-partition top-K by RANK,
-- DENSE_RANK and ROW_NUMBER (bounds on a ROW_NUMBER keep some copies of a
-- bag's row), filters on window aggregates (a row above its partition's
-- average), the outer query dropping and reordering columns, with ORDER BY
-- and LIMIT, and over groups; a dropped column that the windows or the
-- filter read stays an unselected key. Streams delete the current top rows.
-- diff: sql ints=4 events=900
CREATE STREAM R(A int, B int NOT NULL, C int);
CREATE STREAM S(A int NOT NULL, D int NOT NULL);
SELECT * FROM (SELECT A, B, RANK() OVER (PARTITION BY A ORDER BY B DESC) AS rk FROM R) AS t WHERE t.rk <= 2;
SELECT B, A FROM (SELECT A, B, DENSE_RANK() OVER (PARTITION BY A ORDER BY B) AS dr FROM R) AS t WHERE dr = 2 OR dr = 3;
SELECT A, B, C, n FROM (SELECT A, B, C, ROW_NUMBER() OVER (PARTITION BY A ORDER BY B DESC) AS n FROM R) AS t WHERE n <= 2;
SELECT A, B, C FROM (SELECT A, B, C, ROW_NUMBER() OVER (ORDER BY C) AS n FROM R) AS t WHERE n BETWEEN 2 AND 4 AND B > 0;
SELECT A, B FROM (SELECT A, B, AVG(B) OVER (PARTITION BY A) AS m FROM R) AS t WHERE B > m;
SELECT A, B, C, ROW_NUMBER() OVER (PARTITION BY C ORDER BY A) AS n FROM R QUALIFY n > 1 AND 3 >= n;
SELECT A, B, COUNT(*) OVER (PARTITION BY A) AS k FROM R QUALIFY k >= 2 ORDER BY k DESC, A, B LIMIT 3;
SELECT * FROM (SELECT s.D, r.B, RANK() OVER (PARTITION BY s.D ORDER BY r.B) AS rk FROM R r, S s WHERE r.A = s.A) AS t WHERE rk = 1;
SELECT A, s FROM (SELECT A, SUM(B) AS s, RANK() OVER (ORDER BY A DESC) AS rk FROM R GROUP BY A) AS t WHERE rk <= 2;
SELECT A, C, COUNT(*) AS k, ROW_NUMBER() OVER (PARTITION BY C ORDER BY A) AS n FROM R GROUP BY A, C QUALIFY n = 1;
SELECT A, n FROM (SELECT A, B, ROW_NUMBER() OVER (ORDER BY A) AS n FROM R) AS t WHERE n < 3;
SELECT A FROM (SELECT A, C, RANK() OVER (PARTITION BY A ORDER BY B) AS rk FROM R) AS t WHERE C > 1 AND rk < 3;
SELECT A, B FROM R QUALIFY RANK() OVER (PARTITION BY A ORDER BY B DESC) <= 2;
