-- COUNT(DISTINCT) under a constant condition (issue 8, family V): the
-- condition keeps the distinct groups inside an AggSum under Exists, which
-- must count one per group.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s WHERE 2 > 1 GROUP BY s.C;
SELECT COUNT(DISTINCT s.B) AS v FROM S s WHERE 2 > 1;
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s WHERE 1 > 2 GROUP BY s.C;
SELECT s.C, COUNT(DISTINCT s.B) AS v, SUM(s.B) AS w FROM S s WHERE 2 > 1 AND s.B > 1 GROUP BY s.C;
