-- COUNT(DISTINCT) over a grouped derived table under a constant condition
-- (issue 8, family V).
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT d.c, COUNT(DISTINCT d.b) AS v FROM (SELECT s.C AS c, s.B AS b, SUM(s.B) AS x FROM S s GROUP BY s.C, s.B) d WHERE 2 > 1 GROUP BY d.c;
SELECT COUNT(DISTINCT d.c) AS v FROM (SELECT t.C AS c, COUNT(*) AS n FROM T t GROUP BY t.C) d, S s WHERE 2 > 1;
