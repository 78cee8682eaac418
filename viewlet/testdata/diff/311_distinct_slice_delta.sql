-- COUNT(DISTINCT) per group where an event binds the distinct column but
-- not the group (TPC-H Q16's supplier count per part brand): the count is
-- updated by the difference over the entries of the event's distinct
-- value, old subtracted before and new added after, instead of being
-- re-evaluated whole; events of a nested aggregate correlated on the
-- distinct column (NOT IN, EXISTS with an inequality) change the same
-- slice.
-- diff: ints=4 events=500
CREATE STREAM PS(P int, S int, Q int);
CREATE STREAM PT(P int, G int, H int);
CREATE STREAM SP(K int, F int);
SELECT pt.G, COUNT(DISTINCT ps.S) AS ns FROM PS ps, PT pt WHERE ps.P = pt.P AND ps.S NOT IN (SELECT sp.K FROM SP sp WHERE sp.F > 1) GROUP BY pt.G;
SELECT pt.G, pt.H, COUNT(DISTINCT ps.S) AS ns, COUNT(*) AS n FROM PS ps, PT pt WHERE ps.P = pt.P AND pt.H <> 2 GROUP BY pt.G, pt.H;
SELECT pt.G, COUNT(DISTINCT ps.S) AS ns FROM PS ps, PT pt WHERE ps.P = pt.P AND EXISTS (SELECT 1 FROM SP sp WHERE sp.K = ps.S AND sp.F > ps.Q) GROUP BY pt.G;
SELECT COUNT(DISTINCT ps.S) AS ns FROM PS ps WHERE ps.Q NOT IN (SELECT sp.F FROM SP sp WHERE sp.K = ps.S);
