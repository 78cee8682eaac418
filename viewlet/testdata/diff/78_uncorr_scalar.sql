-- Uncorrelated scalar subqueries: compared to a column and to an expression.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT COUNT(*) AS n FROM R r WHERE r.A * 3 > (SELECT SUM(s.C) FROM S s) / LISTMAX(1, (SELECT COUNT(*) FROM S s2));
SELECT r.B, SUM(r.A) AS s FROM R r WHERE r.B = (SELECT MAX(s.B) FROM S s) GROUP BY r.B;
