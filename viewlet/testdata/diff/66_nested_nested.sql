-- A nested aggregate of a nested aggregate.
-- diff: events=500
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT r.A, COUNT(*) FROM R r
WHERE r.B < (SELECT SUM(s.C) FROM S s WHERE s.B = r.A AND s.C > (SELECT COUNT(*) FROM T t WHERE t.C = s.B))
GROUP BY r.A;
