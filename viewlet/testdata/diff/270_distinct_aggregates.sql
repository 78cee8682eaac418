-- Plain SQL (issue 11): SELECT ALL, COUNT(ALL x), SUM/AVG/MIN/MAX(DISTINCT x)
-- per group, over a join, ungrouped (0 over no rows), and in subqueries and
-- derived tables.
-- diff: ints=5 depth0 events=800
CREATE STREAM R(A int, B int, C float);
CREATE STREAM S(B int, D int);
SELECT ALL r.A, COUNT(ALL r.B), SUM(ALL r.B), SUM(DISTINCT r.B), AVG(DISTINCT r.C), MIN(DISTINCT r.C), MAX(DISTINCT r.B) FROM R r GROUP BY r.A;
SELECT SUM(DISTINCT r.B), AVG(DISTINCT r.B), COUNT(DISTINCT r.B) FROM R r;
SELECT s.D, SUM(DISTINCT r.A * s.B), AVG(DISTINCT r.C + s.D) FROM R r, S s WHERE r.B = s.B GROUP BY s.D;
SELECT r.A, COUNT(*) FROM R r WHERE r.B < (SELECT SUM(DISTINCT s.D) FROM S s WHERE s.B = r.A) GROUP BY r.A;
SELECT x.B, x.sd, x.ad FROM (SELECT s.B, SUM(DISTINCT s.D) AS sd, AVG(DISTINCT s.D) AS ad FROM S s GROUP BY s.B) x WHERE x.sd > 1;
SELECT s.B, SUM(DISTINCT s.D) FROM S s GROUP BY s.B HAVING SUM(DISTINCT s.D) > 2;
