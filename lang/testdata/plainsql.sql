-- dialect sql
-- Plain SQL in dialect sql: SUBSTR and SUBSTRING counting from 1, SQLite's
-- CAST, conditions used as values.
CREATE STREAM r (a INT NOT NULL, b FLOAT NOT NULL, s VARCHAR(10) NOT NULL, d DATE NOT NULL, n INT);

SELECT SUBSTR(s, 2), SUBSTR(s, -2, 1), SUBSTRING(s, 0, 3), SUBSTR(a, 1, 1)
FROM r;

SELECT CAST(b AS INTEGER), CAST(s AS INT), CAST(s AS REAL), CAST(a AS DOUBLE), CAST(b AS TEXT),
       CAST(a AS VARCHAR(3)), CAST(d AS CHAR(10)), CAST(s AS DATE), CAST(b AS DECIMAL(10, 2)),
       CAST(a AS FLOAT), CAST(s AS TEXT), CAST(NULL AS INT)
FROM r;

SELECT a = 1, SUM(b > 1), CASE WHEN a > 0 THEN 1 END = (b < 2), n > 0, -(a < 1)
FROM r GROUP BY a, n, b;
