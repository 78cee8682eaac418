-- MDDB energy shape with three grouped derived tables on one key, two NOT
-- EXISTS with OR-of-conjunctions correlations (one also testing the bond
-- constant by an inequality), and an EXISTS of the same shape.
-- diff: ints=3 P.A=6 BONDS.X=6 BONDS.Y=6 deletes=0.4 events=500
CREATE STREAM P(t int, a int, x int);
CREATE STREAM Bonds(x int, y int, k int);
SELECT b.t, b.e AS be, n.e AS ne, w.e AS we FROM (SELECT P1.t, SUM(P1.x + P2.x) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) GROUP BY P1.t) b, (SELECT P1.t, SUM(P1.x * P2.x) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND P1.a < P2.a AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) GROUP BY P1.t) n, (SELECT P1.t, COUNT(*) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND NOT EXISTS (SELECT * FROM Bonds B WHERE ((B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) AND B.k > P1.x) GROUP BY P1.t) w WHERE b.t = n.t AND n.t = w.t;
SELECT n.t, n.e FROM (SELECT P1.t, SUM(P1.x) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a AND B.k = P1.t) OR (B.y = P1.a AND B.x = P2.a AND B.k = P2.t)) GROUP BY P1.t) n, (SELECT B.k, COUNT(*) AS c FROM Bonds B GROUP BY B.k) c WHERE n.t = c.k;
