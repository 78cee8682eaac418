-- Dialect sql: a NULL literal takes its type from where it stands: NULL IN
-- a list of strings (its NULLs too), and a CASE whose results are all NULL
-- as the operand of LIKE. Found by the SQL corpus (seeds 31354, 32662).
-- diff: sql ints=3 events=300
CREATE STREAM R(A int, B varchar(5));
SELECT A FROM R WHERE NULL IN ('a', 'N', NULL) OR A > 1;
SELECT A, B FROM R WHERE NULL NOT IN ('a', B) OR A = 0;
SELECT A FROM R WHERE CASE WHEN A > 1 THEN NULL END LIKE '%';
SELECT A FROM R WHERE CASE WHEN A > 1 THEN NULL ELSE NULL END NOT LIKE 'a%' OR B LIKE '%';
