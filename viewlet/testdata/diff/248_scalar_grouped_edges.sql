-- Grouped scalar subqueries (issue 9, item 4) in a view without FROM, in a
-- JOIN's ON, inside another one's WHERE, as the operand of IN, and under
-- MAX in SELECT and HAVING (MAX over no non-NULL value is NULL); a group key
-- fixed by a derived column that may be NULL (then the group is empty).
-- diff: ints=4 deletes=0.45 events=500 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT (SELECT SUM(t.D) FROM T t WHERE t.C = 1 GROUP BY t.C) AS v;
SELECT COUNT(*) AS n FROM S s JOIN T t ON t.C = s.C AND t.D < (SELECT SUM(u.D) FROM T u WHERE u.C = s.B GROUP BY u.C);
SELECT s.B, COUNT(*) AS n FROM S s WHERE s.C < (SELECT SUM(t.D) FROM T t WHERE t.C = s.B AND t.D > (SELECT MIN(u.D) FROM T u WHERE u.C = t.C GROUP BY u.C) GROUP BY t.C) GROUP BY s.B;
SELECT s.B, COUNT(*) AS n FROM S s WHERE (SELECT SUM(t.D) FROM T t WHERE t.C = s.B GROUP BY t.C) NOT IN (SELECT u.D FROM T u WHERE u.C = s.C) GROUP BY s.B;
SELECT s.B, MAX((SELECT SUM(t.D) FROM T t WHERE t.C = s.C GROUP BY t.C)) AS m FROM S s GROUP BY s.B HAVING NOT (MAX((SELECT SUM(t.D) FROM T t WHERE t.C = s.C GROUP BY t.C)) > 3);
SELECT d.b, COUNT(*) AS n FROM (SELECT s.B AS b, (SELECT MIN(t.D) FROM T t WHERE t.C = s.C GROUP BY t.C) AS m FROM S s) d WHERE d.b <= (SELECT COUNT(*) FROM T u WHERE u.C = d.m GROUP BY u.C) GROUP BY d.b;
SELECT d.b, (SELECT u.C + COUNT(*) FROM T u WHERE u.C = d.m GROUP BY u.C) AS v FROM (SELECT s.B AS b, (SELECT MIN(t.D) FROM T t WHERE t.C = s.C GROUP BY t.C) AS m FROM S s) d;
