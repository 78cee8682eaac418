-- Dialect sql: an aggregate that appears only in ORDER BY makes the query
-- an aggregate query, of one row even over no rows (the ORDER BY cannot
-- reorder it); in a grouped query it orders the groups, which a view
-- without LIMIT does not show. Streams whose deletes empty the table.
-- diff: sql ints=3 events=600
CREATE STREAM R(A int, B int NOT NULL);
SELECT 1 AS one FROM R ORDER BY MAX(A);
SELECT 2 AS two FROM R WHERE B > 1 ORDER BY SUM(B) DESC;
SELECT DISTINCT 3 AS three FROM R ORDER BY COUNT(*);
SELECT A FROM R GROUP BY A ORDER BY COUNT(*) DESC;
