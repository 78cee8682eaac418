-- HAVING with AVG compared to an uncorrelated AVG subquery.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, AVG(r.B) AS av FROM R r GROUP BY r.A HAVING AVG(r.B) >= (SELECT AVG(s.C) FROM S s);
