-- Ordered-set aggregates over a stream of trades whose prices and volumes
-- may be NULL (an empty field): MEDIAN, PERCENTILE_CONT, PERCENTILE_DISC
-- and MODE, per broker and over all trades. Each counts the trades of each
-- (group, value) in one map; generated code keeps a range-sum index of the
-- counts (the percentiles) or a mode index (MODE) over it, so that an
-- event and a read each cost O(log n) in the group's number n of distinct
-- values (generated/holistic benchmarks it).
CREATE STREAM TRADES(BROKER int NOT NULL, PRICE int, VOLUME float) FROM FILE 'examples/nulls/data/trade.csv' LINE DELIMITED CSV;

SELECT BROKER, MEDIAN(PRICE) AS MEDIAN_PRICE,
       PERCENTILE_DISC(0.75) WITHIN GROUP (ORDER BY VOLUME) AS Q3_VOLUME,
       MODE() WITHIN GROUP (ORDER BY PRICE) AS COMMON_PRICE, COUNT(*) AS TRADES
FROM TRADES GROUP BY BROKER;

SELECT PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY PRICE DESC) AS UPPER_QUARTILE FROM TRADES;
