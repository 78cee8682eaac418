-- A derived table over a derived table of computed columns, joined on a
-- computed column (random query seed 123556): a map of the join lists a
-- lift of the computed column before the relation that binds its inputs,
-- and Compile, evaluating every map over empty relations for its initial
-- value, read the unbound input ("not supported yet"). Monomials that read
-- a relation at their top level are 0 there and are no longer evaluated.
-- diff: ints=5 events=500
CREATE STREAM T(C int, D int);
SELECT t1.D, SUM(t1.D) AS v2 FROM T t1, (SELECT d3.x1 AS x1, d3.x1 AS x2 FROM (SELECT t4.C + t4.D AS x1 FROM T t4) d3) d2 WHERE d2.x1 = t1.C AND d2.x2 = 1 GROUP BY t1.D;
SELECT t1.D, t1.C, SUM(t1.D) AS v2 FROM T t1, (SELECT d3.x1 AS x1, d3.x1 + d3.x1 AS x2 FROM (SELECT t4.C + t4.D AS x1 FROM T t4 WHERE t4.C > 0 AND t4.D <> 1) d3 WHERE d3.x1 >= 0) d2 WHERE d2.x1 = t1.C AND d2.x1 + d2.x2 = d2.x2 GROUP BY t1.D, t1.C;
SELECT DISTINCT t1.D, t1.C, COUNT(DISTINCT t1.D) AS v1, SUM(t1.D) AS v2, COUNT(*) AS v3 FROM T t1, (SELECT d3.x1 AS x1, d3.x1 + d3.x1 AS x2 FROM (SELECT t4.C + t4.D AS x1 FROM T t4 WHERE t4.C > 0 AND t4.D <> 1) d3 WHERE d3.x1 >= 0 AND 2 > 1) d2 WHERE d2.x1 = t1.C AND d2.x1 + d2.x2 = d2.x2 AND t1.D NOT IN (SELECT t5.C FROM T t5 WHERE (t5.D < 2 OR t5.D = t5.D)) GROUP BY t1.D, t1.C HAVING MIN(t1.D) < 0;
