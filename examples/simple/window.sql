-- Window aggregates: every row of R with its partition's total, average and
-- greatest B (the partition: the rows with its A) and the number of rows of
-- R. Each window is a map keyed by the partition (keyless for OVER ()), so
-- that an event updates one entry per window, O(1) (MAX: O(log n) in the
-- partition's ordered index), and a row reads its windows when it is read:
-- a change of a partition's total changes the value of all its rows without
-- touching them. RUNNING, the sum of B over the rows of the partition up to
-- the row's B, and PLACE, the row's rank by B descending, are read from a
-- range-sum index of the partition's sums by B, O(log n) per event and per
-- read (generated/window benchmarks it from 100 to a million rows in one
-- partition).
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;

SELECT A, B, SUM(B) OVER (PARTITION BY A) AS TOTAL, AVG(B) OVER (PARTITION BY A) AS MEAN,
       MAX(B) OVER (PARTITION BY A) AS TOP, COUNT(*) OVER () AS ROWS_IN_R,
       SUM(B) OVER (PARTITION BY A ORDER BY B) AS RUNNING, RANK() OVER (PARTITION BY A ORDER BY B DESC) AS PLACE
FROM R;
