-- SELECT * and alias.*: multiset views of whole tuples, over a join, a
-- NATURAL JOIN (the shared column once), in EXISTS and in a derived table.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT * FROM R;
SELECT * FROM R, S WHERE R.B = S.B;
SELECT * FROM R NATURAL JOIN S;
SELECT R.*, S.C FROM R, S WHERE R.B = S.B AND S.C > 2;
SELECT A, COUNT(*) FROM R WHERE EXISTS (SELECT * FROM S WHERE S.B = R.B) GROUP BY A;
SELECT r2.A, SUM(r2.C) FROM (SELECT * FROM R NATURAL JOIN S) r2 GROUP BY r2.A;
SELECT COUNT(*) FROM R WHERE NOT EXISTS (SELECT * FROM S WHERE S.B < R.B);
