-- MIN/MAX of strings and dates: per group, of the whole stream, of an
-- expression, and nested in a subquery correlated by a key, under heavy
-- deletes with many values per group.
-- diff: events=600 deletes=0.4 days=30 E.G=3 F.G=3
CREATE STREAM E(G int, NAME string, D date, X int);
CREATE STREAM F(G int, NAME string, D date);
SELECT e.G, MIN(e.NAME) AS lo, MAX(e.NAME) AS hi, MIN(e.D) AS first, MAX(e.D) AS last, COUNT(*) AS n FROM E e GROUP BY e.G;
SELECT MIN(e.NAME) AS lo, MAX(e.D) AS last FROM E e;
SELECT e.X, MAX(SUBSTRING(e.NAME, 1, 3)) AS s, MIN(e.D + INTERVAL '1' MONTH) AS d FROM E e GROUP BY e.X;
SELECT f.G, COUNT(*) AS n FROM F f WHERE f.NAME = (SELECT MIN(e.NAME) FROM E e WHERE e.G = f.G) GROUP BY f.G;
SELECT f.G, f.D, COUNT(*) AS n FROM F f WHERE f.D = (SELECT MAX(e.D) FROM E e WHERE e.G = f.G) GROUP BY f.G, f.D;
