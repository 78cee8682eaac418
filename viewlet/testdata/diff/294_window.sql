-- Dialect sql: window aggregates SUM, COUNT, AVG, MIN and MAX OVER
-- (PARTITION BY …) and OVER (), over one table and a join, partitioned by
-- selected and unselected columns and by an expression, with NULL
-- partitions (one partition) and NULL arguments, in expressions of the
-- row (a share of the partition), beside an ORDER BY … LIMIT. Each row
-- keeps its window values; streams delete a partition's last row and its
-- MIN. The oracle lets SQLite compute the windows.
-- diff: sql ints=4 events=900
CREATE STREAM R(A int, B int, C float);
CREATE STREAM S(A int, D int);
SELECT A, B, SUM(B) OVER (PARTITION BY A) AS s, COUNT(*) OVER () AS n, MAX(C) OVER (PARTITION BY A, B) FROM R;
SELECT B, B * 1.0 / SUM(B) OVER (PARTITION BY A) AS share, COUNT(C) OVER (PARTITION BY A) FROM R;
SELECT C, MIN(B) OVER (PARTITION BY A + B) AS lo, AVG(C) OVER (PARTITION BY A + B) FROM R;
SELECT r.A, s.D, SUM(s.D) OVER (PARTITION BY r.A) AS t, COUNT(*) OVER (PARTITION BY s.D) FROM R r, S s WHERE r.B = s.A;
SELECT A, B, SUM(B) OVER (PARTITION BY A) AS s FROM R ORDER BY s DESC, A LIMIT 3;
SELECT A, MAX(B) OVER () AS m FROM R WHERE C > 0.3;
