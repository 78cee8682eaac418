-- Paired range-sum indexes (codegen/rangepair.go): two maps fused in one
-- table whose range-sum indexes have one group and key are one index with
-- two lanes. VWAP per broker (the threshold searched on the volume lane
-- and price × volume summed on the other, in one descent, per group), the
-- same with a lane of counts, AXFinder's two ranges read on both lanes at
-- once, and a pair read in a view. Volumes reach 0 and below, so that a
-- key stays while one lane holds a value and the threshold falls back to
-- its loop. Both engines must agree with SQLite after deletes.
-- diff: events=700 ints=7
CREATE STREAM BIDS(T float, ID int, BROKER int, VOLUME float, PRICE float);
CREATE STREAM ASKS(T float, ID int, BROKER int, VOLUME float, PRICE float);
SELECT b1.BROKER, SUM(b1.PRICE * b1.VOLUME) AS vwap FROM BIDS b1 WHERE 0.25 * (SELECT SUM(b3.VOLUME) FROM BIDS b3 WHERE b3.BROKER = b1.BROKER) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b1.PRICE AND b2.BROKER = b1.BROKER) GROUP BY b1.BROKER;
SELECT b1.BROKER, COUNT(*) AS n FROM BIDS b1 WHERE 3 >= (SELECT COUNT(*) FROM BIDS b2 WHERE b2.PRICE <= b1.PRICE AND b2.BROKER = b1.BROKER) GROUP BY b1.BROKER;
SELECT b.BROKER, SUM(a.VOLUME - b.VOLUME) AS axf, COUNT(*) AS n FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND (a.PRICE - b.PRICE > 2 OR b.PRICE - a.PRICE > 2) GROUP BY b.BROKER;
