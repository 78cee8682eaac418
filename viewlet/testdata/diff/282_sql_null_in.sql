-- Dialect sql: IN, NOT IN, SOME and ALL subqueries over values that may be
-- NULL, three-valued: a subquery row is TRUE, FALSE or UNKNOWN for the test,
-- and the rows where it is TRUE and those where it is not FALSE are counted
-- apart (NOT IN over a subquery holding a NULL is never TRUE; over an empty
-- one always), in WHERE, as values, under NOT, correlated.
-- diff: sql ints=4 depth0 events=1000
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT r.A, COUNT(*) FROM R r WHERE r.B IN (SELECT s.C FROM S s) GROUP BY r.A;
SELECT r.A, COUNT(*) FROM R r WHERE r.B NOT IN (SELECT s.C FROM S s) GROUP BY r.A;
SELECT COUNT(*) FROM R r WHERE NOT (r.B IN (SELECT s.C FROM S s WHERE s.B = r.A));
SELECT r.A, r.B IN (SELECT s.C FROM S s), COUNT(*) FROM R r GROUP BY r.A, r.B IN (SELECT s.C FROM S s);
SELECT COUNT(*) FROM R r WHERE r.B > ALL (SELECT s.C FROM S s WHERE s.B = r.A);
SELECT COUNT(*) FROM R r WHERE r.B <= SOME (SELECT s.C FROM S s);
SELECT COUNT(*) FROM R r WHERE NOT (r.A < ALL (SELECT s.B FROM S s));
