-- Factorized views (view trees). Each view joins relations on a column in a
-- q-hierarchical way, so an event updates one entry of one factor, where
-- the flat view would update an entry per partner of the event's tuple:
-- toastgen keeps them factorized (toastgen m3 shows the TREE under each
-- view; -flat-views keeps them flat, as generated/factorizedflat is).
CREATE STREAM r (a INT NOT NULL, b INT NOT NULL) FROM FILE 'examples/factorized/data/r.csv' LINE DELIMITED CSV;
CREATE STREAM s (a INT NOT NULL, c INT NOT NULL) FROM FILE 'examples/factorized/data/s.csv' LINE DELIMITED CSV;
CREATE STREAM t (a INT NOT NULL, d INT NOT NULL) FROM FILE 'examples/factorized/data/t.csv' LINE DELIMITED CSV;

-- name: Pairs
SELECT r.a, r.b, s.c FROM r, s WHERE r.a = s.a;

-- name: Star
SELECT r.a, r.b, s.c, t.d FROM r, s, t WHERE r.a = s.a AND s.a = t.a;

-- name: Totals
SELECT r.a, r.b, SUM(s.c) AS total, COUNT(*) AS n FROM r, s WHERE r.a = s.a GROUP BY r.a, r.b;
