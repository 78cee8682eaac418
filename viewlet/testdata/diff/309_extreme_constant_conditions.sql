-- MIN and MAX subqueries whose WHERE holds a constant condition (random
-- query seeds 5262, 5288): generated code reads such an extreme from the
-- ordered index of one map, and dropped a FALSE condition with the TRUE
-- ones — reading the maximum of rows that the condition excludes. FALSE
-- (1 = 0) and TRUE (2 > 1) conditions, ungrouped and correlated, alone and
-- beside a condition on the outer row, in a comparison and a derived table.
-- diff: ints=5 events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT t1.D, t1.C FROM T t1 WHERE (SELECT MAX(t2.C) FROM T t2 WHERE 1 = 0) = t1.C;
SELECT t1.D, COUNT(*) AS n FROM T t1 WHERE (SELECT MIN(t2.C) FROM T t2 WHERE 1 = 0) < t1.C GROUP BY t1.D;
SELECT t1.D, t1.C FROM T t1 WHERE (SELECT MAX(t2.C) FROM T t2 WHERE 2 > 1) = t1.C;
SELECT s.B, COUNT(*) AS n FROM S s WHERE (SELECT MAX(t.D) FROM T t WHERE t.C = s.B AND 1 = 0) = s.C GROUP BY s.B;
SELECT s.B, COUNT(*) AS n FROM S s WHERE (SELECT MAX(t.D) FROM T t WHERE t.C = s.B AND 2 > 1 AND s.C > 1) = s.C GROUP BY s.B;
SELECT SUM(d.x * 2) AS v FROM (SELECT MAX(s.C) AS x FROM S s, T t WHERE s.B = t.C AND 1 = 0) d;
