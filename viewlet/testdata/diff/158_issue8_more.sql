-- More shapes of issue 8, IV, X and U: MIN/MAX derived tables read by outer
-- aggregates and comparisons, DISTINCT grouped rows as a UNION branch and
-- with HAVING or EXISTS, mixed UNION chains in EXISTS and in FROM.
-- diff: ints=5 events=400
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM (SELECT s.B AS b, MAX(d.m) AS x, MIN(d.m) AS y FROM S s, (SELECT t.C AS c, MAX(t.D) AS m FROM T t GROUP BY t.C) d WHERE s.C = d.c GROUP BY s.B) d1 WHERE d1.x > d1.y;
SELECT d1.b, SUM(d1.x) AS v FROM (SELECT s.B AS b, s.C AS c, MIN(s.C) AS x FROM S s GROUP BY s.B, s.C) d1, (SELECT t.C AS c, MAX(t.D) AS m FROM T t GROUP BY t.C) d2 WHERE d1.c = d2.c GROUP BY d1.b;
SELECT COUNT(*) AS v FROM S s WHERE s.B = (SELECT MAX(d.m) FROM (SELECT t.C AS c, MIN(t.D) AS m FROM T t GROUP BY t.C) d);
SELECT DISTINCT SUM(s.B) AS v FROM S s GROUP BY s.C UNION SELECT t.D FROM T t;
SELECT DISTINCT MIN(s.B) AS lo, MAX(s.B) AS hi FROM S s GROUP BY s.C HAVING COUNT(*) >= 2;
SELECT DISTINCT s.C, SUM(s.B) AS v FROM S s WHERE EXISTS (SELECT * FROM T t WHERE t.C = s.B) GROUP BY s.C;
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT u.X FROM (SELECT t.C AS X FROM T t UNION ALL SELECT t.D AS X FROM T t UNION SELECT s2.C AS X FROM S s2) u WHERE u.X = s.B);
SELECT u.X, SUM(u.Y) AS v FROM (SELECT s.B AS X, s.C AS Y FROM S s UNION SELECT t.C AS X, t.D AS Y FROM T t UNION ALL SELECT t.D AS X, t.C AS Y FROM T t) u GROUP BY u.X;
