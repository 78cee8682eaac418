CREATE STREAM bids (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/data/finance.csv' LINE DELIMITED ORDERBOOK (book := 'bids', brokers := '10', deterministic := 'yes');
CREATE STREAM asks (t FLOAT, id INT, broker_id INT, volume FLOAT, price FLOAT)
  FROM FILE 'examples/data/finance.csv' LINE DELIMITED orderbook (BOOK := 'asks', brokers := '10', deterministic := 'yes');

-- correlated scalar subqueries (finance AXFinder/PSP style)
SELECT b.broker_id, SUM(b.volume) AS vol
FROM bids b
WHERE 0.25 * (SELECT SUM(b1.volume) FROM bids b1) >
      (SELECT SUM(b2.volume) FROM bids b2 WHERE b2.price > b.price)
GROUP BY b.broker_id;

SELECT SUM(a.price * a.volume) FROM asks a
WHERE a.volume > (SELECT AVG(a2.volume) FROM asks a2 WHERE a2.broker_id = a.broker_id);

-- unqualified correlated reference: broker_id is not a column of the inner FROM? it is; price via outer alias
SELECT COUNT(*) FROM bids b WHERE EXISTS (SELECT a.id FROM asks a WHERE a.price < b.price)
  AND NOT EXISTS (SELECT a.id FROM asks a WHERE a.broker_id = b.broker_id AND a.volume > 100);

SELECT b.id FROM bids b WHERE b.broker_id IN (SELECT a.broker_id FROM asks a) AND b.id NOT IN (1, 2, 3);

SELECT SUM(b.volume) FROM bids b
WHERE b.price >= ALL (SELECT a.price FROM asks a)
  AND b.price < ANY (SELECT a.price FROM asks a WHERE a.broker_id = b.broker_id)
  AND b.volume > SOME (SELECT SUM(a.volume) FROM asks a GROUP BY a.broker_id);

SELECT b.broker_id, b.price FROM bids b
UNION ALL
SELECT a.broker_id, a.price FROM asks a;

SELECT b.broker_id FROM bids b UNION SELECT a.broker_id FROM asks a;

-- UNION and UNION ALL associate left to right: (bids ∪ asks) ⊎ bids.
SELECT b.broker_id FROM bids b UNION SELECT a.broker_id FROM asks a UNION ALL SELECT b2.broker_id FROM bids b2;

-- DISTINCT over a grouped query: a no-op when all GROUP BY keys are selected,
-- else the distinct rows of the grouped query as a derived table.
SELECT DISTINCT b.broker_id, SUM(b.volume) AS vol FROM bids b GROUP BY b.broker_id;
SELECT DISTINCT COUNT(*) AS n FROM bids b GROUP BY b.broker_id;
SELECT SUM(d.n) AS total FROM (SELECT DISTINCT COUNT(*) AS n FROM bids b GROUP BY b.broker_id) d;

-- Compound operators: one precedence, left to right (SQLite's); the ALL
-- forms of INTERSECT and EXCEPT numbered for SQLite, which lacks them.
SELECT b.broker_id FROM bids b INTERSECT SELECT a.broker_id FROM asks a EXCEPT ALL SELECT b.id FROM bids b UNION SELECT a.id FROM asks a;
SELECT b.broker_id, b.price FROM bids b INTERSECT ALL SELECT a.broker_id, a.price FROM asks a;
SELECT COUNT(*) FROM bids b WHERE b.broker_id IN (SELECT a.broker_id FROM asks a EXCEPT SELECT b2.id FROM bids b2);
