-- Finance-like pair: per-broker spread where the ask volume outweighs the volume priced above it.
-- diff: events=400
CREATE STREAM BIDS(BROKER_ID int, VOLUME int, PRICE int);
CREATE STREAM ASKS(BROKER_ID int, VOLUME int, PRICE int);
SELECT b.BROKER_ID, SUM(a.PRICE * a.VOLUME - b.PRICE * b.VOLUME) AS spread FROM BIDS b, ASKS a
WHERE b.BROKER_ID = a.BROKER_ID
  AND a.VOLUME * 8 > (SELECT SUM(a2.VOLUME) FROM ASKS a2 WHERE a2.PRICE > a.PRICE)
GROUP BY b.BROKER_ID;
