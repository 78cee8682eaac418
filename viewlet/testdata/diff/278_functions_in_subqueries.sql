-- Plain SQL (issue 11): the shared scalar functions and DISTINCT
-- aggregates inside subqueries, derived tables and HAVING.
-- diff: ints=6 words=16 events=1000
CREATE STREAM R(A int, B float, S varchar(30));
CREATE STREAM T(A int, N varchar(30));
SELECT r.A, COUNT(*) FROM R r WHERE LENGTH(r.S) > (SELECT COUNT(DISTINCT LENGTH(t.N)) FROM T t WHERE t.A = r.A) GROUP BY r.A;
SELECT d.u, d.total FROM (SELECT UPPER(t.N) AS u, SUM(DISTINCT t.A) AS total FROM T t GROUP BY UPPER(t.N)) d WHERE d.total > 2;
SELECT t.N, ROUND(AVG(DISTINCT t.A), 2) FROM T t GROUP BY t.N HAVING ROUND(SUM(t.A) * 0.5) > 1;
SELECT r.S || '#' || r.A, COUNT(*) FROM R r WHERE EXISTS (SELECT * FROM T t WHERE LOWER(t.N) = LOWER(r.S) AND ABS(t.A - r.A) < 2) GROUP BY r.S || '#' || r.A;
