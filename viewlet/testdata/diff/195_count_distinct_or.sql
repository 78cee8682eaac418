-- COUNT(DISTINCT) under a disjunction with a constant side: the groups under
-- Exists come from a sum of several terms (no single map lists them).
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s WHERE s.B > 2 OR 1 > 2 GROUP BY s.C;
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s, T t WHERE s.B = t.C OR 2 > 1 GROUP BY s.C;
SELECT COUNT(DISTINCT s.B) AS v FROM S s, T t WHERE s.B = t.C OR t.D > 2;
