-- Dialect sql: HAVING tests whether a GROUP BY key, a column or an
-- expression that may be NULL, IS [NOT] NULL (its presence flag), beside
-- aggregates; a NOT NULL key's test is constant.
-- diff: sql ints=4 events=700
CREATE STREAM R(A int, B int, C int NOT NULL);
SELECT COUNT(*), (A + B) FROM R GROUP BY (A + B) HAVING MAX(C) <= 3 AND (A + B) IS NOT NULL;
SELECT A, SUM(C) FROM R GROUP BY A HAVING A IS NULL OR SUM(C) > 2;
SELECT C, COUNT(B) FROM R GROUP BY C HAVING C IS NOT NULL AND COUNT(*) > 1;
SELECT B * 2, MIN(C) FROM R GROUP BY B * 2 HAVING B * 2 IS NULL;
