-- Grouped EXISTS / IN subqueries correlated through a relation that is not
-- joined to the group column: the nested aggregate, materialized as a map
-- keyed by the correlation variable, must keep that variable in its group
-- (issue 8, family N1).
-- diff: ints=5 events=400
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT t.D FROM T t, T t2 WHERE t2.C = s.C GROUP BY t.D);
SELECT s.B, COUNT(*) AS v FROM S s WHERE NOT EXISTS (SELECT t.D FROM T t, T t2 WHERE t2.C = s.C AND t.D > 1 GROUP BY t.D) GROUP BY s.B;
SELECT SUM(s.B) AS v FROM S s WHERE s.B IN (SELECT t.D FROM T t, T t2 WHERE t2.C = s.C GROUP BY t.D);
SELECT s.C, COUNT(*) AS v FROM S s WHERE EXISTS (SELECT t.C FROM T t WHERE t.D = s.B GROUP BY t.C HAVING COUNT(*) > 1) GROUP BY s.C;
