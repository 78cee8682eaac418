-- Dialect sql: equi-joins on nullable columns are unified under the guard
-- that both are present (NULL never joins), also through a chain and with a
-- NOT NULL column; the joined column's NULLs still count elsewhere (COUNT,
-- GROUP BY of the other side), and deletes bring groups back to NULL;
-- DISTINCT aggregates of nullable values.
-- diff: sql ints=4 depth0 events=1000
CREATE STREAM R(A int, B int);
CREATE STREAM S(B int, C int);
CREATE STREAM T(B int NOT NULL, D int);
SELECT COUNT(*) FROM R r, S s WHERE r.B = s.B;
SELECT r.A, COUNT(*), SUM(s.C), COUNT(s.C) FROM R r, S s WHERE r.B = s.B GROUP BY r.A;
SELECT s.C, SUM(t.D) FROM S s, T t WHERE s.B = t.B GROUP BY s.C;
SELECT COUNT(*), SUM(r.A * t.D) FROM R r, S s, T t WHERE r.B = s.B AND s.B = t.B;
SELECT r.B, COUNT(*) FROM R r, T t WHERE t.B = r.B AND r.A IS NULL GROUP BY r.B;
SELECT r.A, COUNT(*) FROM R r, S s WHERE r.B = s.B AND r.A = s.C GROUP BY r.A;
SELECT COUNT(*) FROM R r, S s WHERE r.B IS NOT DISTINCT FROM s.B;
SELECT r.A, SUM(DISTINCT r.B), COUNT(DISTINCT r.B), AVG(DISTINCT r.B) FROM R r GROUP BY r.A;
SELECT SUM(DISTINCT s.C), COUNT(DISTINCT s.B) FROM S s;
