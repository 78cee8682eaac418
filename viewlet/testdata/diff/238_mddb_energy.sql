-- MDDB energy shape (issue 9, item 7): grouped derived tables joined on one
-- key (the time step), one of them with NOT EXISTS subqueries whose
-- correlation is an OR of two conjunctions (an unordered pair of atoms is
-- bonded either way round).
-- diff: ints=3 P.A=6 BONDS.X=6 BONDS.Y=6 deletes=0.4 events=600 depth0
CREATE STREAM P(t int, a int, x int);
CREATE STREAM Bonds(x int, y int, k int);
SELECT b.t, b.e AS be, n.e AS ne FROM (SELECT P1.t, SUM(B.k * (P1.x - P2.x)) AS e FROM P P1, P P2, Bonds B WHERE P1.t = P2.t AND P1.a = B.x AND P2.a = B.y GROUP BY P1.t) b, (SELECT P1.t, SUM(P1.x * P2.x) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND P1.a < P2.a AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) GROUP BY P1.t) n WHERE b.t = n.t;
SELECT n.t, SUM(n.c) AS v FROM (SELECT P1.t, COUNT(*) AS c FROM P P1, P P2 WHERE P1.t = P2.t AND P1.a <> P2.a AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) GROUP BY P1.t) n, (SELECT P.t, COUNT(*) AS c FROM P GROUP BY P.t) m WHERE n.t = m.t AND n.c <= m.c GROUP BY n.t;
