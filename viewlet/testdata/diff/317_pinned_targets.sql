-- Statements whose target key is a presence flag that the statement pins
-- to 1 while the event's own flag must be non-zero (viewlet flags.go,
-- pinTargets): BrokerSpread's and AXFinder's shapes over nullable
-- columns, grouped by a nullable key, with NULLs in every column. The
-- statement targets the event's entry (keyed by the event's flag) and
-- reads the map as a range instead of looping over the group. Column z,
-- first and read by no query, has a flag that no statement requires.
-- diff: sql ints=6 events=700
CREATE STREAM B(z int, t float, k int, v int, p float);
CREATE STREAM A(z int, t float, k int, v int, p float);
SELECT x.k, SUM(x.v * x.p - y.v * y.p) AS bsp, COUNT(*) AS c FROM B x, B y WHERE x.k = y.k AND x.t > y.t GROUP BY x.k;
SELECT b.k, SUM(a.v - b.v) AS ax, COUNT(*) AS c FROM B b, A a WHERE b.k = a.k AND (a.p - b.p > 2 OR b.p - a.p > 2) GROUP BY b.k;
SELECT a.k, COUNT(*) AS c, SUM(b.v) AS s FROM A a, B b WHERE a.k = b.k AND b.t < a.t GROUP BY a.k;
SELECT x.k, COUNT(*) AS c FROM B x, B y WHERE x.k = y.k AND x.t >= y.t AND x.p <= y.p GROUP BY x.k;
