-- An uncorrelated scalar subquery compared with a column (VWAP's shape).
-- diff: events=500
CREATE STREAM B(P int, V int);
SELECT SUM(b1.P * b1.V) FROM B b1
WHERE 0.25 * (SELECT SUM(b3.V) FROM B b3) > (SELECT SUM(b2.V) FROM B b2 WHERE b2.P > b1.P);
