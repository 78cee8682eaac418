-- COUNT(DISTINCT) over a cross product with a relation it does not mention
-- (issue 8, family V): an event of T re-evaluates every group.
-- diff: events=300 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s, T t GROUP BY s.C;
SELECT COUNT(DISTINCT s.B) AS v FROM S s, T t;
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s, T t WHERE t.D > 1 GROUP BY s.C;
