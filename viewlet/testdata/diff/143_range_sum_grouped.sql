-- Inequality-correlated subqueries (range sums) per broker and overall, with
-- > and >= (the latter written bound-first), under deletes.
-- diff: events=600 deletes=0.4 B.BR=3 B.P=12
CREATE STREAM B(BR int, P int, V int);
SELECT b1.BR, SUM(b1.P * b1.V) AS s, COUNT(*) AS n FROM B b1
WHERE (SELECT SUM(b2.V) FROM B b2 WHERE b2.BR = b1.BR AND b2.P > b1.P) < 3 * b1.V + 1
  AND (SELECT SUM(b3.V) FROM B b3 WHERE b1.P >= b3.P) >= 2
GROUP BY b1.BR;
