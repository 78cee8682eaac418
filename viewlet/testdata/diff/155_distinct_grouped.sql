-- SELECT DISTINCT over an aggregated query (issue 8, X) whose GROUP BY keys
-- are all selected, or that has no GROUP BY: its rows are distinct already,
-- and each value column keeps its value.
-- diff: ints=6 events=500
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT DISTINCT s.C, SUM(s.B) AS v FROM S s GROUP BY s.C;
SELECT DISTINCT SUM(s.B) FROM S s;
SELECT DISTINCT s.C, MIN(s.B) AS v FROM S s GROUP BY s.C;
SELECT DISTINCT -58, MIN(97) FROM S s;
SELECT DISTINCT s.C, MAX(s.B) AS hi, COUNT(*) AS n, AVG(s.B) AS a FROM S s GROUP BY s.C HAVING COUNT(*) > 1;
SELECT DISTINCT s.C + 1 AS k, COUNT(*) AS n FROM S s, T t WHERE s.B = t.C GROUP BY s.C + 1;
SELECT DISTINCT COUNT(*) AS n, MAX(t.D) AS m FROM T t WHERE t.C > 1;
SELECT DISTINCT s.C, (SELECT SUM(t.D) FROM T t WHERE t.C = s.C) AS v FROM S s GROUP BY s.C;
