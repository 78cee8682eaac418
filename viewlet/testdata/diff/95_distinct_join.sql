-- SELECT DISTINCT over a join.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT DISTINCT r.A, s.C FROM R r, S s WHERE r.B = s.B;
SELECT DISTINCT r.A FROM R r, S s WHERE r.B < s.B AND s.C = 2;
