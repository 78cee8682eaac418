-- HAVING with AVG and COUNT.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) AS s, AVG(r.B) AS av FROM R r GROUP BY r.A HAVING AVG(r.B) > 2 AND COUNT(*) >= 2;
