-- COUNT(DISTINCT) in derived tables: grouped (read alone, joined, summed,
-- filtered by HAVING) and ungrouped.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT d.c, d.n FROM (SELECT t.C AS c, COUNT(DISTINCT t.D) AS n FROM T t GROUP BY t.C) d;
SELECT SUM(d.n) AS v FROM (SELECT t.C AS c, COUNT(DISTINCT t.D) AS n FROM T t GROUP BY t.C) d, S s WHERE s.C = d.c;
SELECT s.B, COUNT(*) AS v FROM S s, (SELECT t.C AS c, COUNT(DISTINCT t.D) AS n, COUNT(*) AS m FROM T t GROUP BY t.C HAVING COUNT(DISTINCT t.D) > 1) d
WHERE s.C = d.c AND d.m > d.n GROUP BY s.B;
SELECT COUNT(*) AS v FROM (SELECT COUNT(DISTINCT t.D) AS n FROM T t) d, S s WHERE s.B < d.n;
