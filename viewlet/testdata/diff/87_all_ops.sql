-- ALL with each comparison operator.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT COUNT(*) AS c1 FROM R r WHERE r.A = ALL (SELECT s.C FROM S s WHERE s.B = r.B);
SELECT COUNT(*) AS c2 FROM R r WHERE r.A <> ALL (SELECT s.C FROM S s WHERE s.B = r.B);
SELECT COUNT(*) AS c3 FROM R r WHERE r.A < ALL (SELECT s.C FROM S s);
SELECT COUNT(*) AS c4 FROM R r WHERE r.A <= ALL (SELECT s.C FROM S s WHERE s.B = r.B);
SELECT COUNT(*) AS c5 FROM R r WHERE r.A > ALL (SELECT s.C FROM S s WHERE s.B = r.B);
SELECT COUNT(*) AS c6 FROM R r WHERE r.A >= ALL (SELECT s.C FROM S s WHERE s.B = r.B);
