-- Three-level nesting: a correlated subquery whose condition uses uncorrelated subqueries.
-- diff: events=400
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
SELECT COUNT(*) AS n FROM R r
WHERE r.A > (SELECT COUNT(*) FROM S s WHERE s.B = r.B AND s.C > (SELECT SUM(r2.B) FROM R r2) / LISTMAX(1, (SELECT COUNT(*) FROM R r3)));
