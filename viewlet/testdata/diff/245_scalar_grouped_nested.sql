-- NULL from grouped scalar subqueries through other constructs (issue 9,
-- item 4): a derived table's column (a bag, DISTINCT, grouped), IN / NOT IN
-- / ALL / SOME with a NULL operand or NULL rows, CASE conditions and values,
-- arithmetic, a grouped scalar subquery inside another one's aggregate, and
-- a join on a column that may be NULL (never unified: NULL = x is not TRUE).
-- diff: ints=4 DEPT=6 deletes=0.45 events=500 depth0
CREATE STREAM E(id int, dept int, salary int);
CREATE STREAM D(dept int, budget int);
SELECT d.id, COUNT(*) AS n FROM (SELECT e.id, (SELECT SUM(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) AS b FROM E e) d WHERE d.b > 2 OR NOT (d.b > 4) GROUP BY d.id;
SELECT COUNT(*) AS n, SUM(d.b) AS s FROM (SELECT DISTINCT e.dept, (SELECT MAX(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) AS b FROM E e) d;
SELECT d.dept, d.m FROM (SELECT e.dept, MAX((SELECT SUM(x.budget) FROM D x WHERE x.dept = e.id GROUP BY x.dept)) AS m FROM E e GROUP BY e.dept) d WHERE d.m >= 0;
SELECT e.dept, COUNT(*) AS n FROM E e WHERE e.salary IN (SELECT (SELECT MIN(x.budget) FROM D x WHERE x.dept = e2.id GROUP BY x.dept) FROM E e2 WHERE e2.dept = e.dept) GROUP BY e.dept;
SELECT e.dept, COUNT(*) AS n FROM E e WHERE e.salary NOT IN (SELECT (SELECT MIN(x.budget) FROM D x WHERE x.dept = e2.id GROUP BY x.dept) FROM E e2 WHERE e2.dept = e.dept) GROUP BY e.dept;
SELECT COUNT(*) AS n FROM E e WHERE (SELECT SUM(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) NOT IN (SELECT d.budget FROM D d WHERE d.dept = e.id);
SELECT COUNT(*) AS n FROM E e WHERE e.salary >= ALL (SELECT (SELECT COUNT(*) FROM D x WHERE x.dept = e2.dept AND x.budget > 1 GROUP BY x.dept) FROM E e2 WHERE e2.id = e.id);
SELECT COUNT(*) AS n FROM E e WHERE NOT (e.salary < SOME (SELECT (SELECT COUNT(*) FROM D x WHERE x.dept = e2.dept GROUP BY x.dept) FROM E e2 WHERE e2.id = e.id));
SELECT e.id, SUM(CASE WHEN e.salary > (SELECT SUM(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) THEN 1 WHEN e.salary = 0 THEN (SELECT COUNT(*) FROM D x WHERE x.dept = e.id GROUP BY x.dept) ELSE 10 END) AS v, COUNT(CASE WHEN e.salary = 0 THEN (SELECT COUNT(*) FROM D x WHERE x.dept = e.id GROUP BY x.dept) ELSE 1 END) AS c FROM E e GROUP BY e.id;
SELECT e.id, COUNT(*) AS n FROM E e WHERE e.salary > (SELECT SUM((SELECT MAX(x.budget) FROM D x WHERE x.dept = e2.id GROUP BY x.dept)) FROM E e2 WHERE e2.dept = e.dept GROUP BY e2.dept) GROUP BY e.id;
SELECT e.id, COUNT(*) AS n FROM E e WHERE e.salary - 1 < (SELECT SUM(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) * 2 + (SELECT COUNT(*) FROM D x WHERE x.dept = e.id GROUP BY x.dept) GROUP BY e.id;
SELECT COUNT(*) AS n FROM (SELECT e.id, (SELECT SUM(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) AS b FROM E e) d, E e3 WHERE d.b = e3.salary;
