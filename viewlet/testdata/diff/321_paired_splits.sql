-- Paired splits (codegen/hoist.go, splitLanes): BrokerSpread's self-join on
-- time reads a broker's count and volume × price below and above the
-- event's time; the two maps are fused, their range-sum indexes paired,
-- and the four reads are one SumSplit of the pair. Strict and inclusive
-- bounds, either side of the comparison, volumes that cancel to 0 (a key
-- whose lanes both reach 0 leaves its tree) and deletes of the last row
-- of a broker.
-- diff: events=800 ints=6
CREATE STREAM BIDS(T float, ID int, BROKER int, VOLUME float, PRICE float);
SELECT x.BROKER, SUM(x.VOLUME * x.PRICE - y.VOLUME * y.PRICE) AS bsp FROM BIDS x, BIDS y WHERE x.BROKER = y.BROKER AND x.T > y.T GROUP BY x.BROKER;
SELECT x.BROKER, SUM(x.VOLUME - y.PRICE) AS s, COUNT(*) AS n FROM BIDS x, BIDS y WHERE x.BROKER = y.BROKER AND x.T >= y.T GROUP BY x.BROKER;
SELECT x.BROKER, SUM(y.VOLUME * x.PRICE) AS s FROM BIDS x, BIDS y WHERE x.BROKER = y.BROKER AND y.T <= x.T AND x.ID <> y.ID GROUP BY x.BROKER;
