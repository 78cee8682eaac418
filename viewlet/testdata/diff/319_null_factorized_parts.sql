-- Products of two independent sides under nested aggregates (dialect
-- sql), MissedTrades' shape: the presence conditions of both sides are
-- one conjunction, which materialize splits into its conjuncts so that
-- each side is its own component and is summed once per event (a part,
-- viewlet materialize.go) instead of a loop over one side's entries per
-- entry of the other. Variants: a grouped side with a correlated nested
-- SUM, both sides filtered by a threshold of their own nested sums, COUNT
-- beside SUM, NULLs on both.
-- diff: sql ints=4 events=700
CREATE STREAM R(a int, b float);
CREATE STREAM S(c int, d float);
SELECT r.a, SUM(r.b * s.d) AS x, COUNT(*) AS n FROM R r, S s
WHERE r.b > (SELECT SUM(r2.b) FROM R r2 WHERE r2.a = r.a) * 0.5
GROUP BY r.a;
SELECT s.c, SUM(r.b - s.d) AS y, COUNT(s.d) AS n FROM R r, S s
WHERE 0.25 * (SELECT SUM(s3.d) FROM S s3) > (SELECT SUM(s2.d) FROM S s2 WHERE s2.d > s.d)
  AND 0.25 * (SELECT SUM(r3.b) FROM R r3) > (SELECT SUM(r2.b) FROM R r2 WHERE r2.b > r.b)
GROUP BY s.c;
