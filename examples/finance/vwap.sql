-- VWAP: the sum of price × volume over the bids whose strictly-higher-priced
-- bids hold less than a quarter of all bid volume (DBToaster's finance
-- query vwap, over the order-book adaptor of the trace in data/finance.csv).
CREATE STREAM bids (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/finance/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'bids', brokers := '10', deterministic := 'yes');

SELECT SUM(b1.price * b1.volume) AS vwap
FROM bids b1
WHERE 0.25 * (SELECT SUM(b3.volume) FROM bids b3)
      > (SELECT SUM(b2.volume) FROM bids b2 WHERE b2.price > b1.price);
