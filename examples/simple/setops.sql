-- INTERSECT ALL, EXCEPT and EXCEPT ALL over two streams with repeated rows.
-- Each side's count per row is a map keyed by the row, and an event
-- re-evaluates the one row it touches from its two counts: O(1) per event,
-- whatever the number of rows (generated/setops benchmarks it).
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/setops_r.dat' LINE DELIMITED CSV;
CREATE STREAM S(A int, B int) FROM FILE 'examples/simple/setops_s.dat' LINE DELIMITED CSV;

SELECT A, B FROM R INTERSECT ALL SELECT A, B FROM S;

SELECT A FROM R EXCEPT SELECT A FROM S;

SELECT A, B FROM R EXCEPT ALL SELECT A, B FROM S;
