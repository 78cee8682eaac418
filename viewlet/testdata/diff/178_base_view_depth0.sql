-- A view that is a base relation's own map (grouped by every column of one
-- relation, or SELECT * of it) next to one that reads it: at depth 0 it is
-- maintained by the relation's events, not re-evaluated from itself.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.B, s.C, COUNT(*) AS n FROM S s GROUP BY s.B, s.C;
SELECT * FROM T t;
SELECT s.B, SUM(t.D) AS v FROM S s, T t WHERE s.C = t.C GROUP BY s.B;
