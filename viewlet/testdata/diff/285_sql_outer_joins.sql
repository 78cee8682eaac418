-- Dialect sql: LEFT, RIGHT and FULL joins (Larson & Zhou: the inner join
-- plus the preserved side's rows that match nothing, padded with NULLs), with
-- equality and residual ON conditions, NULLs in the join columns, WHERE
-- conditions on the padded side, grouped and ungrouped aggregates and bags.
-- diff: sql ints=4 depth0 events=800
CREATE STREAM R(A int NOT NULL, B int);
CREATE STREAM S(B int NOT NULL, C int);
CREATE STREAM T(C int, D int NOT NULL);
SELECT r.A, s.C FROM R r LEFT JOIN S s ON r.B = s.B;
SELECT r.A, COUNT(s.C), COUNT(*), SUM(s.B) FROM R r LEFT JOIN S s ON r.B = s.B AND s.C > 1 GROUP BY r.A;
SELECT COUNT(*), COUNT(r.A), COUNT(s.B) FROM R r FULL JOIN S s ON r.B = s.B;
SELECT s.C, COUNT(*), SUM(t.D) FROM R r JOIN S s ON r.B = s.B RIGHT JOIN T t ON s.C = t.C GROUP BY s.C;
SELECT COUNT(*) FROM R r LEFT JOIN (S s JOIN T t ON s.C = t.C) ON r.B = s.B, T t2 WHERE t2.D = r.A;
SELECT r.A, s.B FROM R r LEFT JOIN S s ON r.B = s.B WHERE s.B IS NULL;
SELECT r.B, COUNT(*) FROM R r LEFT JOIN S s ON r.B < s.B GROUP BY r.B;
SELECT COUNT(*), SUM(t.D) FROM (R r LEFT JOIN S s ON r.B = s.B) LEFT JOIN T t ON s.C = t.C;
SELECT COALESCE(s.C, -1), COUNT(*) FROM R r LEFT JOIN S s ON r.B = s.B GROUP BY COALESCE(s.C, -1);
