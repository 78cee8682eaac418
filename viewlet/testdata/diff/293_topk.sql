-- Dialect sql: ORDER BY … LIMIT k [OFFSET m] views (top-K) over grouped
-- and plain queries, ordered by columns and by aggregates, ascending and
-- descending, with NULLs (first ascending, last descending) and ties
-- (broken by the other columns, ascending); a bag view whose boundary row
-- has several copies; DISTINCT; a scalar view with LIMIT 0 and OFFSET 1;
-- HAVING; an uncorrelated subquery in SELECT; ORDER BY without LIMIT (the
-- rows come in order); compound queries ordered and limited after their
-- last arm (a bag compound by rows). Streams delete rows of the current top K.
-- diff: sql ints=5 events=900
CREATE STREAM R(A int, B int, C float);
CREATE STREAM S(A int, D int);
SELECT A, SUM(B) AS total, COUNT(*) FROM R GROUP BY A ORDER BY total DESC LIMIT 3;
SELECT A, B FROM R ORDER BY B, A DESC LIMIT 4 OFFSET 2;
SELECT DISTINCT B FROM R ORDER BY B DESC LIMIT 2;
SELECT A, MAX(C), MIN(B) FROM R GROUP BY A ORDER BY 2 LIMIT 2 OFFSET 1;
SELECT A, AVG(B) FROM R GROUP BY A HAVING COUNT(*) > 1 ORDER BY AVG(B) DESC, A LIMIT 2;
SELECT COUNT(*) FROM R LIMIT 0;
SELECT SUM(B) FROM R ORDER BY 1 LIMIT 5 OFFSET 1;
SELECT r.A, SUM(r.B) AS s, (SELECT COUNT(*) FROM S) AS n FROM R r GROUP BY r.A ORDER BY s LIMIT 2;
SELECT A, COUNT(*) AS n FROM R GROUP BY A ORDER BY n DESC;
SELECT r.A, s.D FROM R r, S s WHERE r.A = s.A ORDER BY s.D DESC, r.A LIMIT 3;
SELECT A, B FROM R UNION SELECT A, D FROM S ORDER BY 2 DESC, A LIMIT 3;
SELECT A FROM R UNION ALL SELECT A FROM S ORDER BY A LIMIT 4 OFFSET 1;
SELECT A FROM R INTERSECT ALL SELECT A FROM S ORDER BY 1 DESC LIMIT 2;
SELECT B FROM R EXCEPT SELECT D FROM S ORDER BY B;
