-- Sums over a map restricted by conditions on its loop key that are
-- monotone in it, which generated code reads from the map's range-sum
-- index by searching the conditions' boundaries (codegen's rangeWhere):
-- AXFinder's |a − b| > c as an OR of two ranges, both orientations and
-- operand orders, affine forms (a + -1 * b, 2 * a, -a, a / 2), an AND of a
-- range and an OR, ranges that overlap (an OR whose union is one range),
-- and INT keys (plain comparisons only: INT arithmetic stays a loop), with
-- deletes. The interpreter loops; both must agree.
-- diff: events=700 ints=12
CREATE STREAM BIDS(BROKER int, VOLUME float, PRICE float);
CREATE STREAM ASKS(BROKER int, VOLUME float, PRICE float);
CREATE STREAM P(K int, Q int);
CREATE STREAM Q(K int, Q int);
SELECT b.BROKER, SUM(a.VOLUME - b.VOLUME) AS axf FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND (a.PRICE - b.PRICE > 3 OR b.PRICE - a.PRICE > 3) GROUP BY b.BROKER;
SELECT b.BROKER, SUM(a.VOLUME * b.VOLUME) AS s FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND (a.PRICE + -1 * b.PRICE > 2.5 OR 1.5 < b.PRICE - a.PRICE) GROUP BY b.BROKER;
SELECT b.BROKER, COUNT(*) AS n FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND 2 * a.PRICE - b.PRICE >= 4 AND -a.PRICE / 2 > 3 - b.PRICE GROUP BY b.BROKER;
SELECT b.BROKER, SUM(a.VOLUME) AS s FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND a.PRICE > b.PRICE - 8 AND (a.PRICE - b.PRICE > 2 OR a.PRICE < b.PRICE) GROUP BY b.BROKER;
SELECT b.BROKER, SUM(a.VOLUME) AS s FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND (a.PRICE - b.PRICE > -3 OR b.PRICE - a.PRICE > -2) GROUP BY b.BROKER;
SELECT SUM(p.Q * q.Q) AS s FROM P p, Q q WHERE p.K = q.Q AND (q.K > p.Q + 2 OR q.K < p.Q);
SELECT p.K, SUM(q.Q) AS s FROM P p, Q q WHERE p.Q = q.Q AND q.K - p.K > 1 GROUP BY p.K;
SELECT b.BROKER, COUNT(*) AS n FROM BIDS b, ASKS a WHERE b.BROKER = a.BROKER AND -a.PRICE / 2 > 3 - b.PRICE GROUP BY b.BROKER;
