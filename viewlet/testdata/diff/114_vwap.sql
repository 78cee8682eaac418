-- VWAP-style quarter-volume test over one stream.
-- diff: events=400
CREATE STREAM B(p int, v int);
SELECT SUM(b1.p * b1.v) AS vwap FROM B b1
WHERE 0.25 * (SELECT SUM(b3.v) FROM B b3) > (SELECT SUM(b2.v) FROM B b2 WHERE b2.p > b1.p);
