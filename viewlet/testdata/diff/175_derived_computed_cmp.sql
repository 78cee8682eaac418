-- Issue 8 family D: computed columns of derived tables compared with
-- inequalities: the condition stays in the statement, where the lifted
-- column is bound.
-- diff: events=500 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM (SELECT s.C + t.C AS x, t.D AS y FROM S s, T t) d WHERE d.x > d.y;
SELECT SUM(d.x) AS v FROM (SELECT s.C * 2 AS x, s.B AS y FROM S s) d, T t WHERE d.x < t.D AND d.y = t.C;
SELECT d.y, COUNT(*) AS v FROM (SELECT s.C + t.C AS x, t.D AS y FROM S s, T t) d, U u WHERE d.x > u.E GROUP BY d.y;
