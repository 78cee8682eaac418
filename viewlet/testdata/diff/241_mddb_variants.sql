-- More MDDB energy shapes (issue 9, item 7): the OR-of-conjunctions NOT
-- EXISTS in the outer query over joined grouped derived tables, with three
-- correlation columns, and with an inequality inside each conjunction.
-- diff: ints=3 P.A=5 BONDS.X=5 BONDS.Y=5 deletes=0.4 events=500
CREATE STREAM P(t int, a int, x int);
CREATE STREAM Bonds(x int, y int, k int);
SELECT d1.t, d1.a, d2.a, d1.s + d2.s AS v FROM (SELECT P.t, P.a, SUM(P.x) AS s FROM P GROUP BY P.t, P.a) d1, (SELECT P.t, P.a, SUM(P.x) AS s FROM P GROUP BY P.t, P.a) d2 WHERE d1.t = d2.t AND d1.a < d2.a AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = d1.a AND B.y = d2.a) OR (B.y = d1.a AND B.x = d2.a));
SELECT n.t, n.c, m.c FROM (SELECT P1.t, COUNT(*) AS c FROM P P1, P P2 WHERE P1.t = P2.t AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a AND B.k = P1.x) OR (B.y = P1.a AND B.x = P2.a AND B.k = P2.x)) GROUP BY P1.t) n, (SELECT P1.t, COUNT(*) AS c FROM P P1, P P2 WHERE P1.t = P2.t AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a AND B.k < P1.x) OR (B.y = P1.a AND B.x = P2.a AND B.k < P2.x)) GROUP BY P1.t) m WHERE n.t = m.t;
SELECT n.t, SUM(n.e) AS v FROM (SELECT P1.t, P1.a, SUM(P1.x * P2.x) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND P1.a <> P2.a AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) GROUP BY P1.t, P1.a) n, (SELECT B.x, COUNT(*) AS c FROM Bonds B GROUP BY B.x) c WHERE n.a = c.x GROUP BY n.t;
