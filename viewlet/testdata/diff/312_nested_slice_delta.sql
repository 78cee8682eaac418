-- A nested aggregate two levels deep correlated on a column the event
-- binds (TPC-H Q20: suppliers IN the part-suppliers whose quantity exceeds
-- half their lineitems' sum): a lineitem event changes the entries of its
-- supplier only, so the view is updated by the difference over that slice
-- (old subtracted before the updates, new added after) instead of being
-- re-evaluated whole. Variants with an inequality at the inner level, a
-- NOT IN, a scalar comparison with the nested sum, and groups that lose
-- their last row.
-- diff: ints=4 events=600
CREATE STREAM S(K int, N int);
CREATE STREAM PS(P int, S int, Q int);
CREATE STREAM L(P int, S int, Q int, D int);
SELECT s.N, COUNT(*) AS c FROM S s WHERE s.K IN (SELECT ps.S FROM PS ps WHERE ps.Q > (SELECT SUM(l.Q) FROM L l WHERE l.P = ps.P AND l.S = ps.S) - 2) GROUP BY s.N;
SELECT s.N, COUNT(*) AS c FROM S s WHERE s.K IN (SELECT ps.S FROM PS ps WHERE ps.Q >= (SELECT COUNT(*) FROM L l WHERE l.S = ps.S AND l.D > ps.P)) GROUP BY s.N;
SELECT s.N, SUM(s.K) AS c FROM S s WHERE s.K NOT IN (SELECT ps.S FROM PS ps WHERE ps.Q < (SELECT SUM(l.Q) FROM L l WHERE l.S = ps.S)) GROUP BY s.N;
SELECT COUNT(*) AS c FROM S s WHERE 1 < (SELECT COUNT(*) FROM PS ps WHERE ps.S = s.K AND ps.Q <= (SELECT MAX(l.Q) FROM L l WHERE l.S = ps.S AND l.P = ps.P));
