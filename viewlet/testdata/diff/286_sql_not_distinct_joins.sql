-- Dialect sql: IS NOT DISTINCT FROM as a join condition matches NULL with
-- NULL and is looked up like an equality (equal values and equal presence
-- flags); IS DISTINCT FROM, mixed with equalities, in ON, beside padded
-- columns of an outer join, and grouped by a NULL-able key.
-- diff: sql ints=3 depth0 events=800
CREATE STREAM R(A int NOT NULL, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int NOT NULL);
SELECT r.A, s.C FROM R r, S s WHERE r.B IS NOT DISTINCT FROM s.B;
SELECT s.C, COUNT(*), SUM(r.A) FROM R r, S s WHERE r.B IS NOT DISTINCT FROM s.B GROUP BY s.C;
SELECT COUNT(*) FROM R r JOIN S s ON r.B IS NOT DISTINCT FROM s.B JOIN T t ON s.C IS NOT DISTINCT FROM t.C;
SELECT r.A, COUNT(s.C) FROM R r LEFT JOIN S s ON r.B IS NOT DISTINCT FROM s.B GROUP BY r.A;
SELECT COUNT(*) FROM R r LEFT JOIN S s ON r.B = s.B LEFT JOIN T t ON s.C IS NOT DISTINCT FROM t.C;
SELECT COUNT(*) FROM R r, S s WHERE r.B IS DISTINCT FROM s.B AND r.A IS NOT DISTINCT FROM s.C;
SELECT r.B, COUNT(*) FROM R r WHERE EXISTS (SELECT 1 FROM S s WHERE s.B IS NOT DISTINCT FROM r.B) GROUP BY r.B;
