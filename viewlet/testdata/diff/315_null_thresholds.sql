-- Nullable columns in the shapes that read a range or a threshold of a
-- map's ordered keys (dialect sql): the maps are keyed by the columns'
-- presence flags too, and a statement that loops over one of them while
-- the flag must be non-zero binds it to 1 (pinned flags, viewlet
-- flags.go), so the loop becomes a range read (an OR of two ranges), or a
-- threshold read whose conditions test two nested sums (the SUM's value
-- and the count that makes it NULL over no rows). Variants: both
-- directions, strict and not, a nested sum with negative values (the
-- threshold falls back to the loop), an ungrouped and a grouped range, a
-- NOT NULL column beside nullable ones.
-- diff: sql ints=6 events=700
CREATE STREAM B(p float, v int, k int);
CREATE STREAM A(p float, v int, k int NOT NULL);
SELECT SUM(b1.p * b1.v) AS vwap FROM B b1 WHERE 0.25 * (SELECT SUM(b3.v) FROM B b3) > (SELECT SUM(b2.v) FROM B b2 WHERE b2.p > b1.p);
SELECT SUM(b1.v) AS s, COUNT(*) AS c, COUNT(b1.v) AS n FROM B b1 WHERE (SELECT SUM(b2.v) FROM B b2 WHERE b2.p <= b1.p) >= 0.5 * (SELECT SUM(b3.v) FROM B b3);
SELECT SUM(b1.p) AS s FROM B b1 WHERE 3 > (SELECT SUM(b2.v - 2) FROM B b2 WHERE b2.p < b1.p);
SELECT COUNT(*) AS c FROM B b1 WHERE (SELECT COUNT(b2.v) FROM B b2 WHERE b2.p >= b1.p) < 4;
SELECT b.k, SUM(a.v - b.v) AS ax, COUNT(*) AS c FROM B b, A a WHERE b.k = a.k AND (a.p - b.p > 2 OR b.p - a.p > 2) GROUP BY b.k;
SELECT a.k, SUM(b.v) AS s FROM A a, B b WHERE a.k = b.k AND b.p > a.p GROUP BY a.k;
SELECT SUM(a.v) AS s FROM A a, B b WHERE a.p + 1 < b.p;
