-- A MIN and a MAX subquery correlated with a key (TPC-H Q2's shape) over many
-- values per key under heavy deletes, so that the extreme a row matches is
-- often deleted and replaced.
-- diff: events=1000 deletes=0.4 R.A=3 S.B=3 R.B=40 S.C=40
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(*) AS n FROM R r WHERE r.B = (SELECT MIN(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A;
SELECT r.A, r.B, COUNT(*) AS n FROM R r WHERE r.B = (SELECT MAX(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A, r.B;
SELECT COUNT(*) AS n FROM S s WHERE s.C = (SELECT MAX(s2.C) FROM S s2);
