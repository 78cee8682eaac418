-- The order-book and MDDB shapes (issue 9, item 7) with grouped scalar
-- subqueries (item 4) inside the derived tables, and grouped derived tables
-- joined on two keys with an OR-of-conjunctions NOT EXISTS; a high delete
-- rate empties brokers' and time steps' groups.
-- diff: ints=4 BROKER_ID=5 P.A=5 BONDS.X=5 BONDS.Y=5 deletes=0.45 events=500 depth0
CREATE STREAM bids(broker_id int, price int, volume int);
CREATE STREAM asks(broker_id int, price int, volume int);
CREATE STREAM P(t int, a int, x int);
CREATE STREAM Bonds(x int, y int, k int);
SELECT x.broker_id, x.bv, y.av FROM (SELECT b.broker_id, SUM(b.volume) AS bv FROM bids b WHERE b.price >= (SELECT AVG(b2.price) FROM bids b2 WHERE b2.broker_id = b.broker_id GROUP BY b2.broker_id) GROUP BY b.broker_id) x, (SELECT a.broker_id, SUM(a.volume) AS av FROM asks a WHERE a.price <= (SELECT MIN(b.price) FROM bids b WHERE b.broker_id = a.broker_id GROUP BY b.broker_id) GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id;
SELECT a.broker_id, COUNT(*) AS n FROM asks a WHERE NOT (a.volume > (SELECT SUM(b.volume) FROM bids b WHERE b.broker_id = a.broker_id AND b.price < a.price GROUP BY b.broker_id)) GROUP BY a.broker_id;
SELECT n.t, n.a, n.e, m.c FROM (SELECT P1.t, P1.a, SUM(P2.x) AS e FROM P P1, P P2 WHERE P1.t = P2.t AND NOT EXISTS (SELECT * FROM Bonds B WHERE (B.x = P1.a AND B.y = P2.a) OR (B.y = P1.a AND B.x = P2.a)) GROUP BY P1.t, P1.a) n, (SELECT P.t, P.a, COUNT(*) AS c FROM P GROUP BY P.t, P.a) m WHERE n.t = m.t AND n.a = m.a;
SELECT P.t, COUNT(*) AS n FROM P WHERE P.x > (SELECT SUM(B.k) FROM Bonds B WHERE B.x = P.a GROUP BY B.x) GROUP BY P.t;
