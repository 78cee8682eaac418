-- Plain SQL (issue 11): parenthesised joins in FROM are flattened into the
-- FROM list; a parenthesised SELECT stays a derived table.
-- diff: ints=6 events=600 deletes=0.45
CREATE STREAM A(x int, y int);
CREATE STREAM B(x int, z int);
CREATE STREAM C(z int, w int);
SELECT COUNT(*) FROM (A CROSS JOIN B);
SELECT A.y, SUM(C.w) FROM A JOIN (B JOIN C ON B.z = C.z) ON A.x = B.x GROUP BY A.y;
SELECT COUNT(*) FROM (A, B) WHERE A.x = B.x;
SELECT b.z, COUNT(*) FROM (A) AS a, (B AS b JOIN C AS c ON b.z = c.z) WHERE a.y = c.w GROUP BY b.z;
SELECT x, y, z FROM (A NATURAL JOIN B);
SELECT COUNT(*) FROM (A JOIN B ON A.x = B.x) JOIN (SELECT z, SUM(w) AS s FROM C GROUP BY z) d ON d.z = B.z WHERE d.s > 2;
