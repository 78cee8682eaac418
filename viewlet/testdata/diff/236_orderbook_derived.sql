-- Order-book shape (issue 9, item 7): derived tables, each with its own
-- GROUP BY, joined on their group keys, where the group key's relation also
-- occurs inside a nested aggregate of that derived table (bids side and asks
-- side per broker). Many brokers and a high delete rate, so that groups stay
-- small and lose their last row.
-- diff: ints=4 BROKER_ID=6 deletes=0.4 events=600 depth0
CREATE STREAM bids(broker_id int, price int, volume int);
CREATE STREAM asks(broker_id int, price int, volume int);
SELECT x.broker_id, x.bv, y.av FROM (SELECT b.broker_id, SUM(b.volume) AS bv FROM bids b WHERE 4 * b.price > (SELECT SUM(b2.price) FROM bids b2 WHERE b2.broker_id = b.broker_id) GROUP BY b.broker_id) x, (SELECT a.broker_id, SUM(a.volume) AS av FROM asks a WHERE 0.25*(SELECT SUM(a1.volume) FROM asks a1) > (SELECT SUM(a2.volume) FROM asks a2 WHERE a2.price > a.price) GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id;
SELECT x.broker_id, SUM(x.bv * y.av) AS v FROM (SELECT b.broker_id, SUM(b.volume) AS bv FROM bids b WHERE b.price >= (SELECT SUM(b2.price) FROM bids b2 WHERE b2.broker_id = b.broker_id AND b2.volume > b.volume) GROUP BY b.broker_id) x, (SELECT a.broker_id, COUNT(*) AS av FROM asks a WHERE a.volume >= (SELECT SUM(a2.volume) FROM asks a2 WHERE a2.broker_id = a.broker_id AND a2.price > a.price) GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id GROUP BY x.broker_id;
SELECT COUNT(*) AS n FROM (SELECT b.broker_id, SUM(b.volume) AS bv FROM bids b WHERE 4 * b.price > (SELECT SUM(b2.price) FROM bids b2 WHERE b2.broker_id = b.broker_id) GROUP BY b.broker_id) x, (SELECT a.broker_id, SUM(a.volume) AS av FROM asks a GROUP BY a.broker_id) y WHERE x.broker_id = y.broker_id AND x.bv > y.av;
