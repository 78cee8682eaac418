-- MIN inside a correlated scalar subquery (x = (SELECT MIN ... WHERE corr)).
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, SUM(r.B) AS s FROM R r WHERE r.B = (SELECT MIN(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A;
