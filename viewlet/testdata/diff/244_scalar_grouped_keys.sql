-- Grouped scalar subqueries with several GROUP BY columns, each fixed by a
-- WHERE equality to an outer column, an outer expression or a constant
-- (directly or through a join or a derived table inside the subquery), and
-- with HAVING (with and without GROUP BY): no row, NULL, when the group is
-- empty or fails HAVING (issue 9, item 4).
-- diff: ints=4 deletes=0.45 events=600 depth0
CREATE STREAM R(A int, B int, C int);
CREATE STREAM S(A int, B int, V int);
SELECT r.A, COUNT(*) AS n FROM R r WHERE r.C > (SELECT SUM(s.V) FROM S s WHERE s.A = r.A AND s.B = r.B GROUP BY s.A, s.B) GROUP BY r.A;
SELECT r.A, r.B, (SELECT COUNT(*) FROM S s WHERE s.A = r.B + 1 AND s.B = 2 GROUP BY s.B, s.A) AS n FROM R r;
SELECT COUNT(*) AS n FROM R r WHERE r.C <= (SELECT MAX(s.V) FROM S s, R r2 WHERE s.A = r2.A AND r2.A = r.B AND s.B = r2.B AND r2.B = 3 - r.C AND r2.C = 1 GROUP BY s.A, r2.B HAVING COUNT(*) > 1);
SELECT r.A, SUM(r.C) AS v FROM R r WHERE r.B = (SELECT d.k FROM (SELECT s.A AS k, s.B AS j, s.V FROM S s WHERE s.V > 0) d WHERE d.k = r.A AND d.j = r.C GROUP BY d.k, d.j) GROUP BY r.A;
SELECT r.A, COUNT(*) AS n FROM R r WHERE r.C < (SELECT SUM(s.V) FROM S s WHERE s.A = r.A HAVING SUM(s.V) > 2) GROUP BY r.A;
SELECT r.A, (SELECT SUM(s.V) FROM S s WHERE s.A = r.A GROUP BY s.A HAVING MIN(s.B) >= 1) AS v FROM R r GROUP BY r.A;
