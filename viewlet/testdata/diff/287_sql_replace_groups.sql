-- Dialect sql: re-evaluated sums beside the counts that make them NULL
-- over no rows (VWAP's shape), with NULLs in the summed and compared
-- columns: the replacing statements of one view loop once over the table
-- their maps are fused into (codegen's replace groups), in int and float,
-- with AVG (a sum and a count), COUNT(*) beside COUNT(col), grouped.
-- diff: sql ints=4 events=900
CREATE STREAM B(T int, BROKER int NOT NULL, VOLUME int, PRICE int);
CREATE STREAM N(T int NOT NULL, BROKER int NOT NULL, VOLUME int NOT NULL, PRICE int NOT NULL);
SELECT SUM(b1.PRICE * b1.VOLUME) FROM B b1 WHERE 0.25 * (SELECT SUM(b3.VOLUME) FROM B b3) > (SELECT SUM(b2.VOLUME) FROM B b2 WHERE b2.PRICE > b1.PRICE);
SELECT SUM(b1.PRICE * b1.VOLUME), COUNT(*), AVG(b1.VOLUME) FROM N b1 WHERE 0.5 * (SELECT SUM(b3.VOLUME) FROM N b3) > (SELECT SUM(b2.VOLUME) FROM N b2 WHERE b2.PRICE > b1.PRICE);
SELECT COUNT(b1.T), SUM(b1.VOLUME), MAX(b1.PRICE) FROM B b1 WHERE (SELECT COUNT(*) FROM B b3) > 2 * (SELECT COUNT(b2.T) FROM B b2 WHERE b2.PRICE <= b1.PRICE);
SELECT b1.BROKER, SUM(b1.VOLUME), COUNT(*) FROM N b1 WHERE 0.5 * (SELECT SUM(b3.VOLUME) FROM N b3 WHERE b3.BROKER = b1.BROKER) > (SELECT SUM(b2.VOLUME) FROM N b2 WHERE b2.BROKER = b1.BROKER AND b2.PRICE > b1.PRICE) GROUP BY b1.BROKER;
SELECT AVG(b1.PRICE), SUM(b1.VOLUME * 0.5) FROM B b1 WHERE b1.VOLUME > (SELECT AVG(b2.VOLUME) FROM B b2 WHERE b2.PRICE < b1.PRICE);
