-- A correlated subquery in CASE in SUM over a join, grouped.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT r.A, SUM(CASE WHEN (SELECT SUM(t.D) FROM T t WHERE t.C = s.C) > 3 THEN s.C ELSE 0 END) AS x
FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
