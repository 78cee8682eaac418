-- Sums over the entries of a map kept by a condition on a nested range sum
-- over another map (VWAP's shape), which generated code reads with one
-- search of the first map's range-sum index while the summed map holds no
-- negative value (codegen's thresholdSum), and loops otherwise: VWAP
-- itself, its mirror (prices below, the condition flipped), a strict and
-- a non-strict bound, a FLOAT and an INT key, and sums of VOLUME − 2 and − 4, whose
-- negative entries make the generated code fall back to the loop now and
-- then. Both engines must agree with SQLite after deletes.
-- diff: events=700 ints=9
CREATE STREAM BIDS(T float, ID int, BROKER int, VOLUME float, PRICE float);
CREATE STREAM ASKS(BROKER int, VOLUME int, PRICE int);
SELECT SUM(b1.PRICE * b1.VOLUME) AS vwap FROM BIDS b1 WHERE 0.25 * (SELECT SUM(b3.VOLUME) FROM BIDS b3) > (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE > b1.PRICE);
SELECT SUM(b1.VOLUME) AS v FROM BIDS b1 WHERE (SELECT SUM(b2.VOLUME) FROM BIDS b2 WHERE b2.PRICE <= b1.PRICE) < 0.5 * (SELECT SUM(b3.VOLUME) FROM BIDS b3);
SELECT SUM(a1.PRICE) AS s FROM ASKS a1 WHERE (SELECT SUM(a2.VOLUME) FROM ASKS a2 WHERE a2.PRICE >= a1.PRICE) >= 10;
SELECT SUM(b1.PRICE) AS s FROM BIDS b1 WHERE 0.5 * (SELECT SUM(b3.VOLUME) FROM BIDS b3) > (SELECT SUM(b2.VOLUME - 2) FROM BIDS b2 WHERE b2.PRICE > b1.PRICE);
SELECT SUM(a1.VOLUME * a1.PRICE) AS s FROM ASKS a1 WHERE (SELECT SUM(a2.VOLUME - 2) FROM ASKS a2 WHERE a2.PRICE < a1.PRICE) > 3;
SELECT SUM(a1.PRICE) AS s FROM ASKS a1 WHERE (SELECT SUM(a2.VOLUME - 4) FROM ASKS a2 WHERE a2.PRICE < a1.PRICE) > 0;
