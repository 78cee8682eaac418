-- MIN and MAX per group, and a MIN subquery correlated with a key (TPC-H Q2's
-- shape). Generated code reads both from an ordered multiset per group:
-- generated/minmax benchmarks the reads against the group's size.
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/minmax_r.dat' LINE DELIMITED CSV;
CREATE STREAM S(B int, C int) FROM FILE 'examples/simple/minmax_s.dat' LINE DELIMITED CSV;

SELECT s.B, MIN(s.C) AS lo, MAX(s.C) AS hi, COUNT(*) AS n FROM S s GROUP BY s.B;

SELECT r.A, COUNT(*) AS n
FROM R r
WHERE r.B = (SELECT MIN(s.C) FROM S s WHERE s.B = r.A)
GROUP BY r.A;
