-- Plain SQL (issue 11): the scalar functions SQLite and PostgreSQL share,
-- with SQLite's semantics, over stream data: ABS, ROUND (SQLite's rounding
-- of the decimal digits, not Go's), LENGTH, UPPER, LOWER, TRIM, LTRIM,
-- RTRIM, ||, in the select list, in WHERE, in GROUP BY and in aggregates.
-- diff: ints=7 words=18 events=700 deletes=0.45
CREATE STREAM R(A int, B float, S varchar(30));
CREATE STREAM T(A int, N varchar(30));
SELECT ABS(r.A - 3), ABS(r.B - 1.5), ROUND(r.B * 1.7 - 2, 1), ROUND(r.B / 3, 2), ROUND(r.A * 0.25), ROUND(r.B + 0.125, r.A) FROM R r;
SELECT LENGTH(r.S), UPPER(r.S), LOWER(r.S), COUNT(*) FROM R r GROUP BY LENGTH(r.S), UPPER(r.S), LOWER(r.S);
SELECT TRIM(r.S, 'aP'), LTRIM(r.S, 'a'), RTRIM(r.S || '  '), TRIM(' ' || r.S) FROM R r WHERE LENGTH(r.S) > 1;
SELECT r.S || '/' || t.N || r.A, r.B || '' FROM R r, T t WHERE r.A = t.A;
SELECT UPPER(t.N), SUM(ROUND(r.B, 1)), SUM(ABS(r.A - t.A)) FROM R r, T t WHERE LOWER(r.S) = LOWER(t.N) GROUP BY UPPER(t.N);
SELECT SUM(LENGTH(r.S || t.N)) FROM R r, T t WHERE r.A < t.A;
SELECT r.A FROM R r WHERE ROUND(r.B) = r.A AND ABS(r.B) > 0.5;
