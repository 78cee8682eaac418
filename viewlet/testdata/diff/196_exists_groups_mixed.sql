-- Exists over grouped sums in more shapes (issue 8, family V): COUNT(DISTINCT)
-- with inequality joins, constant conditions, expressions; grouped IN / NOT IN
-- / EXISTS over cross products; DISTINCT over cross products.
-- diff: events=300 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s, T t WHERE t.D > s.B GROUP BY s.C;
SELECT s.C, COUNT(DISTINCT t.D) AS v FROM S s, T t WHERE 3 > 2 GROUP BY s.C;
SELECT COUNT(DISTINCT s.B + s.C) AS v FROM S s WHERE 2 > 1;
SELECT s.C, COUNT(DISTINCT s.B) AS v FROM S s WHERE EXISTS (SELECT * FROM T t WHERE t.D > 0) AND 2 > 1 GROUP BY s.C;
SELECT s.C, COUNT(DISTINCT s.B) AS v, COUNT(*) AS n FROM S s, T t WHERE t.C = 1 GROUP BY s.C;
SELECT t.D, COUNT(DISTINCT s.B) AS v FROM S s, T t WHERE s.C > t.C GROUP BY t.D;
SELECT COUNT(*) AS v FROM S s WHERE EXISTS (SELECT t.C FROM T t, S s2 WHERE t.C = s.B GROUP BY t.C);
SELECT COUNT(*) AS v FROM S s WHERE s.B IN (SELECT t.C FROM T t WHERE 2 > 1 GROUP BY t.C);
SELECT s.C, COUNT(*) AS v FROM S s WHERE s.B NOT IN (SELECT t.C FROM T t, S s2 GROUP BY t.C) GROUP BY s.C;
SELECT DISTINCT s.C FROM S s, T t WHERE 2 > 1;
SELECT DISTINCT s.C, t.D FROM S s, T t;
