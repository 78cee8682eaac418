-- AXF (axfinder): per broker, the sum of ask volume minus bid volume over the
-- bid/ask pairs of that broker whose prices differ by more than 1000 in either
-- direction (DBToaster's finance query axfinder).
CREATE STREAM bids (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/finance/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'bids', brokers := '10', deterministic := 'yes');

CREATE STREAM asks (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/finance/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'asks', brokers := '10', deterministic := 'yes');

SELECT b.broker_id,
       SUM(a.volume - b.volume) AS axfinder
FROM bids b, asks a
WHERE b.broker_id = a.broker_id
  AND (a.price - b.price > 1000 OR b.price - a.price > 1000)
GROUP BY b.broker_id;
