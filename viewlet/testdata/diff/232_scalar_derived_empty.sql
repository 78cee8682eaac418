-- An aggregate without GROUP BY has one row over empty input too: scalar
-- derived tables and IN / NOT IN / EXISTS subqueries over ungrouped
-- aggregates, while their input empties and fills (high delete rate).
-- diff: ints=3 deletes=0.45 events=600
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM (SELECT SUM(t.D) AS x FROM T t) d;
SELECT COUNT(*) AS v FROM (SELECT MIN(t.C) AS x FROM T t WHERE t.D > 1) d WHERE d.x NOT IN (SELECT s.B FROM S s WHERE s.C = d.x);
SELECT s.B, COUNT(*) AS v FROM S s WHERE s.C IN (SELECT MAX(t.D) FROM T t WHERE t.C = s.B) GROUP BY s.B;
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT COUNT(*) FROM T t WHERE t.C = s.B);
SELECT d.n, COUNT(*) AS v FROM (SELECT COUNT(*) AS n FROM T t WHERE t.D = 2) d, S s WHERE s.B >= d.n GROUP BY d.n;
