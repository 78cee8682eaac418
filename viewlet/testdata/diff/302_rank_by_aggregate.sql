-- Dialect sql: RANK, DENSE_RANK and ROW_NUMBER (ties by the GROUP BY
-- keys) over a grouped query's groups ordered by an expression of their
-- aggregates (a leaderboard: RANK() OVER (ORDER BY SUM(x) DESC)),
-- ascending and descending, partitioned by a GROUP BY key, with NULL sums
-- (no non-NULL argument: first ascending, last descending, peers), ties,
-- an AVG and an arithmetic of aggregates, and filters on the rank and the
-- number (the top groups of each partition). The rank is read from a count
-- of the groups by their value, kept per partition in a range-sum index:
-- an event moves its group's entry, O(log n).
-- diff: sql ints=4 events=900
CREATE STREAM R(A int, B int NOT NULL, C int);
CREATE STREAM S(A int NOT NULL, D int NOT NULL);
SELECT A, SUM(C) AS s, RANK() OVER (ORDER BY SUM(C) DESC) AS rk FROM R GROUP BY A;
SELECT A, B, COUNT(*), DENSE_RANK() OVER (PARTITION BY A ORDER BY COUNT(*)) AS dr, RANK() OVER (PARTITION BY B ORDER BY COUNT(*) DESC) AS rk FROM R GROUP BY A, B;
SELECT B, RANK() OVER (ORDER BY AVG(C)) AS rk, DENSE_RANK() OVER (ORDER BY SUM(C) - COUNT(*) DESC) FROM R GROUP BY B;
SELECT r.A, SUM(s.D) AS t, RANK() OVER (ORDER BY SUM(s.D) DESC) AS rk FROM R r, S s WHERE r.A = s.A GROUP BY r.A;
SELECT A, C, s FROM (SELECT A, C, SUM(B) AS s, RANK() OVER (PARTITION BY A ORDER BY SUM(B) DESC) AS rk FROM R GROUP BY A, C) AS t WHERE rk <= 2;
SELECT RANK() OVER (ORDER BY COUNT(*)) AS one, COUNT(*) FROM R;
SELECT A, C, SUM(B) AS s, ROW_NUMBER() OVER (PARTITION BY C ORDER BY SUM(B) DESC) AS n FROM R GROUP BY A, C;
SELECT A, COUNT(*), ROW_NUMBER() OVER (ORDER BY COUNT(*)) AS n FROM R GROUP BY A;
SELECT A, C, s FROM (SELECT A, C, SUM(B) AS s, ROW_NUMBER() OVER (ORDER BY SUM(B) DESC) AS n FROM R GROUP BY A, C) AS t WHERE n <= 3;
