-- A grouped derived table whose columns are compared with each other
-- (d1.x2 = d1.x1 unifies the aggregate's lifted variable with the group
-- column): the lift tests the variable, so the factor that binds it must be
-- evaluated first, also in the statements of events that do not bind it
-- (issue 8, family N2).
-- diff: ints=5
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM (SELECT s2.B AS x1, SUM(s2.B) AS x2 FROM S s2 WHERE s2.C IN (SELECT t.C FROM T t) GROUP BY s2.B) d1 WHERE d1.x2 = d1.x1;
SELECT COUNT(*) AS v FROM (SELECT s2.B AS x1, SUM(s2.C) AS x2 FROM S s2 WHERE s2.C IN (SELECT t.C FROM T t GROUP BY t.C) GROUP BY s2.B) d1 WHERE d1.x2 = d1.x1 AND EXISTS (SELECT * FROM T t3 WHERE t3.C = d1.x1);
SELECT COUNT(*) AS v2 FROM (SELECT s2.B AS x1, SUM(s2.B) AS x2 FROM S s2 WHERE s2.C IN (SELECT r3.B FROM R r3, R r4 WHERE r4.A = r3.A GROUP BY r3.B) GROUP BY s2.B) d1 WHERE d1.x2 = d1.x1 AND EXISTS (SELECT * FROM R r5 WHERE r5.A = d1.x1 AND r5.A = r5.B);
SELECT d1.x1, COUNT(*) AS v FROM (SELECT s2.B AS x1, COUNT(*) AS x2 FROM S s2, T t WHERE s2.C = t.C GROUP BY s2.B) d1 WHERE d1.x2 = d1.x1 GROUP BY d1.x1;
