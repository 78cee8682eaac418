-- Top-K views. The five groups of R with the greatest total B (ties: the
-- least A first), and the rows of R at positions 3 to 6 by B descending (a
-- bag: a row inserted twice is two rows of the order). Each view keeps its
-- rows in a sorted set in its order, which an event updates in O(log n) for
-- the row it changes, and the LIMIT's rows are read in O(log n + k)
-- (generated/topk benchmarks it from 100 to a million groups).
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;

SELECT A, SUM(B) AS TOTAL, COUNT(*) AS N FROM R GROUP BY A ORDER BY TOTAL DESC LIMIT 5;

SELECT A, B FROM R ORDER BY B DESC LIMIT 4 OFFSET 2;
