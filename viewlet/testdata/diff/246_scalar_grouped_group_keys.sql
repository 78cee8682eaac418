-- GROUP BY a value that may be NULL (a grouped scalar subquery over an
-- empty group; issue 9, item 4): in a derived table NULL is a group of its
-- own, apart from 0; a view key that is NULL reads as 0, one row with the
-- zero key (the oracle's COALESCE). COUNT(DISTINCT …) skips NULL. A subquery
-- as a derived table's group key is read as that key in the select list, not
-- lifted again (outside the group).
-- diff: ints=4 DEPT=6 deletes=0.45 events=500 depth0
CREATE STREAM E(id int, dept int, salary int);
CREATE STREAM D(dept int, budget int);
SELECT (SELECT COUNT(*) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) AS k, COUNT(*) AS n, SUM(e.salary) AS s FROM E e GROUP BY k;
SELECT g.k, g.n FROM (SELECT (SELECT COUNT(*) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) AS k, COUNT(*) AS n FROM E e GROUP BY k) g;
SELECT COUNT(*) AS groups, SUM(g.n) AS rows_, COUNT(g.k) AS keyed FROM (SELECT (SELECT MIN(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept) AS k, COUNT(*) AS n FROM E e GROUP BY k) g;
SELECT e.salary, COUNT(DISTINCT (SELECT MAX(x.budget) FROM D x WHERE x.dept = e.dept GROUP BY x.dept)) AS c FROM E e GROUP BY e.salary;
SELECT COUNT(*) AS n FROM E e WHERE e.salary > (SELECT COUNT(DISTINCT (SELECT MAX(x.budget) FROM D x WHERE x.dept = e2.id GROUP BY x.dept)) FROM E e2 WHERE e2.dept = e.dept GROUP BY e2.dept);
SELECT g.k, g.n FROM (SELECT (SELECT COUNT(*) FROM D x WHERE x.dept = e.dept) AS k, COUNT(*) AS n FROM E e GROUP BY k) g;
