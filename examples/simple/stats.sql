-- Statistical aggregates kept fresh: per A, the sample and population
-- variance and the standard deviation of B (INT: exact, from its sums kept
-- in 32-bit limbs, rounded once when read), and of B / 4.0 (FLOAT:
-- compensated sums). Each is a count, a sum and a sum of squares per
-- group, O(1) per event (generated/stats benchmarks it with 100 to a
-- million groups).
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;

-- name: Spread
SELECT A, VAR_SAMP(B) AS VARIANCE, VAR_POP(B) AS VARIANCE_POP, STDDEV(B) AS DEVIATION,
       STDDEV(B / 4.0) AS QUARTER_DEVIATION, COUNT(*) AS N
FROM R GROUP BY A;
