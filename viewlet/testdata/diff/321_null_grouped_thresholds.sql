-- MissedTrades in dialect sql, NULLs in every column: the bids' map keeps
-- the presence flag of the price (COUNT(*) counts bids without one), which
-- the := statements by broker pin to 1 (viewlet's loopShaped), so that
-- the broker's bids are summed over the threshold's rays per group, the
-- groups of bids without a price skipped (codegen's raySums), while the
-- summed maps hold no negative value.
-- diff: sql ints=4 events=900
CREATE STREAM BIDS(BROKER int, VOLUME float, PRICE float);
CREATE STREAM ASKS(BROKER int, VOLUME float, PRICE float);
SELECT b.BROKER, COUNT(*) AS n, SUM(b.VOLUME) AS v FROM BIDS b
WHERE 0.25 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b.PRICE)
GROUP BY b.BROKER;
SELECT b.BROKER, SUM(a.PRICE * a.VOLUME - b.PRICE * b.VOLUME) AS mst, COUNT(*) AS n FROM BIDS b, ASKS a
WHERE 0.25 * (SELECT SUM(a1.VOLUME) FROM ASKS a1) > (SELECT SUM(a2.VOLUME) FROM ASKS a2 WHERE a2.PRICE > a.PRICE)
  AND 0.25 * (SELECT SUM(b1.VOLUME) FROM BIDS b1) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b.PRICE)
GROUP BY b.BROKER;
