-- Plain SQL (issue 11) in dialect sql: DISTINCT aggregates over NOT NULL
-- columns, per group (never NULL) and COUNT(DISTINCT) ungrouped.
-- diff: sql ints=5 events=800
CREATE STREAM R(A int NOT NULL, B int NOT NULL, C float NOT NULL);
CREATE STREAM S(B int NOT NULL, D int NOT NULL);
SELECT ALL r.A, COUNT(ALL r.B), SUM(DISTINCT r.B), AVG(DISTINCT r.C), MIN(DISTINCT r.C), MAX(DISTINCT r.B) FROM R r GROUP BY r.A;
SELECT COUNT(DISTINCT r.B), COUNT(ALL r.C) FROM R r;
SELECT s.D, SUM(DISTINCT r.A * s.B) FROM R r, S s WHERE r.B = s.B GROUP BY s.D;
SELECT x.B, x.sd FROM (SELECT s.B, SUM(DISTINCT s.D) AS sd FROM S s GROUP BY s.B) x WHERE x.sd > 1;
