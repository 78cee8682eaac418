-- Dialect sql: views keyed by constant expressions, whose initial entries are
-- computed when the program is compiled — by the program's rules (3 / 2 is 1
-- in INT / INT, x / 0 and x % 0 are NULL), as every later entry is.
-- diff: sql ints=4 depth0 events=600
CREATE STREAM T(A int NOT NULL, B int);
SELECT NULLIF(3, 0) / 2, 7 % 3, -7 / 2 FROM T t WHERE t.A BETWEEN 1 AND 2;
SELECT 3 / 2 AS h, 5 / 0 AS z, COUNT(*), SUM(t.B) FROM T t GROUP BY 3 / 2, 5 / 0;
SELECT (- NULL) % (0 % 0), 9 / 4 * 2 FROM T t;
