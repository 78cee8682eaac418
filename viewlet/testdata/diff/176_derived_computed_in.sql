-- Issue 8 family D: a computed derived column in an inequality and in IN, or
-- correlating a subquery by an inequality.
-- diff: events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM (SELECT s.B + 1 AS u FROM S s) d, T t WHERE d.u > t.D AND d.u IN (SELECT s2.B FROM S s2);
SELECT COUNT(*) AS v FROM (SELECT s.B - s.C AS x FROM S s) d WHERE d.x > (SELECT COUNT(*) FROM T t WHERE t.C < d.x);
