-- Subqueries combined with LIKE on strings.
-- diff: events=400
CREATE STREAM P(NAME string, K int);
CREATE STREAM Q(K int, V int);
SELECT p.NAME, COUNT(*) AS n FROM P p
WHERE p.NAME LIKE '%a%' AND p.K < (SELECT COUNT(*) FROM Q q WHERE q.K = p.K) GROUP BY p.NAME;
SELECT SUM(q.V) AS s FROM Q q WHERE q.K IN (SELECT p.K FROM P p WHERE p.NAME LIKE 'Customer#00_');
