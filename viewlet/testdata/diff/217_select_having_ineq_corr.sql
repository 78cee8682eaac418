-- Subqueries in SELECT and HAVING correlated with a group key by an
-- inequality or only through IN / SOME / ALL's test (no inner atom holds the
-- key): SUM, COUNT, MAX, AVG, IN, ALL; grouped by one key and by two.
-- diff: events=400 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, (SELECT SUM(t.D) FROM T t WHERE t.C < s.C) AS v FROM S s GROUP BY s.C;
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING COUNT(*) <= (SELECT COUNT(*) FROM T t WHERE t.C < s.C);
SELECT s.C, (SELECT MAX(t.D) FROM T t WHERE t.C < s.C) AS v FROM S s GROUP BY s.C;
SELECT s.B, s.C, (SELECT AVG(t.D) FROM T t WHERE t.C >= s.C AND t.D = s.B) AS v FROM S s GROUP BY s.B, s.C;
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING s.C IN (SELECT t.C FROM T t WHERE t.D > 1);
SELECT s.C, COUNT(*) AS n FROM S s GROUP BY s.C HAVING s.C > ALL (SELECT t.C FROM T t WHERE t.D < 5);
SELECT s.B, CASE WHEN s.B IN (SELECT t.D FROM T t) THEN 1 ELSE 0 END AS v, SUM(s.C) AS w FROM S s GROUP BY s.B;
