-- The 3-way join of the DBToaster papers: SUM(A*D) over R(A,B) ⋈ S(B,C) ⋈ T(C,D).
CREATE STREAM R(A int, B int) FROM FILE 'examples/simple/r.dat' LINE DELIMITED CSV;
CREATE STREAM S(B int, C int) FROM FILE 'examples/simple/s.dat' LINE DELIMITED CSV;
CREATE STREAM T(C int, D int) FROM FILE 'examples/simple/t.dat' LINE DELIMITED CSV;

SELECT SUM(r.A * t.D) AS total
FROM R r, S s, T t
WHERE r.B = s.B AND s.C = t.C;
