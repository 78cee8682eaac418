-- Rankings kept fresh: Leaders ranks every A by its total of B (a
-- leaderboard: RANK over the groups ordered by their SUM), and Top2 keeps
-- the two rows with the greatest B of each A (ROW_NUMBER in a derived
-- table, filtered: a per-partition top-K; ties are numbered by the rows'
-- other columns). Leaders counts the groups by their total in a range-sum
-- index: an event moves its group's entry from the old total to the new,
-- O(log n), and a row's place is the count of the greater totals, O(log n)
-- when read. Top2 numbers a row by range reads of its partition's counts
-- by B, O(log n) per event and per read; the filter applies when the view
-- is read. generated/leaderboard benchmarks both with 100 to a million
-- groups or rows.
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;

-- name: Leaders
SELECT A, SUM(B) AS TOTAL, RANK() OVER (ORDER BY SUM(B) DESC) AS PLACE FROM R GROUP BY A;

-- name: Top2
SELECT A, B, N FROM (SELECT A, B, ROW_NUMBER() OVER (PARTITION BY A ORDER BY B DESC) AS N FROM R) AS T WHERE N <= 2;
