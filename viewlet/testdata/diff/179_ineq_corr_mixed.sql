-- Issue 8 family I: inequality correlations through UNION, HAVING of a
-- grouped IN or EXISTS, derived tables (grouped, computed) and several
-- subqueries of one query.
-- diff: events=400
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
CREATE STREAM U(C int, E int);
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t WHERE t.D > s.B UNION ALL SELECT u.C FROM U u WHERE u.E < s.B);
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t WHERE t.D > s.B UNION SELECT u.C FROM U u WHERE u.E < s.B);
SELECT s.C, (SELECT COUNT(*) FROM (SELECT t.C AS c FROM T t UNION ALL SELECT u.C AS c FROM U u) x WHERE x.c < s.C) AS v FROM S s GROUP BY s.C;
SELECT COUNT(*) AS v FROM S s WHERE s.B < (SELECT COUNT(*) FROM (SELECT t.C AS c, SUM(t.D) AS m FROM T t GROUP BY t.C) x WHERE x.m > s.C);
SELECT COUNT(*) AS v FROM S s WHERE s.C IN (SELECT t.C FROM T t WHERE t.D > s.B GROUP BY t.C HAVING COUNT(*) > s.C);
SELECT s.C, COUNT(*) AS n FROM S s WHERE s.B IN (SELECT t.C FROM T t WHERE t.D < s.C GROUP BY t.C) GROUP BY s.C HAVING COUNT(*) > (SELECT COUNT(*) FROM U u WHERE u.E > s.C);
SELECT COUNT(*) AS v FROM (SELECT s.B AS b, COUNT(*) AS n FROM S s GROUP BY s.B) d WHERE d.n > (SELECT COUNT(*) FROM T t WHERE t.C < d.b);
SELECT COUNT(*) AS v FROM (SELECT s.B + 1 AS x FROM S s) d WHERE EXISTS (SELECT t.C FROM T t WHERE t.D < d.x GROUP BY t.C);
