-- Range sums over float keys with <, <= and BETWEEN (a two-sided range, per
-- broker), and a value factor in the summed map, under deletes.
-- diff: events=600 deletes=0.4 B.BR=3 B.P=16
CREATE STREAM B(BR int, P float, V float);
SELECT b1.BR, SUM(b1.V) AS s, COUNT(*) AS n FROM B b1
WHERE (SELECT SUM(b2.V) FROM B b2 WHERE b2.P < b1.P)
      > (SELECT SUM(b4.V) FROM B b4 WHERE b4.BR = b1.BR AND b4.P BETWEEN b1.P - 1 AND b1.P + 1)
  AND (SELECT SUM(b3.V * b3.P) FROM B b3 WHERE b3.P <= b1.P) >= 0.5 * b1.V
GROUP BY b1.BR;
