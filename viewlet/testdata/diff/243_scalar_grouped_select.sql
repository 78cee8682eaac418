-- Grouped scalar subqueries in SELECT items and HAVING (issue 9, item 4):
-- a value column that SQL makes NULL (an empty group) reads as 0; a key of
-- a query without aggregates likewise (the oracle's COALESCE); HAVING
-- compares NULL as WHERE does.
-- diff: ints=4 DEPT=6 deletes=0.45 events=600 depth0
CREATE STREAM E(id int, dept int, salary int);
CREATE STREAM D(dept int, budget int);
SELECT e.dept, SUM(e.salary) AS s, (SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) AS b FROM E e GROUP BY e.dept;
SELECT e.dept, COUNT(*) AS n FROM E e GROUP BY e.dept HAVING SUM(e.salary) > (SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept);
SELECT e.dept, COUNT(*) AS n FROM E e GROUP BY e.dept HAVING NOT (COUNT(*) <= (SELECT COUNT(*) FROM D d WHERE d.dept = e.dept GROUP BY d.dept));
SELECT e.id, (SELECT MAX(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) AS b FROM E e;
SELECT e.id, (SELECT AVG(d.budget) + 1 FROM D d WHERE d.dept = e.dept GROUP BY d.dept) AS b FROM E e WHERE e.salary > 1;
SELECT COUNT(*) AS n, SUM((SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept)) AS b, COUNT((SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept)) AS c FROM E e;
SELECT e.dept, AVG((SELECT SUM(d.budget) FROM D d WHERE d.dept = e.id GROUP BY d.dept)) AS a, MIN((SELECT SUM(d.budget) FROM D d WHERE d.dept = e.id GROUP BY d.dept)) AS m FROM E e GROUP BY e.dept HAVING SUM((SELECT SUM(d.budget) FROM D d WHERE d.dept = e.id GROUP BY d.dept)) < 4;
