-- Dialect dbtoaster (no NULLs): issue 12's operators over static tables and
-- streams — top-K of a join with a static table (loaded before the
-- streams), a median and a mode per static group, windows over a join with
-- a static table (running and partitioned), a ranked top-K, a compound
-- query with ORDER BY and LIMIT, INTERSECT ALL.
-- diff: events=600
CREATE TABLE N(K int, G int);
CREATE STREAM R(A int, K int);
CREATE STREAM S(K int, C int);
SELECT N.G, SUM(R.A) AS total FROM R, N WHERE R.K = N.K GROUP BY N.G ORDER BY total DESC LIMIT 2;
SELECT N.G, MEDIAN(R.A), MODE(R.A), PERCENTILE_CONT(0.75) WITHIN GROUP (ORDER BY R.A DESC) FROM R, N WHERE R.K = N.K GROUP BY N.G;
SELECT R.A, N.G, SUM(R.A) OVER (PARTITION BY N.G ORDER BY R.A) AS run, COUNT(*) OVER (PARTITION BY N.G) AS n FROM R, N WHERE R.K = N.K;
SELECT A, K, DENSE_RANK() OVER (ORDER BY A DESC) AS place FROM R ORDER BY place, K LIMIT 3;
SELECT K FROM R UNION ALL SELECT K FROM S ORDER BY 1 DESC LIMIT 5 OFFSET 2;
SELECT K FROM R INTERSECT ALL SELECT K FROM S ORDER BY K LIMIT 3;
SELECT S.K, VAR_POP(S.C), STDDEV(S.C) FROM S GROUP BY S.K ORDER BY 1 DESC LIMIT 2;
