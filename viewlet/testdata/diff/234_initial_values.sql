-- Maps whose relations are all nested (an uncorrelated NOT EXISTS / NOT IN
-- / scalar comparison materialized on its own) are non-zero before the
-- first event: they start at their value over empty relations. (Two
-- relations: the streams of seeds 1 and 2 start with S.)
-- diff: ints=4 deletes=0.4 events=600 depth0
CREATE STREAM T(C int, D int);
CREATE STREAM S(B int, C int);
SELECT s1.B, COUNT(DISTINCT s1.C) AS v1, COUNT(*) AS v2 FROM S s1 WHERE NOT EXISTS (SELECT * FROM T t2, T t3 WHERE t3.C <= t2.D AND t2.C + t2.D < t3.D) GROUP BY s1.B;
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s WHERE (SELECT COUNT(*) FROM T t) = 0 GROUP BY s.C;
SELECT COUNT(DISTINCT s.B) AS v FROM S s WHERE 2 NOT IN (SELECT t.D FROM T t);
SELECT s.B, SUM(s.C) AS v FROM S s WHERE NOT EXISTS (SELECT * FROM T t WHERE t.C > 2) AND (SELECT SUM(t.D) FROM T t) < 5 GROUP BY s.B;
