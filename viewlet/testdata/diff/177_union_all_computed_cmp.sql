-- Issue 8 family D: the UNION ALL form of a derived table whose computed
-- column is compared by inequalities.
-- diff: events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM (SELECT s.B + 1 AS u FROM S s UNION ALL SELECT t.C * 2 AS u FROM T t) d, T t WHERE d.u > t.D;
SELECT COUNT(*) AS v FROM (SELECT s.B + s.C AS x FROM S s UNION ALL SELECT t.C + t.D AS x FROM T t) d, U u WHERE d.x > u.E AND d.x < u.C + 5;
