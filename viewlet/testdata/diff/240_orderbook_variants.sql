-- More order-book shapes (issue 9, item 7): the issue's query as written
-- (its bids side is empty for non-negative prices), nested aggregates in
-- both sides keyed by the broker and an inequality, a MIN/MAX and a COUNT
-- per side, and the per-broker sides joined with a base relation.
-- diff: ints=4 BROKER_ID=5 deletes=0.4 events=500
CREATE STREAM bids(broker_id int, price int, volume int);
CREATE STREAM asks(broker_id int, price int, volume int);
SELECT x.broker_id, x.bv, y.av FROM (SELECT b.broker_id, SUM(b.volume) AS bv FROM bids b WHERE b.price > (SELECT SUM(b2.price) FROM bids b2 WHERE b2.broker_id = b.broker_id) GROUP BY b.broker_id) x, (SELECT a.broker_id, SUM(a.volume) AS av FROM asks a WHERE 0.25*(SELECT SUM(a1.volume) FROM asks a1) > (SELECT SUM(a2.volume) FROM asks a2 WHERE a2.price > a.price) GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id;
SELECT x.broker_id, x.hi, y.lo FROM (SELECT b.broker_id, MAX(b.price) AS hi FROM bids b WHERE b.volume > (SELECT COUNT(*) FROM bids b2 WHERE b2.broker_id = b.broker_id AND b2.price >= b.price) - 2 GROUP BY b.broker_id) x, (SELECT a.broker_id, MIN(a.price) AS lo FROM asks a WHERE a.volume + 1 >= (SELECT COUNT(*) FROM asks a2 WHERE a2.broker_id = a.broker_id AND a2.price <= a.price) GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id AND x.hi >= y.lo;
SELECT x.broker_id, COUNT(*) AS n, SUM(a.volume) AS v FROM (SELECT b.broker_id, COUNT(*) AS c FROM bids b WHERE 3 * b.volume > (SELECT SUM(b2.volume) FROM bids b2 WHERE b2.broker_id = b.broker_id) GROUP BY b.broker_id) x, asks a WHERE a.broker_id = x.broker_id AND a.price < x.c GROUP BY x.broker_id;
SELECT x.broker_id, x.bv - y.av AS d FROM (SELECT b.broker_id, SUM(b.volume) AS bv FROM bids b GROUP BY b.broker_id) x, (SELECT a.broker_id, SUM(a.volume) AS av FROM asks a WHERE a.price > (SELECT SUM(b.price) FROM bids b WHERE b.broker_id = a.broker_id) - 3 GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id;
