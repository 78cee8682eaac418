-- COUNT(DISTINCT …) in subqueries correlated by inequalities (alone, mixed
-- with equalities, in SELECT inside an aggregate, in WHERE and HAVING): the
-- nested aggregate is evaluated in place for the outer row.
-- diff: ints=4 events=500 depth0
CREATE STREAM S(B int, C int);
CREATE STREAM T(C int, D int);
SELECT s.B, SUM((SELECT COUNT(DISTINCT t.C) FROM T t WHERE t.D > s.B)) AS v FROM S s GROUP BY s.B;
SELECT COUNT(*) AS v FROM S s WHERE (SELECT COUNT(DISTINCT t.D) FROM T t WHERE t.C = s.C AND t.D > s.B) > 0;
SELECT s.C, COUNT(*) AS v FROM S s WHERE (SELECT COUNT(DISTINCT t.D) FROM T t WHERE t.C <> s.B) >= 2 GROUP BY s.C;
SELECT COUNT(*) AS v FROM S s WHERE s.B IN (SELECT COUNT(DISTINCT t.C) FROM T t WHERE t.D <= s.C);
SELECT s.B, COUNT(*) AS v FROM S s GROUP BY s.B HAVING COUNT(*) > (SELECT COUNT(DISTINCT t.C) FROM T t WHERE t.D < s.B);
