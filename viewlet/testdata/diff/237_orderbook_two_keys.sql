-- Order-book shape with two group keys per side, both correlated in the
-- nested aggregates (by equality, and one by an inequality), joined on both
-- keys (issue 9, item 7).
-- diff: ints=3 deletes=0.4 events=600 depth0
CREATE STREAM bids(broker_id int, t int, price int, volume int);
CREATE STREAM asks(broker_id int, t int, price int, volume int);
SELECT x.broker_id, x.t, x.bv, y.av FROM (SELECT b.broker_id, b.t, SUM(b.volume) AS bv FROM bids b WHERE 3 * b.price > (SELECT SUM(b2.price) FROM bids b2 WHERE b2.broker_id = b.broker_id AND b2.t = b.t) GROUP BY b.broker_id, b.t) x, (SELECT a.broker_id, a.t, SUM(a.volume) AS av FROM asks a WHERE a.price >= (SELECT SUM(a2.volume) FROM asks a2 WHERE a2.broker_id = a.broker_id AND a2.t < a.t) GROUP BY a.broker_id, a.t) y WHERE x.broker_id = y.broker_id AND x.t = y.t;
SELECT x.broker_id, SUM(x.bv) AS v FROM (SELECT b.broker_id, b.t, SUM(b.volume) AS bv FROM bids b WHERE b.volume >= (SELECT COUNT(*) FROM bids b2 WHERE b2.broker_id = b.broker_id AND b2.t > b.t) GROUP BY b.broker_id, b.t) x, (SELECT a.broker_id, SUM(a.volume) AS av FROM asks a WHERE a.volume >= (SELECT COUNT(*) FROM asks a2 WHERE a2.t = a.t AND a2.price > a.price) GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id AND x.t < y.av GROUP BY x.broker_id;
