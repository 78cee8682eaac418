-- MIN/MAX of int expressions grouped by a year, with LIKE and a date range.
-- diff: events=400
CREATE STREAM E(D date, NAME string, X int, F float);
SELECT EXTRACT(YEAR FROM e.D) AS y, MIN(e.X * 2) AS lo, MAX(e.F + e.X) AS hi FROM E e
WHERE e.NAME LIKE '%o%' AND e.D < DATE('1996-06-01') GROUP BY EXTRACT(YEAR FROM e.D);
