-- Dialect sql over NOT NULL columns: what the compiler translates in dialect
-- sql so far, checked against SQLite with its own semantics (no COALESCE
-- wrapping): grouped aggregates, COUNT (also ungrouped: 0 over no rows),
-- NOT pushed down to the atoms, NOT IN, ALL and EXISTS subqueries, a
-- derived table, DISTINCT (issue 11).
-- diff: sql ints=5 depth0
CREATE STREAM R(A int NOT NULL, B int NOT NULL);
CREATE STREAM S(B int NOT NULL, C int NOT NULL);
SELECT r.A, SUM(r.B), COUNT(*) FROM R r GROUP BY r.A;
SELECT COUNT(*) FROM R r, S s WHERE r.B = s.B AND NOT (r.A > 2 OR s.C < 1);
SELECT r.A, COUNT(*) FROM R r WHERE NOT r.B IN (SELECT s.C FROM S s) GROUP BY r.A;
SELECT s.B, MAX(s.C), MIN(s.C) FROM S s WHERE NOT s.C >= ALL (SELECT r.A FROM R r WHERE r.B = s.B) GROUP BY s.B;
SELECT r.B, COUNT(*) FROM R r WHERE NOT EXISTS (SELECT * FROM S s WHERE s.B = r.B AND NOT s.C BETWEEN 1 AND 3) GROUP BY r.B;
SELECT x.A, x.n FROM (SELECT r.A, COUNT(*) AS n FROM R r GROUP BY r.A) x WHERE NOT x.n < 2;
SELECT DISTINCT r.A, s.C FROM R r, S s WHERE r.B = s.B;
SELECT r.A, COUNT(*) FROM R r WHERE r.B > (SELECT COUNT(*) FROM S s WHERE s.B = r.A) GROUP BY r.A;
