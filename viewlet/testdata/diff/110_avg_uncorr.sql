-- AVG in an uncorrelated subquery, and in two nesting levels.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT SUM(r.A) AS s FROM R r WHERE r.B < (SELECT AVG(s.C) FROM S s);
SELECT COUNT(*) AS n FROM R r WHERE r.A > (SELECT AVG(s.C) FROM S s WHERE s.B > (SELECT AVG(r2.B) FROM R r2));
