-- Subqueries over floats.
-- diff: events=400
CREATE STREAM R(A int, F float);
CREATE STREAM S(A int, G float);
SELECT r.A, SUM(r.F * 2.5) AS s FROM R r WHERE r.F > (SELECT SUM(s.G) * 0.1 FROM S s WHERE s.A = r.A) GROUP BY r.A;
SELECT SUM(r.F) / LISTMAX(1, COUNT(*)) AS m FROM R r WHERE r.F < (SELECT AVG(s.G) FROM S s);
