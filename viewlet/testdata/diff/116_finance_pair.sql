-- Finance-like pair query: bids/asks per broker with a nested total-volume condition.
-- diff: events=400
CREATE STREAM BIDS(T int, ID int, BROKER_ID int, VOLUME int, PRICE int);
CREATE STREAM ASKS(T int, ID int, BROKER_ID int, VOLUME int, PRICE int);
SELECT b.BROKER_ID, SUM(a.VOLUME + -1 * b.VOLUME) AS x FROM BIDS b, ASKS a
WHERE b.BROKER_ID = a.BROKER_ID
  AND (a.PRICE - b.PRICE > 2 OR b.PRICE - a.PRICE > 2)
  AND 0.25 * (SELECT SUM(b2.VOLUME) FROM BIDS b2) > (SELECT SUM(b3.VOLUME) FROM BIDS b3 WHERE b3.PRICE > b.PRICE)
GROUP BY b.BROKER_ID;
