-- Threshold reads in := statements whose loop map binds keys beside the
-- one the nested range sum is bounded by (MissedTrades' bids by broker and
-- price, kept where the volume priced above is below a quarter of all):
-- generated code searches the rays of kept prices once and sums each
-- group's entries over them (codegen's raySums), or, where the loop map
-- has a bound key (the join's broker), tests each entry against them
-- (thresholdLoop), while the summed maps hold no negative value, and reads
-- the nested sums at each entry otherwise (the sums of VOLUME - 2 go
-- negative now and then). Grouped by the other key, by the bounded key
-- itself, by both; the mirror (prices below, the condition flipped),
-- strict and non-strict bounds, FLOAT and INT keys, COUNT and SUM, two
-- conditions, a join, and MissedTrades' product of two sides.
-- diff: events=700 ints=9
CREATE STREAM BIDS(T float, ID int, BROKER int, VOLUME float, PRICE float);
CREATE STREAM ASKS(BROKER int, VOLUME int, PRICE int);
SELECT b.BROKER, SUM(b.PRICE * b.VOLUME) AS s FROM BIDS b WHERE 0.25 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b.PRICE) GROUP BY b.BROKER;
SELECT a.BROKER, COUNT(*) AS n FROM ASKS a WHERE (SELECT SUM(a2.VOLUME) FROM ASKS a2 WHERE a2.PRICE <= a.PRICE) < 0.5 * (SELECT SUM(a3.VOLUME) FROM ASKS a3) GROUP BY a.BROKER;
SELECT a.PRICE, SUM(a.VOLUME) AS v FROM ASKS a WHERE (SELECT SUM(a2.VOLUME) FROM ASKS a2 WHERE a2.PRICE >= a.PRICE) >= 10 GROUP BY a.PRICE;
SELECT b.BROKER, b.ID, SUM(b.VOLUME) AS v FROM BIDS b WHERE 0.5 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME - 2) FROM BIDS b2 WHERE b2.PRICE > b.PRICE) GROUP BY b.BROKER, b.ID;
SELECT b.BROKER, SUM(a.PRICE * a.VOLUME - b.PRICE * b.VOLUME) AS mst FROM BIDS b, ASKS a
WHERE 0.25 * (SELECT SUM(a1.VOLUME) FROM ASKS a1) > (SELECT SUM(a2.VOLUME) FROM ASKS a2 WHERE a2.PRICE > a.PRICE)
  AND 0.25 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b.PRICE)
GROUP BY b.BROKER;
SELECT b.BROKER, SUM(b.VOLUME) AS v FROM BIDS b
WHERE 0.75 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b.PRICE)
  AND (SELECT SUM(b3.VOLUME) FROM BIDS b3 WHERE b3.PRICE < b.PRICE) < 0.5 * (SELECT SUM(b4.VOLUME) FROM BIDS b4)
GROUP BY b.BROKER;
SELECT b.ID, SUM(a.VOLUME * b.VOLUME) AS x FROM BIDS b, ASKS a
WHERE a.BROKER = b.BROKER
  AND 0.25 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b.PRICE)
GROUP BY b.ID;
