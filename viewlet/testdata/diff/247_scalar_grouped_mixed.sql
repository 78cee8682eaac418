-- Grouped scalar subqueries (issue 9, item 4) correlated by an inequality
-- besides the fixed group key, as SELECT and HAVING items of a grouped view
-- (MIN/MAX and sums), inside EXISTS and a derived table's WHERE, in CASE
-- conditions, over strings (an empty group reads as ''), and with FLOAT
-- averages.
-- diff: ints=4 DEPT=6 words=4 deletes=0.45 events=500 depth0
CREATE STREAM E(id int, dept int, salary float, name string);
CREATE STREAM D(dept int, budget int, tag string);
SELECT e.dept, (SELECT SUM(d.budget) FROM D d WHERE d.dept = e.dept AND d.budget > e.dept GROUP BY d.dept) AS b, (SELECT MAX(d.tag) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) AS t FROM E e GROUP BY e.dept;
SELECT e.dept, SUM(e.salary) AS s FROM E e GROUP BY e.dept HAVING MIN(e.salary) < (SELECT MIN(d.budget) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) OR COUNT(*) > 3;
SELECT e.id, COUNT(*) AS n FROM E e WHERE EXISTS (SELECT * FROM D d WHERE d.dept = e.id AND d.budget >= (SELECT AVG(e2.salary) FROM E e2 WHERE e2.dept = d.dept GROUP BY e2.dept)) GROUP BY e.id;
SELECT d.dept, SUM(d.budget) AS v FROM D d WHERE CASE WHEN d.budget > (SELECT AVG(e.salary) FROM E e WHERE e.dept = d.dept GROUP BY e.dept) THEN 1 ELSE 0 END = 0 GROUP BY d.dept;
SELECT x.dept, x.n FROM (SELECT d.dept, COUNT(*) AS n FROM D d WHERE d.tag <> (SELECT MIN(e.name) FROM E e WHERE e.dept = d.dept GROUP BY e.dept) GROUP BY d.dept) x;
SELECT e.name, (SELECT MAX(d.tag) FROM D d WHERE d.dept = e.dept GROUP BY d.dept) AS t FROM E e WHERE e.salary > 1;
SELECT e.dept, AVG(e.salary) AS a FROM E e WHERE e.salary <= (SELECT AVG(e2.salary) FROM E e2 WHERE e2.dept = e.dept AND e2.id <> e.id GROUP BY e2.dept) GROUP BY e.dept;
