-- BSV (brokervariance): per broker, the sum of 0.5·x.volume·x.price·y.volume·y.price
-- over all pairs of that broker's bids (DBToaster's finance query
-- brokervariance).
CREATE STREAM bids (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/finance/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'bids', brokers := '10', deterministic := 'yes');

SELECT x.broker_id,
       SUM(0.5 * x.volume * x.price * y.volume * y.price) AS bsv
FROM bids x, bids y
WHERE x.broker_id = y.broker_id
GROUP BY x.broker_id;
