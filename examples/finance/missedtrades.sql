-- MST (missedtrades): per bid broker, the sum of a.price·a.volume − b.price·b.volume
-- over the bid/ask pairs where both the bid and the ask pass the VWAP-style
-- quarter-volume test on their own book: the orders of the same book with a
-- strictly higher price hold less than a quarter of the book's volume
-- (DBToaster's finance query missedtrades).
CREATE STREAM bids (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/finance/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'bids', brokers := '10', deterministic := 'yes');

CREATE STREAM asks (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/finance/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'asks', brokers := '10', deterministic := 'yes');

SELECT b.broker_id,
       SUM(a.price * a.volume - b.price * b.volume) AS mst
FROM bids b, asks a
WHERE 0.25 * (SELECT SUM(a1.volume) FROM asks a1)
      > (SELECT SUM(a2.volume) FROM asks a2 WHERE a2.price > a.price)
  AND 0.25 * (SELECT SUM(b1.volume) FROM bids b1)
      > (SELECT SUM(b2.volume) FROM bids b2 WHERE b2.price > b.price)
GROUP BY b.broker_id;
