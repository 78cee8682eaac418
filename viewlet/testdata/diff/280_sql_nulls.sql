-- Dialect sql with nullable columns (issue 11): NULLs come with the data
-- (a fifth of the values), are held as value-or-zero plus a presence flag,
-- and SQL's three-valued logic is spelled out two-valued: aggregates skip
-- NULLs and are NULL over no non-NULL input (also ungrouped), NULL is one
-- group, equi-joins never match NULL, IS [NOT] NULL, IS [NOT] DISTINCT FROM,
-- COALESCE, NULLIF, CASE without ELSE, INT / INT and x / 0, NOT over
-- UNKNOWN, a scalar subquery's NULL.
-- diff: sql ints=4 depth0 events=1000
CREATE STREAM R(A int, B int, C float);
CREATE STREAM S(B int, C int NOT NULL);
SELECT r.A, SUM(r.B), COUNT(r.B), COUNT(*), AVG(r.B), MIN(r.B), MAX(r.C) FROM R r GROUP BY r.A;
SELECT SUM(r.B), COUNT(*), COUNT(r.C), MIN(r.C), AVG(r.C) FROM R r;
SELECT COUNT(*) FROM R r, S s WHERE r.B = s.B;
SELECT r.A, COUNT(*) FROM R r WHERE r.B > 2 OR r.C IS NULL GROUP BY r.A;
SELECT r.A, SUM(COALESCE(r.B, 10)), SUM(NULLIF(r.B, 1)), MAX(IFNULL(r.C, -1.0)) FROM R r GROUP BY r.A;
SELECT COUNT(*) FROM R r WHERE r.B IS NOT DISTINCT FROM r.A;
SELECT COUNT(*) FROM R r WHERE r.B IS DISTINCT FROM r.A;
SELECT DISTINCT r.B FROM R r;
SELECT r.B / r.A, r.B % r.A, COUNT(*) FROM R r GROUP BY r.B / r.A, r.B % r.A;
SELECT CASE WHEN r.B > 1 THEN r.C END, COUNT(*) FROM R r GROUP BY CASE WHEN r.B > 1 THEN r.C END;
SELECT r.A, r.B FROM R r WHERE NOT (r.B < 2);
SELECT r.A, COUNT(*) FROM R r WHERE r.B > (SELECT SUM(s.C) FROM S s WHERE s.B = r.A) GROUP BY r.A;
SELECT r.A, SUM(r.B) FROM R r GROUP BY r.A HAVING SUM(r.B) > 2;
SELECT s.C, SUM(r.B * s.C), COUNT(r.C) FROM R r, S s WHERE r.A = s.B GROUP BY s.C;
SELECT r.A IS NULL, r.B > 1, COUNT(*) FROM R r GROUP BY r.A IS NULL, r.B > 1;
