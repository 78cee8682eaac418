-- IN and NOT EXISTS in one WHERE, over a join.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT r.A, COUNT(*) AS n FROM R r, S s WHERE r.B = s.B
  AND s.C IN (SELECT t.C FROM T t WHERE t.D > 1)
  AND NOT EXISTS (SELECT 1 FROM T t2 WHERE t2.C = r.A AND t2.D < s.C)
GROUP BY r.A;
