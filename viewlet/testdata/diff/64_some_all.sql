-- Quantified comparisons.
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT COUNT(*) AS c1 FROM R r WHERE r.A > ALL (SELECT s.C FROM S s WHERE s.B = r.B);
SELECT SUM(r.B) AS c2 FROM R r WHERE r.A < SOME (SELECT s.C FROM S s);
