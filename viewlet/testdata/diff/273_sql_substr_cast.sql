-- Plain SQL (issue 11) in dialect sql: SUBSTR and SUBSTRING counting from 1
-- with SQLite's rules for 0 and negative start and length, and SQLite's
-- CAST between INTEGER, REAL and TEXT (a TEXT's longest numeric prefix, a
-- REAL truncated toward zero, a REAL's text as SQLite writes it).
-- diff: sql ints=6 words=18
CREATE STREAM R(A int NOT NULL, B float NOT NULL, S varchar(30) NOT NULL);
SELECT SUBSTR(r.S, r.A - 2), SUBSTR(r.S, r.A - 3, r.A - 2), SUBSTRING(r.S, 2, 3), SUBSTR(r.S, -2) FROM R r;
SELECT CAST(r.B * 3.3 AS INTEGER), CAST(r.B AS TEXT), CAST(r.A AS VARCHAR(10)), CAST(r.A AS REAL) * 0.25 FROM R r;
SELECT CAST(r.A || '5x' AS INTEGER), CAST(r.B || 'e1' AS REAL), CAST(r.S AS INT), CAST(SUBSTR(r.S, 1, 1) || r.A AS DOUBLE) FROM R r;
SELECT SUBSTR(r.S, 1, 2), SUM(CAST(r.B * 2 AS INT)), COUNT(*) FROM R r GROUP BY SUBSTR(r.S, 1, 2);
SELECT r.A FROM R r WHERE CAST(r.B AS INTEGER) = r.A - 1 AND SUBSTR(r.S, 0, 2) = 'a';
