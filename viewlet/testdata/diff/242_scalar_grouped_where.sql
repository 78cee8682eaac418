-- Scalar subqueries with GROUP BY whose keys the WHERE fixes to outer
-- columns (issue 9, item 4): at most one row per outer row, none when the
-- group is empty — then the subquery is NULL and a comparison with it is not
-- TRUE (nor is its NOT), unlike an ungrouped aggregate's 0.
-- diff: ints=4 DEPT=6 deletes=0.45 events=600 depth0
CREATE STREAM E(id int, dept int, salary int);
CREATE STREAM D(dept int, budget int);
SELECT e.id, e.salary FROM E e WHERE e.salary > (SELECT AVG(e2.salary) FROM E e2 WHERE e2.dept = e.dept GROUP BY e2.dept);
SELECT e.dept, COUNT(*) AS n FROM E e WHERE e.salary < (SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) GROUP BY e.dept;
SELECT COUNT(*) AS n FROM E e WHERE NOT (e.salary < (SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept));
SELECT SUM(e.salary) AS v FROM E e WHERE e.id = 1 OR e.salary >= (SELECT MAX(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept);
SELECT e.id, COUNT(*) AS n FROM E e WHERE (SELECT COUNT(*) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) = 0 OR NOT (e.dept IN (1, (SELECT MIN(d.budget) FROM D d WHERE d.dept = e.id GROUP BY d.dept))) GROUP BY e.id;
