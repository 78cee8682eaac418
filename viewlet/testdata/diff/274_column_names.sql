-- Plain SQL (issue 11): select items without an alias or with the same
-- derived name twice are never rejected; the views' names stay unique and
-- the output columns carry SQLite's names (checked by the oracle's column
-- comparison and by cmd/toastgen's columns test).
-- diff: ints=6 events=700 deletes=0.4
CREATE STREAM T(col0 int, col1 int, col2 int);
SELECT 13 FROM T GROUP BY T.col1;
SELECT col0, col0, col0 + 1, col0 + 1, COUNT(*) FROM T GROUP BY col0;
SELECT col1, col1 FROM T;
SELECT SUM(col2) AS col1 FROM T GROUP BY col1;
SELECT col1 + 1, col1 + 1 FROM T WHERE col0 > 1;
SELECT DISTINCT 7, col2 FROM T;
SELECT x.col1, T.col1 FROM T, T AS x WHERE x.col0 = T.col2;
