-- Plain SQL in dialect dbtoaster: ALL, DISTINCT aggregates, the shared
-- scalar functions, ||, unaliased and repeated select items, parenthesised
-- joins.
CREATE STREAM r (a INT, b FLOAT, s VARCHAR(10), d DATE);
CREATE STREAM t (c INT, e INT);
CREATE STREAM u (c INT, f INT);

SELECT ALL a, COUNT(ALL b), SUM(ALL a), SUM(DISTINCT a), AVG(DISTINCT b), MIN(DISTINCT b), MAX(DISTINCT s)
FROM r GROUP BY a;

SELECT ABS(a), ABS(b), ROUND(b), ROUND(b, 2), ROUND(a, a), LENGTH(s), LENGTH(b), UPPER(s), lower( s ),
       TRIM(s), LTRIM(s, 'x'), RTRIM(s), SUBSTR(s, 1), SUBSTRING(s, 0, 2), s || 'x' || a, b || d,
       -a || (a * 2), (a * 2) || 1
FROM r;

SELECT 13 FROM t GROUP BY t.c;
SELECT c, c, c + 1, c + 1, t.c AS c2, sum( e ) FROM t GROUP BY c;
SELECT SUM(b) AS a FROM r GROUP BY a;
SELECT a, b AS a FROM r;

SELECT COUNT(*) FROM (t CROSS JOIN u);
SELECT COUNT(*) FROM r JOIN (t JOIN u ON t.c = u.c) ON r.a = t.e;
SELECT x.e FROM (t) AS x, (r, u) WHERE x.c = u.c AND r.a = u.f;
SELECT * FROM (t NATURAL JOIN u);

SELECT A, B FROM R ORDER BY B DESC LIMIT 3 OFFSET 1;

SELECT a, b, SUM(b) OVER (PARTITION BY a) AS total, COUNT(*) OVER () AS n FROM r;
