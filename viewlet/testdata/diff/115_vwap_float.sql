-- VWAP-style quarter-volume test with float prices, grouped by volume.
-- diff: events=400
CREATE STREAM B(p float, v int);
SELECT b1.v, SUM(b1.p) AS s, COUNT(*) AS n FROM B b1
WHERE 0.25 * (SELECT SUM(b3.v) FROM B b3) > (SELECT SUM(b2.v) FROM B b2 WHERE b2.p > b1.p)
GROUP BY b1.v;
