-- MIN/MAX in a derived table read by an outer aggregate (issue 8, IV): each
-- copy of the Extreme binds its own argument, which is never a map key.
-- diff: ints=5 events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT COUNT(*) AS v FROM (SELECT s.B AS b, SUM(d.m) AS x FROM S s, (SELECT t.C AS c, MAX(t.C) AS m FROM T t GROUP BY t.C) d WHERE s.C = d.c GROUP BY s.B) d1;
SELECT SUM(d1.x) AS v FROM (SELECT s.B AS b, SUM(d.m) AS x FROM S s, (SELECT t.C AS c, MIN(t.D) AS m FROM T t GROUP BY t.C) d WHERE s.C = d.c GROUP BY s.B) d1;
SELECT d.c, SUM(d.m) AS v, COUNT(*) AS n FROM (SELECT t.C AS c, MAX(t.D) AS m, MIN(t.D) AS lo FROM T t GROUP BY t.C) d GROUP BY d.c;
SELECT s.B, MAX(d.m) AS v FROM S s, (SELECT t.C AS c, MIN(t.D) AS m FROM T t GROUP BY t.C) d WHERE s.C = d.c GROUP BY s.B;
