-- COUNT(DISTINCT) per group with an IN filter.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(DISTINCT r.B) AS nb FROM R r WHERE r.B IN (SELECT s.C FROM S s) GROUP BY r.A;
